-- ReservationRetryTest's scratch table (not one of Leaf's): rows an operator's transaction writes so
-- that it weighs more than a block reservation, and InnoDB picks the reservation as a deadlock's victim.
CREATE TABLE IF NOT EXISTS retry_ballast (n int NOT NULL) ENGINE=InnoDB
