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
 */
public record ConsoleStart(EngineConfig config, Operator operator, Environment environment, Profiles.Listing choices) {
    /** @return true when the operator picks a profile first */
    public boolean pick() {
        return !choices.empty();
    }
}
