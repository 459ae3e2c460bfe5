/**
 * The {@code leaf_alloc} rows over HTTP: {@code GET /api/segment/tags} reads the table (open,
 * like the cache view), and the admin API under {@code /api/admin/} creates tags, changes a
 * tag's step and re-reads the tag list. The admin API exists only while {@code leaf.admin.token}
 * is set, and an interceptor checks the bearer token before any request body is read. Every
 * change is a plain statement on the table, so every instance picks it up as it would an
 * operator's SQL edit; request bodies are read strictly, naming the field at fault.
 */
package org.leafid.server.admin;
