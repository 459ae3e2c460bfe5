-- Formats: Leaf's own table beside leaf_alloc. The definition of each format's tag (its pattern,
-- reset, zone and source), recorded by the first server that uses the tag. A server whose format of
-- that tag is defined otherwise is refused for that format (503 format-conflict): two patterns over
-- one tag's numbers can render the same string twice. Change a format under a new tag.
-- The server creates the table itself on first use; run this script when its database user may
-- not create tables.
CREATE TABLE IF NOT EXISTS `leaf_format` (
  `tag`         varchar(128)  NOT NULL,
  `definition`  varchar(512)  NOT NULL,
  `created_at`  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`tag`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
