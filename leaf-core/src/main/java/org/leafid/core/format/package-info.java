/**
 * Numbers people read: a format turns the numbers of a segment tag (or snowflake IDs) into strings
 * such as {@code ORD202611270001237}, with literal text, date parts, a fixed-width number in base
 * 10, 36 or 62, and a check character; a format can start its number at 1 again every day, month
 * or year, each period from its own sequence.
 */
package org.leafid.core.format;
