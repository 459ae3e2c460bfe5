/**
 * Every {@code leaf.*} record bound at each start, whichever modes are on; the one package that knows
 * them all, so that no mode's package needs to know another's.
 */
package org.leafid.autoconfigure.properties;
