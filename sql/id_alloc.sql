-- Shard mode: the Redis-queue ID services' table, column for column as their DDL has it (one row per
-- app and shard). IF NOT EXISTS, as in the other scripts, so that running it again keeps the table
-- and its rows.
CREATE TABLE IF NOT EXISTS `id_alloc` (
  `app_id` int(11) NOT NULL,
  `app_name` varchar(128) NOT NULL,
  `max_id` bigint(20) NOT NULL DEFAULT '1',
  `shard_id` int(11) NOT NULL,
  `step` int(11) NOT NULL DEFAULT '1000',
  `description` varchar(255) DEFAULT NULL,
  `create_time` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  `max_limit_id` bigint(20) NOT NULL DEFAULT '0',
  PRIMARY KEY (`app_id`,`shard_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
