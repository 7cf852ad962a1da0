package com.orderconsole.app.remote;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Opens an address in the person's own browser, where they sign in with the identity provider (never an embedded web view,
 * never a password typed into the console). Tests use an opener that follows the address with an HTTP client.
 */
@FunctionalInterface
public interface BrowserOpener {
    /**
     * @param address the address to open; the call returns once the browser was asked, not when the person is done
     * @throws IOException when no browser could be asked to open it
     */
    void open(URI address) throws IOException;

    /**
     * @return the system browser: the desktop's browse action where the platform has one, else {@code xdg-open} (Linux and
     *     other Unix), {@code open} (macOS) or {@code rundll32 url.dll,FileProtocolHandler} (Windows)
     */
    static BrowserOpener system() {
        return address -> {
            try {
                if (java.awt.Desktop.isDesktopSupported() && java.awt.Desktop.getDesktop().isSupported(java.awt.Desktop.Action.BROWSE)) {
                    java.awt.Desktop.getDesktop().browse(address);
                    return;
                }
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                // The desktop integration is missing or refused (a headless JVM, a minimal window manager): the OS command next.
            }
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            List<String> command = os.contains("win") ? List.of("rundll32", "url.dll,FileProtocolHandler", address.toString())
                    : os.contains("mac") ? List.of("open", address.toString()) : List.of("xdg-open", address.toString());
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        };
    }
}
