/** Transitions: the one way to change an order's status (transition.lua), and transition-and-wait-for-MySQL. */
package com.orderconsole.service.transition;
