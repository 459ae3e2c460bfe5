/** The starter's LeafClient bean in an application calling the real server. */
package org.leafid.server.client;
