-- Snowflake mode `disposable`: Baidu uid-generator's WORKER_NODE table, its DDL unchanged, so that
-- a uid-generator database works as it is. Every start inserts one row and takes the row's ID
-- as its worker id (uid-generator's DisposableWorkerIdAssigner rule): an ID is never given twice,
-- so no clock state has to survive a restart. An ID above 2^worker-bits - 1 stops the start.
-- No IF NOT EXISTS: this is their script; run it once, on a database that lacks the table.
CREATE TABLE WORKER_NODE
(
ID BIGINT NOT NULL AUTO_INCREMENT COMMENT 'auto increment id',
HOST_NAME VARCHAR(64) NOT NULL COMMENT 'host name',
PORT VARCHAR(64) NOT NULL COMMENT 'port',
TYPE INT NOT NULL COMMENT 'node type: ACTUAL or CONTAINER',
LAUNCH_DATE DATE NOT NULL COMMENT 'launch date',
MODIFIED TIMESTAMP NOT NULL COMMENT 'modified time',
CREATED TIMESTAMP NOT NULL COMMENT 'created time',
PRIMARY KEY(ID)
)
 COMMENT='DB WorkerID Assigner for UID Generator',ENGINE = INNODB;
