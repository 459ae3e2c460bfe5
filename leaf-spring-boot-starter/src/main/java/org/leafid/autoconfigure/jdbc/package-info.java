/**
 * Which database Leaf uses, decided once for segment mode and the {@code mysql} worker-id mode alike,
 * and only when one of them is on: {@code leaf.jdbc.url} set gives Leaf its own Druid pool; without it
 * the application's one {@code DataSource} is used, so {@code leaf_alloc} can live in the application's
 * own database without repeating its settings; without either, an H2 file under {@code leaf.data-dir},
 * the server's out-of-the-box default. The choice is a {@link org.leafid.autoconfigure.jdbc.LeafDataSource}
 * rather than a {@code DataSource} bean, so that Leaf's pool never takes the place of the application's
 * and it carries the name messages give the database (its url, shown without the password).
 */
package org.leafid.autoconfigure.jdbc;
