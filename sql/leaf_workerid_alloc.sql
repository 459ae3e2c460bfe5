-- Snowflake mode `mysql`: one row per instance (ip:port), kept for good, as Leaf's zk_normal
-- keeps one ZooKeeper node per instance.
-- worker id = id - 1, so the first 1024 rows give worker ids 0..1023; an instance whose row has
-- an id above 1024 refuses to start. Rows of retired instances are not removed automatically:
-- to free an id, give the retired row to the new instance (UPDATE its ip_port, ip and port),
-- which keeps its max_timestamp; deleting rows alone does not lower the AUTO_INCREMENT counter.
-- max_timestamp is the time reservation: the instance issues IDs only before it (ms since
-- 1970), extends it ahead of the clock while running, and a restart waits until the clock
-- has passed it.
-- holder is the one process holding the row (its ip:port and a random token of the process); a
-- graceful stop clears it, and every write of the holder sets update_time. A start finding the
-- row held and written within the holder lease (10 report intervals) is a second live process of
-- the address and is refused. A table made before the column: ALTER TABLE leaf_workerid_alloc
-- ADD COLUMN holder varchar(128) NULL;
CREATE TABLE IF NOT EXISTS `leaf_workerid_alloc` (
  `id`            bigint        NOT NULL AUTO_INCREMENT,
  `ip_port`       varchar(128)  NOT NULL,
  `ip`            varchar(64)   NOT NULL,
  `port`          int           NOT NULL,
  `max_timestamp` bigint        NOT NULL DEFAULT 0,
  `holder`        varchar(128)  NULL,
  `create_time`   timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `update_time`   timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_ip_port` (`ip_port`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
