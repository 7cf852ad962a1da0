package com.orderconsole.app;

import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;

/**
 * What the command line hands the console when it opens it.
 *
 * @param config servers and tuning (background jobs on); for a profile to be picked, the embedded default
 * @param operator who the command line signed in, or null when the sign-in dialog asks or the local machine vouches
 * @param environment the environment named (profile, "local" or "external")
 * @param choices profiles to offer in the picker before anything starts; empty when the command line named
 *     servers or a profile, or none exist (then the console starts on {@code config} at once)
 * @param remote the remote profile named on the command line (serve's API, no stores), or null
 */
public record ConsoleStart(EngineConfig config, Operator operator, Environment environment, Profiles.Listing choices,
                           Profile remote) {
    /** A start on the stores ({@code config}), or with profiles to pick from. */
    public ConsoleStart(EngineConfig config, Operator operator, Environment environment, Profiles.Listing choices) {
        this(config, operator, environment, choices, null);
    }

    /**
     * A start on serve's API: no engine, no store; the person signs in as the profile says.
     *
     * @param profile a profile with {@code server} ({@link Profile#remote()})
     * @return the start; the console builds nothing from {@code config}
     */
    public static ConsoleStart remote(Profile profile) {
        if (!profile.remote()) {
            throw new IllegalArgumentException("profile " + profile.name() + " names no server");
        }
        return new ConsoleStart(EngineConfig.embeddedDefault(), null, profile.environment(),
                new Profiles.Listing(java.util.List.of(), java.util.List.of()), profile);
    }

    /** @return true when the operator picks a profile first */
    public boolean pick() {
        return !choices.empty();
    }
}
