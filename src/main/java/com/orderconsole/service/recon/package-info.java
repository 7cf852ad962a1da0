/** Reconciliation: compares Redis with MySQL (streaming, flat memory) and repairs findings by category. */
package com.orderconsole.service.recon;
