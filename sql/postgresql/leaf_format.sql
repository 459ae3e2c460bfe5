-- The definition of each format's tag, recorded by its first server (see ../leaf_format.sql).
CREATE TABLE IF NOT EXISTS leaf_format (
  tag         varchar(128)  NOT NULL,
  definition  varchar(512)  NOT NULL,
  created_at  timestamp     NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (tag)
);
