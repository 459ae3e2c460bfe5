/**
 * What the server does before its context starts: work left off the start path when the
 * configuration shows it is not needed.
 */
package org.leafid.server.startup;
