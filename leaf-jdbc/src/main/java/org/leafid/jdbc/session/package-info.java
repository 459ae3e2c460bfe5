/** The one MyBatis session factory of Leaf's tables, with every table's mapper registered on it. */
package org.leafid.jdbc.session;
