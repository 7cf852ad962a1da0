/**
 * The clients of the HTTP API: one credential per calling service, registered, listed and revoked by an admin,
 * and the in-memory table that authenticates each request without asking MySQL.
 */
package com.orderconsole.service.client;
