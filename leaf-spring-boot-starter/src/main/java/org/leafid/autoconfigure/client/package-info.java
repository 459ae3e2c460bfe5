/**
 * The {@link org.leafid.client.LeafClient} bean, for applications that call Leaf servers rather than
 * issue IDs themselves: made from {@code leaf.client.*} when leaf-client is on the class path and
 * {@code leaf.client.servers} is set, with the client's meters on the application's registry and a
 * {@code leafClient} health contributor (UP while at least one server is not backing off).
 */
package org.leafid.autoconfigure.client;
