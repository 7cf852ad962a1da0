package com.orderconsole.app.remote;

import com.orderconsole.domain.Environment;

import java.net.URI;
import java.util.Objects;

/**
 * What a console or CLI in remote mode starts from once a person signed in: serve's API, where its access tokens come
 * from, and the environment for the band and the production guard.
 *
 * @param server serve's API base URL (the profile's {@code server}), e.g. https://serve.example
 * @param tokens the signed-in person's access tokens (an {@link OidcSession}, a token command's, an environment variable)
 * @param environment the profile's name, kind and colour
 */
public record RemoteStart(URI server, AccessTokens tokens, Environment environment) {
    public RemoteStart {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(environment, "environment");
    }

    /** @return the services through serve for this start (nothing is asked of serve yet) */
    public RemoteServices services() {
        return new RemoteServices(server, tokens);
    }
}
