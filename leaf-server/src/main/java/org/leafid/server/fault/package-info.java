/**
 * Test-only: a clock the fault suite moves from outside the server process
 * ({@code POST /fault/clock}), present only under the {@code fault-injection} profile, which no
 * deployment enables. It ships in the server jar because the fault suite runs that jar as
 * separate processes.
 */
package org.leafid.server.fault;
