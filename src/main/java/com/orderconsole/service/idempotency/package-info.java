/** The answers of the HTTP API kept per client and Idempotency-Key, so a POST sent again is answered the same. */
package com.orderconsole.service.idempotency;
