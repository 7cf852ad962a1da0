package com.orderconsole.cli;

import com.orderconsole.app.BuildInfo;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the project's version from the build, never a number written by hand. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"order-console " + BuildInfo.version(), "Java " + System.getProperty("java.version")}; // i18n-ok: roff requests, man section names and shell text, not words for the user
    }
}
