package com.orderconsole.app.remote;

import com.orderconsole.app.Messages;

import java.util.Objects;
import java.util.function.Function;

/**
 * An access token from an environment variable, for scripts ({@code --token-env VAR}): read when asked, so a
 * process that changes its environment is not needed and nothing is cached; a token serve refused is not sent again.
 * The token never appears in a message.
 */
public final class EnvToken implements AccessTokens {
    private final String variable;
    private final Function<String, String> env;
    private String refused;
    private boolean signedOut;

    /** @param variable the variable's name, e.g. {@code ORDER_CONSOLE_TOKEN} */
    public EnvToken(String variable) {
        this(variable, System::getenv);
    }

    /**
     * @param variable the variable's name
     * @param env reads a variable (tests give their own environment)
     */
    public EnvToken(String variable, Function<String, String> env) {
        this.variable = Objects.requireNonNull(variable, "variable");
        this.env = env;
    }

    /**
     * Checks the variable now, so a command line naming an unset or empty one is refused before anything is asked of
     * serve.
     *
     * @throws IllegalArgumentException in words, when the variable is unset, empty or holds no token
     */
    public void check() {
        try {
            read();
        } catch (SignInRequiredException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public synchronized String current() {
        if (signedOut) {
            throw new SignInRequiredException(Messages.format("remote.token.env.signedOut", variable));
        }
        String token = read();
        if (token.equals(refused)) {
            throw new SignInRequiredException(Messages.format("remote.token.env.refused", variable));
        }
        return token;
    }

    private String read() {
        String value = env.apply(variable);
        if (value == null) {
            throw new SignInRequiredException(Messages.format("remote.token.env.unset", variable));
        }
        String token = value.strip();
        if (token.isEmpty()) {
            throw new SignInRequiredException(Messages.format("remote.token.env.empty", variable));
        }
        if (!BearerTokens.wellFormed(token)) {
            throw new SignInRequiredException(Messages.format("remote.token.env.malformed", variable));
        }
        return token;
    }

    @Override
    public synchronized void rejected(String token) {
        refused = token;
    }

    @Override
    public synchronized void signOut() {
        signedOut = true;
    }
}
