-- Shard mode's own tables on PostgreSQL (see ../leaf_shard.sql): each app's recorded key mode and
-- the highest index issued per shard.
CREATE TABLE IF NOT EXISTS leaf_shard_key (
  app_id      integer       NOT NULL,
  fingerprint varchar(128)  NOT NULL,
  created_at  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (app_id)
);

CREATE TABLE IF NOT EXISTS leaf_shard_watermark (
  app_id      integer       NOT NULL,
  shard_id    integer       NOT NULL,
  issued_high bigint        NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, shard_id)
);
