package com.orderconsole.domain;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which environment a console or command works on, as its connection profile names it: shown with its
 * colour on every page and dialog title, and on {@link Kind#PRODUCTION} the risky actions ask the
 * operator to type what they act on.
 *
 * @param name the profile's name, e.g. "prod-eu" ("local" for the embedded servers)
 * @param kind what kind of environment it is
 * @param colour the band's colour as {@code #rrggbb}
 */
public record Environment(String name, Kind kind, String colour) {
    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}");

    /** The embedded servers of the data directory: the default when no profile is chosen. */
    public static final Environment LOCAL = new Environment("local", Kind.LOCAL, Kind.LOCAL.defaultColour());

    /** Kinds of environment, from harmless to the real one. */
    public enum Kind {
        LOCAL("#2e7d32"), DEV("#1565c0"), STAGING("#ef6c00"), PRODUCTION("#c62828");

        private final String defaultColour;

        Kind(String defaultColour) {
            this.defaultColour = defaultColour;
        }

        /** @return the band colour used when a profile names none, {@code #rrggbb} */
        public String defaultColour() {
            return defaultColour;
        }

        /** @return the kind as written in a profile file, e.g. "production" */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param text as written in a profile: local, dev, staging or production (any case)
         * @return the kind
         * @throws IllegalArgumentException when it is none of them
         */
        public static Kind parse(String text) {
            for (Kind k : values()) {
                if (k.key().equalsIgnoreCase(text == null ? "" : text.strip())) {
                    return k;
                }
            }
            throw new IllegalArgumentException(String.valueOf(text));
        }
    }

    /**
     * @throws IllegalArgumentException when the name is blank or the colour is not {@code #rrggbb}
     */
    public Environment {
        Objects.requireNonNull(kind, "kind");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an environment needs a name");
        }
        if (colour == null || !COLOUR.matcher(colour).matches()) {
            throw new IllegalArgumentException("colour '" + colour + "' is not #rrggbb");
        }
        colour = colour.toLowerCase(Locale.ROOT);
    }

    /**
     * @param name what to call it, e.g. "external"
     * @return servers named on the command line without a profile: treated as production until a
     *     profile says otherwise
     */
    public static Environment external(String name) {
        return new Environment(name, Kind.PRODUCTION, Kind.PRODUCTION.defaultColour());
    }

    /** @param colour a text to check @return true when it is {@code #rrggbb} */
    public static boolean isColour(String colour) {
        return colour != null && COLOUR.matcher(colour).matches();
    }

    /** @return true on a production environment, where risky actions ask for the typed id or count */
    public boolean production() {
        return kind == Kind.PRODUCTION;
    }
}
