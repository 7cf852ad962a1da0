package com.orderconsole.cli;

import com.orderconsole.app.BuildInfo;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: the project's version from the build and the releases of the bundled servers as their artifacts
 * name them, never a number written by hand.
 */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"order-console " + BuildInfo.version(), "Java " + System.getProperty("java.version"), // i18n-ok: program names and versions
                "bundled Redis " + BuildInfo.bundledRedis(), "bundled MariaDB " + BuildInfo.bundledMariaDb()}; // i18n-ok: program names and versions
    }
}
