/** The reconciliation page: Redis compared with MySQL with progress and cancel, findings by category, dry-run then repair; and the dead letters. */
package com.orderconsole.ui.recon;
