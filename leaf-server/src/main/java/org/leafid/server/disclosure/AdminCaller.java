package org.leafid.server.disclosure;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Whether a request carries the admin token, asked by what shows more to the admin than to anyone
 * ({@link Disclosure}). Never throws: a wrong token here is simply not the admin's (the admin API
 * itself refuses it, and counts it).
 */
public interface AdminCaller {

    boolean isAdmin(HttpServletRequest request);
}
