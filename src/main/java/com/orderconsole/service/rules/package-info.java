/** Transition rules as data: validated JSON, versioned and archived in MySQL, published to every bucket. */
package com.orderconsole.service.rules;
