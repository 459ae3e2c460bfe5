/**
 * What every worker-id mode of the server shares: the {@code ip:port} that names an instance, the
 * cache directory {@code {data-dir}/{leaf.name}/{port}/} with its reservation files (written
 * atomically, so a crash leaves the old or the new content), and the readiness indicator that is
 * UP only while the worker id is held and its reservation covers the clock. The registries of
 * each mechanism are in the sub-packages.
 */
package org.leafid.server.worker;
