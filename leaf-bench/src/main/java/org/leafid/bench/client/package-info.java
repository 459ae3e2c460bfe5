/** The end-to-end load of leaf-client against a local server, run by client-bench.sh. */
package org.leafid.bench.client;
