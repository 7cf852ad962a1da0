/** The engine: starts embedded servers or connects to external ones, and builds the service layer. */
package com.orderconsole.app;
