/**
 * Which modes are on: shard mode's switch and the worker-id mode in effect, read through the Binder
 * as the records read them. Here rather than beside each mode, because the database's configuration
 * asks them too (is the Leaf database needed?) while the modes use the database.
 */
package org.leafid.autoconfigure.mode;
