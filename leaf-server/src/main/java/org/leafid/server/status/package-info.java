/**
 * The status page at {@code /}: what the generators already expose and the meters that exist anyway,
 * rendered server-side, so it takes nothing from the ID hot path.
 */
package org.leafid.server.status;
