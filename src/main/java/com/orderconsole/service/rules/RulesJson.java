package com.orderconsole.service.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.orderconsole.domain.DurationText;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.RulesFault;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules document format:
 *
 * <pre>
 * {
 *   "version": 1,
 *   "terminal": ["FINISHED", "CANCELLED"],
 *   "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP"], ... },
 *   "stuck": { "WAIT_PAY": "30m", "PAID": "2h", "WAIT_SHIP": "48h", "SHIPPED": "14d" }
 * }
 * </pre>
 *
 * Statuses may be given by name or by code. "version" may be omitted in a file being loaded (the
 * service assigns the next version). "stuck" holds the stuck thresholds that go with the rules (versioned
 * and archived with them): per status a duration ("90s", "30m", "2h", "14d" or ISO-8601 "PT30M"); a status
 * left out is never stuck; a document without "stuck" gets {@link TransitionRules#DEFAULT_STUCK}.
 */
public final class RulesJson {
    // Strict: a duplicated key would silently drop edges, trailing text would hide a bad paste.
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private RulesJson() {
    }

    /**
     * Parses and validates a rules document. Every fault is found in one pass: faults of the document
     * (malformed parts, unknown statuses and fields) and faults of the graph it describes, the latter
     * checked on what could be read, so an unknown status never hides a missing exit.
     *
     * @param json the document
     * @param defaultVersion version to use when the document has none
     * @return valid rules
     * @throws InvalidRulesException naming every fault, each with its line and column where it has one
     */
    public static TransitionRules parse(String json, long defaultVersion) {
        Draft d = draft(json, defaultVersion);
        if (!d.faults().isEmpty()) {
            throw new InvalidRulesException(d.faults());
        }
        return TransitionRules.of(d.version(), d.edges(), d.terminal(), d.stuck());
    }

    /**
     * What a document describes as far as it can be read, with every fault of it; valid or not.
     *
     * @param version the document's version (or the default)
     * @param edges the edges read (unknown statuses left out)
     * @param terminal the terminal statuses read
     * @param stuck the stuck thresholds read (the defaults when the document names none)
     * @param faults every fault, placed at its line and column where it has one; empty when the rules are valid
     * @param readable false when the document is not a JSON object with both "terminal" and "transitions"
     */
    public record Draft(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal,
                        Map<OrderStatus, Duration> stuck, List<RulesFault> faults, boolean readable) {
    }

    /**
     * Reads a document without refusing it: the what-if of a rules change works on drafts too.
     *
     * @param json the document
     * @param defaultVersion version to use when the document has none
     * @return the draft and its faults
     */
    public static Draft draft(String json, long defaultVersion) {
        JsonNode root;
        // A byte-order mark is how some editors start a UTF-8 file; it is not part of the document.
        String text = json == null ? "" : json.startsWith("\uFEFF") ? json.substring(1) : json;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            String what = describe(e);
            return new Draft(defaultVersion, Map.of(), Set.of(), Map.of(), List.of(RulesFault.of("rules.fault.malformed",
                    "malformed JSON: " + what, null, null, what).at(Math.max(1, e.getLocation().getLineNr()),
                    Math.max(1, e.getLocation().getColumnNr()))), false);
        }
        if (root == null || !root.isObject()) {
            return new Draft(defaultVersion, Map.of(), Set.of(), Map.of(), List.of(RulesFault.of("rules.fault.notObject",
                    "malformed rules: expected a JSON object with \"transitions\" and \"terminal\"", null, null)), false);
        }
        return new DraftReader(root, locate(text)).read(defaultVersion);
    }

    /**
     * One reading of a parsed document: each part is read in turn, every fault collected with where it stands, so one
     * fault never hides the next.
     */
    private static final class DraftReader {
        private final JsonNode root;
        private final Map<String, int[]> at;
        private final List<RulesFault> faults = new ArrayList<>();
        private final Set<OrderStatus> terminal = EnumSet.noneOf(OrderStatus.class);
        private final Map<OrderStatus, String> terminalAt = new EnumMap<>(OrderStatus.class);
        private final Map<OrderStatus, Set<OrderStatus>> edges = new EnumMap<>(OrderStatus.class);
        private final Map<OrderStatus, String> fromAt = new EnumMap<>(OrderStatus.class);
        private final Map<String, String> edgeAt = new HashMap<>();
        private final Map<OrderStatus, String> stuckKeys = new EnumMap<>(OrderStatus.class);

        DraftReader(JsonNode root, Map<String, int[]> at) {
            this.root = root;
            this.at = at;
        }

        Draft read(long defaultVersion) {
            long version = version(defaultVersion);
            boolean readable = terminal() & transitions();
            Map<OrderStatus, Duration> stuck = stuck(root.get("stuck"), terminal, faults, at, stuckKeys);
            unknownFields();
            if (readable) {
                graphFaults(version, stuck);
            }
            return new Draft(version, edges, terminal, stuck, faults, readable);
        }

        private long version(long defaultVersion) {
            JsonNode v = root.get("version");
            if (v == null || v.isNull()) {
                return defaultVersion;
            }
            if (v.canConvertToLong() && v.isIntegralNumber()) {
                return v.asLong();
            }
            faults.add(place(RulesFault.of("rules.fault.versionNotInteger", "\"version\" must be an integer, got " + v,
                    null, null, v.toString()), at, "/version"));
            return defaultVersion;
        }

        /** @return whether "terminal" could be read as an array */
        private boolean terminal() {
            JsonNode t = root.get("terminal");
            if (t == null || !t.isArray()) {
                faults.add(place(RulesFault.of("rules.fault.terminalNotArray", "\"terminal\" must be an array of statuses", null, null),
                        at, "/terminal"));
                return false;
            }
            int i = 0;
            for (JsonNode n : t) {
                String ptr = "/terminal/" + i++;
                OrderStatus s = status(n, faults, at, ptr);
                if (s != null) {
                    terminal.add(s);
                    terminalAt.putIfAbsent(s, ptr);
                }
            }
            return true;
        }

        /** @return whether "transitions" could be read as an object */
        private boolean transitions() {
            JsonNode tr = root.get("transitions");
            if (tr == null || !tr.isObject()) {
                faults.add(place(RulesFault.of("rules.fault.transitionsNotObject",
                        "\"transitions\" must be an object mapping a status to an array of statuses", null, null), at, "/transitions"));
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = tr.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                exitsOf(e.getKey(), e.getValue());
            }
            return true;
        }

        private void exitsOf(String key, JsonNode targets) {
            String keyPtr = "/transitions/" + escape(key);
            OrderStatus from = status(JSON.getNodeFactory().textNode(key), faults, at, keyPtr);
            if (from != null) {
                fromAt.putIfAbsent(from, keyPtr);
            }
            if (!targets.isArray()) {
                faults.add(place(RulesFault.of("rules.fault.targetsNotArray", "targets of " + key + " must be an array",
                        from, null, key), at, keyPtr));
                return;
            }
            Set<OrderStatus> tos = EnumSet.noneOf(OrderStatus.class);
            int i = 0;
            for (JsonNode n : targets) {
                String ptr = keyPtr + "/" + i++;
                OrderStatus to = status(n, faults, at, ptr);
                if (to != null) {
                    tos.add(to);
                    if (from != null) {
                        edgeAt.putIfAbsent(from + ">" + to, ptr);
                    }
                }
            }
            if (from != null) {
                edges.computeIfAbsent(from, k -> EnumSet.noneOf(OrderStatus.class)).addAll(tos);
            }
        }

        private void unknownFields() {
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!Set.of("version", "terminal", "transitions", "stuck").contains(f)) {
                    faults.add(place(RulesFault.of("rules.fault.unknownField", "unknown field \"" + f + "\"", null, null, f),
                            at, "/" + escape(f)));
                }
            }
        }

        /** The graph as far as it was read: its faults are real even when some status above was not. */
        private void graphFaults(long version, Map<OrderStatus, Duration> stuck) {
            for (RulesFault f : TransitionRules.check(Math.max(1, version), edges, terminal)) {
                String ptr = f.target() != null ? edgeAt.get(f.subject() + ">" + f.target())
                        : "rules.fault.initialTerminal".equals(f.key()) ? terminalAt.get(f.subject())
                        : f.subject() != null ? fromAt.get(f.subject()) : null;
                faults.add(ptr == null ? f : place(f, at, ptr));
            }
            for (RulesFault f : TransitionRules.checkStuck(stuck, terminal)) {
                faults.add(place(f, at, "/stuck/" + escape(stuckKeys.getOrDefault(f.subject(), f.subject().name()))));
            }
        }
    }

    /** Reads "stuck"; {@code keys} gets the document's key of each status, to place faults found later. */
    private static Map<OrderStatus, Duration> stuck(JsonNode node, Set<OrderStatus> terminal, List<RulesFault> faults,
                                                    Map<String, int[]> at, Map<OrderStatus, String> keys) {
        if (node == null || node.isNull()) {
            return TransitionRules.defaultStuck(terminal);
        }
        Map<OrderStatus, Duration> out = new EnumMap<>(OrderStatus.class);
        if (!node.isObject()) {
            faults.add(place(RulesFault.of("rules.fault.stuckNotObject",
                    "\"stuck\" must be an object mapping a status to a duration such as \"30m\"", null, null), at, "/stuck"));
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String ptr = "/stuck/" + escape(e.getKey());
            OrderStatus s = status(JSON.getNodeFactory().textNode(e.getKey()), faults, at, ptr);
            Duration d = duration(e.getValue());
            if (d == null) {
                faults.add(place(RulesFault.of("rules.fault.stuckDuration", "stuck threshold of " + e.getKey() + " is not a duration: "
                        + e.getValue() + " (write e.g. \"90s\", \"30m\", \"2h\", \"14d\")", s, null, e.getKey(), e.getValue().toString()),
                        at, ptr));
            } else if (s != null) {
                out.put(s, d);
                keys.putIfAbsent(s, e.getKey());
            }
        }
        return out;
    }

    private static Duration duration(JsonNode n) {
        if (!n.isTextual()) {
            return null;
        }
        try {
            return DurationText.parse(n.asText());
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;
        }
    }

    /** @return a duration as the document writes it: "14d", "2h", "30m", "90s" (the largest exact unit) */
    public static String duration(Duration d) {
        long s = d.getSeconds();
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }

    private static RulesFault place(RulesFault f, Map<String, int[]> at, String pointer) {
        int[] lc = at.get(pointer);
        return lc == null ? f : f.at(lc[0], lc[1]);
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** @return JSON pointer of every field name and scalar value to its {line, column} (1-based) */
    private static Map<String, int[]> locate(String text) {
        Map<String, int[]> at = new HashMap<>();
        try (JsonParser p = JSON.getFactory().createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME || t.isScalarValue()) {
                    JsonLocation l = p.currentTokenLocation();
                    at.putIfAbsent(p.getParsingContext().pathAsPointer().toString(), new int[]{l.getLineNr(), l.getColumnNr()});
                }
            }
        } catch (IOException e) {
            // Already parsed once: cannot happen; without places the faults are still named.
        }
        return at;
    }

    private static final Pattern START_MARKER = Pattern.compile(
            "\\s*\\(start marker at \\[Source:.*?line: (\\d+), column: (\\d+)\\]\\)", Pattern.DOTALL);
    private static final Pattern SOURCE = Pattern.compile("\\s*at \\[Source:.*", Pattern.DOTALL);
    private static final Pattern CODE = Pattern.compile("\\s*\\(code -?\\d+\\)");

    /**
     * A parser's fault in words, without the parser's internals (sources, features, codes), e.g. "the document
     * ends too early: a closing ] is missing (opened at line 1, column 15)".
     */
    static String describe(JsonProcessingException e) {
        String what = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        Matcher start = START_MARKER.matcher(what);
        if (start.find()) {
            what = start.replaceFirst(" (opened at line " + start.group(1) + ", column " + start.group(2) + ")");
        }
        what = SOURCE.matcher(what).replaceFirst("");
        what = CODE.matcher(what).replaceAll("");
        what = what.lines().findFirst().orElse("").strip();
        what = what.replace("expected close marker for Array", "a closing ] is missing")
                .replace("expected close marker for Object", "a closing } is missing");
        if (what.startsWith("Unexpected end-of-input")) {
            what = "the document ends too early" + what.substring("Unexpected end-of-input".length());
        }
        if (!what.isEmpty()) {
            what = Character.toLowerCase(what.charAt(0)) + what.substring(1);
        }
        return what;
    }

    private static OrderStatus status(JsonNode n, List<RulesFault> faults, Map<String, int[]> at, String pointer) {
        String english = null;
        try {
            if (n.isIntegralNumber()) {
                if (!n.canConvertToInt()) {
                    english = n + " is not a status code (" + OrderStatus.codeRange() + ")";
                } else {
                    return OrderStatus.ofCode(n.asInt());
                }
            } else if (n.isTextual()) {
                return OrderStatus.parse(n.asText());
            } else {
                english = n + " is not a status";
            }
        } catch (IllegalArgumentException e) {
            english = e.getMessage();
        }
        String shown = n.isTextual() ? n.asText() : n.toString();
        faults.add(place(RulesFault.of("rules.fault.unknownStatus", english, null, null, shown,
                OrderStatus.names(), OrderStatus.codeRange()), at, pointer));
        return null;
    }

    /** @return the rules as a pretty-printed document, statuses by name */
    public static String write(TransitionRules rules) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", rules.version());
        ArrayNode term = root.putArray("terminal");
        rules.terminal().forEach(s -> term.add(s.name()));
        ObjectNode tr = root.putObject("transitions");
        rules.edges().forEach((from, tos) -> {
            if (!tos.isEmpty()) {
                ArrayNode a = tr.putArray(from.name());
                tos.forEach(s -> a.add(s.name()));
            }
        });
        ObjectNode st = root.putObject("stuck");
        rules.stuck().forEach((s, d) -> st.put(s.name(), duration(d)));
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
