-- Leaf's own table beside leaf_alloc and id_alloc (theirs stay exactly as Meituan Leaf and the
-- Redis-queue services have them): the highest max_id this fleet has reserved, per segment tag
-- (name 'leaf_alloc:<biz_tag>') and per shard-mode app and shard (name 'id_alloc:<app>:<shard>').
-- Only ever raised, and kept when the row it guards is deleted: a block that would start at or
-- below it (max_id set back, a tag or app deleted and created again) is moved past it first.
-- The server creates the table itself on first use; run this script when its database user may
-- not create tables.
CREATE TABLE IF NOT EXISTS leaf_high_water (
  name varchar(160) NOT NULL,
  high bigint       NOT NULL,
  PRIMARY KEY (name)
);
