-- The embedded default's sample shard app (the sample tag comes with sql/leaf_alloc.sql): 64 rows,
-- shard 0..63, max_id 0 (the first block is 1..step), no limit. Only when the app has no row at
-- all: a row an operator deleted is not put back at max_id 0, which would issue its indexes again.
INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, description, max_limit_id)
SELECT 1, 'leaf-shard-test', 0, "X", 1000, 'Test leaf Shard Mode Get Id', 0
FROM SYSTEM_RANGE(0, 63)
WHERE NOT EXISTS (SELECT 1 FROM id_alloc WHERE app_id = 1);
