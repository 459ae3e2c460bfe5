-- Shard mode: Leaf's own tables beside id_alloc (sql/id_alloc.sql is the Redis-queue services'
-- table, kept exactly as theirs so their databases work unchanged; nothing of ours goes in it).

-- The fingerprint of leaf.shard.opaque-key per app, recorded on the first start that issues
-- opaque IDs for the app. A server with a key of another fingerprint does not serve the app (503
-- app-mode-conflict): the permutation would change, and IDs already issued could be issued again. To rotate a key, move to a new app id.
CREATE TABLE IF NOT EXISTS `leaf_shard_key` (
  `app_id`      int           NOT NULL,
  `fingerprint` varchar(128)  NOT NULL,
  `created_at`  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`app_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The highest index known to be issued per (app, shard), only ever raised. The Redis buffer
-- checks every block it pops against it, so that a Redis replica promoted while it lagged (its
-- lists still holding indexes already issued) cannot make the server issue them again.
CREATE TABLE IF NOT EXISTS `leaf_shard_watermark` (
  `app_id`      int           NOT NULL,
  `shard_id`    int           NOT NULL,
  `issued_high` bigint        NOT NULL DEFAULT 0,
  PRIMARY KEY (`app_id`, `shard_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
