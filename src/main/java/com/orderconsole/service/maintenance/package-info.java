/**
 * Maintenance: the data set's identity (which Redis data set pairs with which MySQL), its restore from MySQL when
 * Redis lost data or went back in time, and the periodic passes (terminal retention, lost creations).
 */
package com.orderconsole.service.maintenance;
