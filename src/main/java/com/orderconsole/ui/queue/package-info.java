/** The cancel-queue page: the delay queue of unpaid orders in deadline order, its depth, and the ops actions on it and on the sweeper. */
package com.orderconsole.ui.queue;
