-- Segment mode's table on PostgreSQL: Meituan Leaf's leaf_alloc, column for column. MySQL's
-- ON UPDATE CURRENT_TIMESTAMP is a trigger here, so update_time also moves when an operator edits
-- a row by hand. Idempotent: safe to run on every deploy.
CREATE TABLE IF NOT EXISTS leaf_alloc (
  biz_tag     varchar(128)  NOT NULL DEFAULT '',
  max_id      bigint        NOT NULL DEFAULT 1,
  step        integer       NOT NULL,
  description varchar(256)  DEFAULT NULL,
  update_time timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (biz_tag)
);

-- MySQL's ON UPDATE CURRENT_TIMESTAMP. Defined again (the same body) by each script with an
-- update_time column, so that each runs on its own: a team with shard mode alone runs id_alloc.sql only.
CREATE OR REPLACE FUNCTION leaf_touch_update_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- As MySQL: an UPDATE that sets update_time itself keeps its value.
  IF NEW.update_time IS NOT DISTINCT FROM OLD.update_time THEN
    NEW.update_time := CURRENT_TIMESTAMP;
  END IF;
  RETURN NEW;
END;
$$;

-- Quiet: the first run has no trigger to drop, and psql would say so.
SET client_min_messages = warning;
DROP TRIGGER IF EXISTS leaf_alloc_update_time ON leaf_alloc;
CREATE TRIGGER leaf_alloc_update_time BEFORE UPDATE ON leaf_alloc
  FOR EACH ROW EXECUTE FUNCTION leaf_touch_update_time();

INSERT INTO leaf_alloc(biz_tag, max_id, step, description)
VALUES ('leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id')
ON CONFLICT (biz_tag) DO NOTHING;
