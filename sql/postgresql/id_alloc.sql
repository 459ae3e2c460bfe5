-- Shard mode's table on PostgreSQL: the Redis-queue ID services' id_alloc, column for column
-- (their DDL is MySQL's; see ../id_alloc.sql). update_time follows updates through a trigger.
CREATE TABLE IF NOT EXISTS id_alloc (
  app_id       integer       NOT NULL,
  app_name     varchar(128)  NOT NULL,
  max_id       bigint        NOT NULL DEFAULT 1,
  shard_id     integer       NOT NULL,
  step         integer       NOT NULL DEFAULT 1000,
  description  varchar(255)  DEFAULT NULL,
  create_time  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  update_time  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  max_limit_id bigint        NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, shard_id)
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
DROP TRIGGER IF EXISTS id_alloc_update_time ON id_alloc;
CREATE TRIGGER id_alloc_update_time BEFORE UPDATE ON id_alloc
  FOR EACH ROW EXECUTE FUNCTION leaf_touch_update_time();
