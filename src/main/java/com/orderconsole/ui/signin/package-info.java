/**
 * Signing in before the console starts: against external servers the operator's own database account decides who they
 * are and what they may do; with a remote profile the person signs in with the company's identity provider in the system
 * browser, and signs in again when the session ends mid-work.
 */
package com.orderconsole.ui.signin;
