package org.leafid.jdbc.reservation;

/**
 * What a one-statement reservation answers (PostgreSQL's data-modifying {@code WITH}): the row's
 * {@code max_id} and step as the reservation left them, whether its block starts above the key's
 * high-water mark (then the statement raised the mark past it), and the database's identity now
 * and as recorded (its server's and its name's hashes; null before one was recorded).
 */
public record OneTripReservation(long maxId, int step, boolean aboveMark, String identity, Long recorded,
        Long recordedName) {}
