package com.orderconsole.app.remote;

import com.orderconsole.domain.Environment;

import java.net.URI;
import java.util.Objects;

/**
 * What a console or CLI in remote mode starts from once a person signed in: serve's API, where its access tokens come
 * from, and the environment for the band and the production guard. The remote services are built from it
 * ({@code new RemoteServices(start.server(), start.tokens())}).
 *
 * @param server serve's API base URL (the profile's {@code server})
 * @param tokens the signed-in person's access tokens (an {@link OidcSession}, or a token command's)
 * @param environment the profile's name, kind and colour
 */
public record RemoteStart(URI server, AccessTokens tokens, Environment environment) {
    public RemoteStart {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(environment, "environment");
    }
}
