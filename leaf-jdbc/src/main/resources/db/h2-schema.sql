-- Embedded default (H2 in MySQL mode): the leaf_alloc table of sql/leaf_alloc.sql and the sample tag.
CREATE TABLE IF NOT EXISTS leaf_alloc (
  biz_tag     varchar(128) NOT NULL DEFAULT '',
  max_id      bigint       NOT NULL DEFAULT 1,
  step        int          NOT NULL,
  description varchar(256) DEFAULT NULL,
  update_time timestamp    NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (biz_tag)
);

INSERT INTO leaf_alloc(biz_tag, max_id, step, description)
SELECT 'leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id'
WHERE NOT EXISTS (SELECT 1 FROM leaf_alloc WHERE biz_tag = 'leaf-segment-test');
