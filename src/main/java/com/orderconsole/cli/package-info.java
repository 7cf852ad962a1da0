/** The headless command line (picocli) on the same service layer as the console. */
package com.orderconsole.cli;
