/**
 * The change feed of the HTTP API: applied transitions read from MySQL's durable history in the order of its
 * ids, resumable by an opaque cursor, and never past a row a transaction still holds uncommitted.
 */
package com.orderconsole.service.feed;
