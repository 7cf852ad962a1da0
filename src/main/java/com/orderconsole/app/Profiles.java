package com.orderconsole.app;

import com.orderconsole.domain.Environment;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads connection profiles: one UTF-8 file per environment, {@code profiles/NAME.properties} in
 * {@link ConfigDir#path()}, with lines {@code key = value} ('#' or '!' starts a comment line; " # " a comment after a value):
 *
 * <pre>
 * kind = production          # local, dev, staging or production (required)
 * colour = #c62828           # band colour, #rrggbb (default by kind)
 * redis = rediss://redis.internal:6380/0
 * jdbc = jdbc:mysql://mysql.internal:3306/orders?sslMode=REQUIRED
 * db-user = alice
 * password-env = ORDERS_DB_PASSWORD   # optional: the variable holding the password
 * redis-password-env = ORDERS_REDIS_PASSWORD   # optional: Redis ACL password (with redis-user)
 * data-dir = /srv/order-console       # embedded servers only
 * oidc-issuer = https://login.example.com/realms/shop   # serve: people's access tokens (all four oidc- keys together)
 * oidc-audience = order-console
 * oidc-role-claim = groups
 * oidc-role-map = console-support=support,console-ops=ops,console-admin=admin
 * </pre>
 *
 * A remote profile names serve's API instead of the stores, and how people get their access token:
 *
 * <pre>
 * kind = production
 * server = https://orders.example.com         # serve's API; https (http only for 127.0.0.1 or localhost)
 * issuer = https://login.example.com/realms/shop
 * client-id = order-console                   # the console's public client at the identity provider
 * # or, instead of issuer and client-id:
 * token-command = kubectl oidc-login get-token --raw
 * </pre>
 *
 * A file that cannot be used is refused whole with the file, line and field in words: an unknown
 * field, a field given twice, a password (never stored in a file), an unknown kind, a colour that is
 * not #rrggbb, a Redis URI without its JDBC URL or the reverse (one external server beside an embedded
 * one would split the system), a {@code name} other than the file's, {@code server} beside {@code redis}/{@code jdbc} or
 * the stores' accounts, a URL that is not absolute https (http for loopback only) or carries an account.
 */
public final class Profiles {
    /** File name suffix of a profile. */
    public static final String SUFFIX = ".properties";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final List<String> FIELDS = List.of("name", "kind", "colour", "color", "redis", "jdbc", "db-user", "password-env",
            "redis-user", "redis-password-env", "data-dir", "oidc-issuer", "oidc-audience", "oidc-role-claim", "oidc-role-map",
            "server", "issuer", "client-id", "token-command");
    /** The keys of a remote profile besides {@code server}: how people get their access token. */
    private static final List<String> REMOTE_SIGN_IN = List.of("issuer", "client-id", "token-command");

    private Profiles() {
    }

    /** System property naming another profiles directory (tests; a packaged install with its own). */
    public static final String DIR_PROPERTY = "orderconsole.profiles.dir";

    /** @return where profiles live: {@code profiles/} in {@link ConfigDir#path()}, or the {@value #DIR_PROPERTY} property */
    public static Path dir() {
        String override = System.getProperty(DIR_PROPERTY);
        return override != null && !override.isBlank() ? Path.of(override) : ConfigDir.path().resolve("profiles");
    }

    /**
     * Every profile of a directory, good and bad apart, so that one bad file hides no other.
     *
     * @param profiles good profiles, by name
     * @param faults one per file that was refused
     */
    public record Listing(List<Profile> profiles, List<ProfileException> faults) {
        /** @return true when there is nothing to choose from and nothing to report */
        public boolean empty() {
            return profiles.isEmpty() && faults.isEmpty();
        }
    }

    /**
     * @param dir a profiles directory (need not exist)
     * @return its profiles, sorted by name; empty when the directory does not exist
     */
    public static Listing list(Path dir) {
        List<Profile> good = new ArrayList<>();
        List<ProfileException> bad = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return new Listing(good, bad);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            bad.add(new ProfileException(dir, 0, null, Messages.format("profile.error.unreadable", dir, e.getMessage())));
            return new Listing(good, bad);
        }
        for (Path f : files) {
            try {
                good.add(read(f));
            } catch (ProfileException e) {
                bad.add(e);
            }
        }
        return new Listing(good, bad);
    }

    /**
     * @param dir the profiles directory
     * @param name the profile's name, e.g. "staging"
     * @return the profile
     * @throws ProfileException when there is no such profile (naming those there are) or its file is refused
     */
    public static Profile load(Path dir, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new ProfileException(dir, 0, null, Messages.format("profile.error.badName", String.valueOf(name)));
        }
        Path f = dir.resolve(name + SUFFIX);
        if (!Files.isRegularFile(f)) {
            List<String> known = list(dir).profiles().stream().map(Profile::name).toList();
            throw new ProfileException(f, 0, null, Messages.format("profile.error.notFound", name, f,
                    known.isEmpty() ? Messages.get("profile.none") : String.join(", ", known)));
        }
        return read(f);
    }

    /**
     * @param file a profile file
     * @return the profile it holds
     * @throws ProfileException naming file, line and field of every fault (see {@link #parse})
     */
    public static Profile read(Path file) {
        List<String> lines;
        try {
            // A strict decoder: a file saved in another encoding is refused in words, not read as mojibake.
            String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
            lines = List.of(text.split("\\R", -1));
        } catch (CharacterCodingException e) {
            throw new ProfileException(file, 0, null, Messages.format("profile.error.encoding", file));
        } catch (IOException e) {
            throw new ProfileException(file, 0, null, Messages.format("profile.error.unreadable", file, e.getMessage()));
        }
        String fileName = file.getFileName().toString();
        return parse(file, fileName.substring(0, fileName.length() - SUFFIX.length()), lines);
    }

    /**
     * Parses a profile's lines, reporting every fault of the file at once (a person fixing it should not have to run the
     * command once per mistake).
     *
     * @param file the file they came from (named in errors)
     * @param name the profile's name (the file name without {@code .properties})
     * @param lines the file's lines
     * @return the profile
     * @throws ProfileException naming file, line and field of each fault (the lines first, then the fields' values); its {@link ProfileException#line()}
     *     and {@link ProfileException#field()} are the first fault's
     */
    static Profile parse(Path file, String name, List<String> lines) {
        if (!NAME.matcher(name).matches()) {
            throw new ProfileException(file, 0, null, Messages.format("profile.error.badName", name));
        }
        Reading r = new Reading(file);
        r.readLines(lines);
        if (r.values.containsKey("name") && !r.values.get("name").equals(name)) {
            r.fault("name", "profile.error.nameMismatch", r.values.get("name"), name);
        }
        Environment.Kind kind = r.kind();
        String colour = r.colour(kind);
        r.checkServers(kind);
        if (!r.faults.isEmpty()) {
            throw ProfileException.all(r.faults);
        }
        Map<String, String> values = r.values;
        Path dataDir = values.containsKey("data-dir") ? Path.of(values.get("data-dir")).toAbsolutePath() : null;
        if (values.containsKey("server")) {
            return Profile.remote(file, new Environment(name, kind, colour), java.net.URI.create(values.get("server")),
                    values.containsKey("issuer") ? java.net.URI.create(values.get("issuer")) : null, values.get("client-id"),
                    values.get("token-command"));
        }
        return new Profile(file, new Environment(name, kind, colour), values.get("redis"), values.get("jdbc"), values.get("db-user"),
                values.get("password-env"), values.get("redis-user"), values.get("redis-password-env"), dataDir, oidcKeys(values));
    }

    private static Map<String, String> oidcKeys(Map<String, String> values) {
        Map<String, String> oidc = new java.util.LinkedHashMap<>();
        for (String k : Profile.OIDC_KEYS) {
            if (values.containsKey(k)) {
                oidc.put(k, values.get(k));
            }
        }
        return oidc;
    }

    /** One profile file as it is read: its fields' values and lines, and every fault found so far. */
    private static final class Reading {
        final Path file;
        final String where;
        final List<ProfileException> faults = new ArrayList<>();
        final Map<String, String> values = new HashMap<>();
        final Map<String, Integer> lineOf = new HashMap<>();

        Reading(Path file) {
            this.file = file;
            this.where = file.getFileName().toString();
        }

        /** A fault of a field's value, on the line that set it: the message's arguments follow the file and line. */
        void fault(String field, String key, Object... more) {
            fault(lineOf.get(field), field, key, more);
        }

        void fault(int no, String field, String key, Object... more) {
            Object[] args = new Object[more.length + 2];
            args[0] = where;
            args[1] = no;
            System.arraycopy(more, 0, args, 2, more.length);
            faults.add(new ProfileException(file, no, field, Messages.format(key, args)));
        }

        /** The lines: each a comment, a blank or one known field set once to a value (no password written in). */
        void readLines(List<String> lines) {
            for (int i = 0; i < lines.size(); i++) {
                int no = i + 1;
                String line = stripComment(lines.get(i)).strip();
                if (line.isEmpty()) {
                    continue;
                }
                int eq = firstSeparator(line);
                if (eq <= 0) {
                    fault(no, null, "profile.error.syntax", line);
                    continue;
                }
                String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                String value = line.substring(eq + 1).strip();
                String canonical = key.equals("color") ? "colour" : key;
                if (key.contains("password") && !key.endsWith("password-env") || key.equals("secret") || key.equals("pass")) {
                    fault(no, key, "profile.error.password", key);
                } else if (!FIELDS.contains(key)) {
                    fault(no, key, "profile.error.unknownField", key, String.join(", ", FIELDS));
                } else if (values.containsKey(canonical)) {
                    fault(no, key, "profile.error.twice", key, lineOf.get(canonical));
                } else if (value.isEmpty()) {
                    fault(no, key, "profile.error.empty", key);
                } else {
                    values.put(canonical, value);
                    lineOf.put(canonical, no);
                }
            }
        }

        /** @return the environment's kind (a required field), or null after a fault */
        Environment.Kind kind() {
            if (!values.containsKey("kind")) {
                faults.add(new ProfileException(file, 0, "kind", Messages.format("profile.error.missing", where, "kind")));
                return null;
            }
            try {
                return Environment.Kind.parse(values.get("kind"));
            } catch (IllegalArgumentException e) {
                fault("kind", "profile.error.kind", values.get("kind"));
                return null;
            }
        }

        /** @return the band's colour: the field's, or the kind's own */
        String colour(Environment.Kind kind) {
            String colour = values.getOrDefault("colour", kind == null ? Environment.Kind.PRODUCTION.defaultColour() : kind.defaultColour());
            if (!Environment.isColour(colour)) {
                fault("colour", "profile.error.colour", colour);
            }
            return colour;
        }

        /**
         * The servers: both Redis and MySQL given (external, with no password in their URIs and no data directory) or
         * neither (the embedded servers, with no accounts, never production).
         */
        void checkServers(Environment.Kind kind) {
            if (values.containsKey("server")) {
                checkRemote();
                return;
            }
            for (String key : REMOTE_SIGN_IN) {
                if (values.containsKey(key)) {
                    fault(key, "profile.error.remoteWithoutServer", key);
                }
            }
            String redis = values.get("redis");
            String jdbc = values.get("jdbc");
            if (redis != null && !redis.startsWith("redis://") && !redis.startsWith("rediss://")) {
                fault("redis", "profile.error.redis", mask(redis));
            } else if (redis != null && redis.matches("rediss?://[^/@]*:[^/@]*@.*")) {
                fault("redis", "profile.error.redisPassword");
            }
            if (jdbc != null && jdbc.toLowerCase(Locale.ROOT).matches(".*[?&;]password=.*")) {
                fault("jdbc", "profile.error.password", "jdbc");
            } else if (jdbc != null && !jdbc.startsWith("jdbc:")) {
                fault("jdbc", "profile.error.jdbc");
            }
            if (redis != null && jdbc == null) {
                faults.add(new ProfileException(file, lineOf.get("redis"), "jdbc", Messages.format("profile.error.half", where, "redis", "jdbc")));
            }
            if (jdbc != null && redis == null) {
                faults.add(new ProfileException(file, lineOf.get("jdbc"), "redis", Messages.format("profile.error.half", where, "jdbc", "redis")));
            }
            if (jdbc == null && redis == null) {
                for (String external : List.of("db-user", "password-env", "redis-user", "redis-password-env")) {
                    if (values.containsKey(external)) {
                        fault(external, "profile.error.localAccount", external);
                    }
                }
                if (kind == Environment.Kind.PRODUCTION) {
                    faults.add(new ProfileException(file, lineOf.get("kind"), "kind", Messages.format("profile.error.productionLocal", where,
                            lineOf.get("kind"))));
                }
            } else if (values.containsKey("data-dir")) {
                fault("data-dir", "profile.error.dataDirExternal");
            }
        }

        /** A remote profile's keys (see {@link RemoteProfileKeys}). */
        void checkRemote() {
            RemoteProfileKeys.check(values, (field, key, more) -> fault(lineOf.getOrDefault(field, lineOf.get("server")), field, key, more));
        }
    }

    private static final Pattern INLINE_COMMENT = Pattern.compile("\\s#(\\s.*)?$");

    /**
     * A '#' or '!' at the start of a line starts a comment, and so does " # " after a value; a '#' with no
     * blank after it is part of the value (a colour, a URI fragment).
     */
    private static String stripComment(String line) {
        String t = line.stripLeading();
        if (t.startsWith("#") || t.startsWith("!")) {
            return "";
        }
        java.util.regex.Matcher m = INLINE_COMMENT.matcher(line);
        return m.find() ? line.substring(0, m.start()) : line;
    }

    private static int firstSeparator(String line) {
        int eq = line.indexOf('=');
        int colon = line.indexOf(':');
        // "redis: redis://..." has ':' in the value too: the first separator wins, '=' preferred on a tie of position.
        if (eq < 0) {
            return colon;
        }
        return colon < 0 ? eq : Math.min(eq, colon);
    }

    /** Hides credentials in a URI before it is shown. */
    static String mask(String uri) {
        return uri.replaceAll("//[^@/]*@", "//***@");
    }
}
