/** The dead-letter list: records set aside because they could not be processed, with retry (restore from MySQL) and discard for ops. */
package com.orderconsole.service.deadletter;
