package com.orderconsole.app.remote;

import com.orderconsole.domain.Environment;

import java.net.URI;

/**
 * What the console needs to start in remote mode, from a remote profile and its sign-in: serve's address, the signed-in
 * person's tokens, and the environment (band, colours, production guard) the profile names.
 *
 * @param server serve's base address, e.g. https://serve.example
 * @param tokens the person's access tokens (browser sign-in, token command, environment variable)
 * @param environment the profile's environment
 */
public record RemoteStart(URI server, AccessTokens tokens, Environment environment) {
    /** @return the services through serve for this start */
    public RemoteServices services() {
        return new RemoteServices(server, tokens);
    }
}
