/**
 * The sign-in dialog shown before the console starts against external servers: the operator's own
 * database account decides who they are and what they may do.
 */
package com.orderconsole.ui.signin;
