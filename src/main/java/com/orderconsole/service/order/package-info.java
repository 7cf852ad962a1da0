/** Orders: the one creation path (also used by import), lookup, the order table, rebuild from MySQL. */
package com.orderconsole.service.order;
