-- The highest value ever reserved per tag, app shard or worker (see ../leaf_high_water.sql).
CREATE TABLE IF NOT EXISTS leaf_high_water (
  name varchar(160) NOT NULL,
  high bigint       NOT NULL,
  PRIMARY KEY (name)
);
