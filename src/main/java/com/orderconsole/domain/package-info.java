/** The order state machine as data and values: statuses, rules, result codes, ids, roles, operators. No I/O. */
package com.orderconsole.domain;
