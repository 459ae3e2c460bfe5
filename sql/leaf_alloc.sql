-- Segment mode: one row per business tag. Same table as Meituan Leaf's.
-- The block a load reserves is (max_id - step, max_id]: max_id - step .. max_id - 1 are issued.
CREATE TABLE IF NOT EXISTS `leaf_alloc` (
  `biz_tag`     varchar(128)  NOT NULL DEFAULT '',
  `max_id`      bigint(20)    NOT NULL DEFAULT '1',
  `step`        int(11)       NOT NULL,
  `description` varchar(256)  DEFAULT NULL,
  `update_time` timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`biz_tag`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The sample tag of the quick start; INSERT IGNORE keeps an existing row (and its max_id).
INSERT IGNORE INTO leaf_alloc(biz_tag, max_id, step, description)
VALUES ('leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id');
