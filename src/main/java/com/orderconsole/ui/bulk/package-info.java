/** The bulk moves page: orders chosen in the order table, a read-only preview, one reason, a typed confirmation, then compare-and-set moves. */
package com.orderconsole.ui.bulk;
