/** The order table and the order detail: keyset pages of orders from MySQL beside their Redis state, one order's history and story, its next moves and the admin override. */
package com.orderconsole.ui.order;
