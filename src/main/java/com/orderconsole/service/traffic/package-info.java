/** The live-traffic simulator that drives orders through the real service layer. */
package com.orderconsole.service.traffic;
