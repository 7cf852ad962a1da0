package com.orderconsole.cli;

import com.orderconsole.app.remote.AccessTokens;

import java.io.PrintStream;
import java.net.URI;

/** A person's sign-in at a terminal with a device code (RFC 8628), for a run through serve. */
final class TerminalSignIn {
    private TerminalSignIn() {
    }

    /**
     * @param issuer the identity provider
     * @param clientId the command line's public client id there
     * @param err where the address and the code are shown
     * @return the signed-in session's tokens
     */
    static AccessTokens signIn(URI issuer, String clientId, PrintStream err) {
        throw new UnsupportedOperationException("sign-in with a device code"); // i18n-ok: replaced by the session
    }
}
