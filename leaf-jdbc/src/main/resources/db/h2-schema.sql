-- Embedded default (H2 in MySQL mode): the leaf_alloc table of sql/leaf_alloc.sql and the sample tag.
CREATE TABLE IF NOT EXISTS leaf_alloc (
  biz_tag     varchar(128) NOT NULL DEFAULT '',
  max_id      bigint       NOT NULL DEFAULT 1,
  step        int          NOT NULL,
  description varchar(256) DEFAULT NULL,
  update_time timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (biz_tag)
);

INSERT INTO leaf_alloc(biz_tag, max_id, step, description)
SELECT 'leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id'
WHERE NOT EXISTS (SELECT 1 FROM leaf_alloc WHERE biz_tag = 'leaf-segment-test');

-- Shard mode: id_alloc as sql/id_alloc.sql has it (the Redis-queue services' table) ...
CREATE TABLE IF NOT EXISTS id_alloc (
  app_id       int          NOT NULL,
  app_name     varchar(128) NOT NULL,
  max_id       bigint       NOT NULL DEFAULT 1,
  shard_id     int          NOT NULL,
  step         int          NOT NULL DEFAULT 1000,
  description  varchar(255) DEFAULT NULL,
  create_time  timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP,
  update_time  timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  max_limit_id bigint       NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, shard_id)
);

-- ... and Leaf's own tables of sql/leaf_shard.sql.
CREATE TABLE IF NOT EXISTS leaf_shard_key (
  app_id      int          NOT NULL,
  fingerprint varchar(128) NOT NULL,
  created_at  timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (app_id)
);

CREATE TABLE IF NOT EXISTS leaf_shard_watermark (
  app_id      int    NOT NULL,
  shard_id    int    NOT NULL,
  issued_high bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, shard_id)
);

-- Leaf's high-water marks of sql/leaf_high_water.sql (both modes).
CREATE TABLE IF NOT EXISTS leaf_high_water (
  name varchar(160) NOT NULL,
  high bigint       NOT NULL,
  PRIMARY KEY (name)
);

-- The sample app: 64 rows, shard 0..63, max_id 0 (the first block is 1..step), no limit. Only
-- when the app has no row at all: a row an operator deleted is not put back at max_id 0, which
-- would issue its indexes again.
INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, description, max_limit_id)
SELECT 1, 'leaf-shard-test', 0, "X", 1000, 'Test leaf Shard Mode Get Id', 0
FROM SYSTEM_RANGE(0, 63)
WHERE NOT EXISTS (SELECT 1 FROM id_alloc WHERE app_id = 1);
