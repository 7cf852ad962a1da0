package com.orderconsole.service.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;

import java.util.ArrayList;
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
 *   "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP"], ... }
 * }
 * </pre>
 *
 * Statuses may be given by name or by code. "version" may be omitted in a file being loaded (the
 * service assigns the next version).
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
     * Parses and validates a rules document.
     *
     * @param json the document
     * @param defaultVersion version to use when the document has none
     * @return valid rules
     * @throws InvalidRulesException naming every fault (malformed JSON, unknown status, graph faults)
     */
    public static TransitionRules parse(String json, long defaultVersion) {
        JsonNode root;
        try {
            // A byte-order mark is how some editors start a UTF-8 file; it is not part of the document.
            String text = json == null ? "" : json.startsWith("\uFEFF") ? json.substring(1) : json;
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidRulesException(List.of("malformed JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidRulesException(List.of("malformed rules: expected a JSON object with \"transitions\" and \"terminal\""));
        }
        List<String> faults = new ArrayList<>();
        long version = defaultVersion;
        JsonNode v = root.get("version");
        if (v != null && !v.isNull()) {
            if (v.canConvertToLong() && v.isIntegralNumber()) {
                version = v.asLong();
            } else {
                faults.add("\"version\" must be an integer, got " + v);
            }
        }
        Set<OrderStatus> terminal = EnumSet.noneOf(OrderStatus.class);
        JsonNode t = root.get("terminal");
        if (t == null || !t.isArray()) {
            faults.add("\"terminal\" must be an array of statuses");
        } else {
            for (JsonNode n : t) {
                OrderStatus s = status(n, "terminal", faults);
                if (s != null) {
                    terminal.add(s);
                }
            }
        }
        Map<OrderStatus, Set<OrderStatus>> edges = new EnumMap<>(OrderStatus.class);
        JsonNode tr = root.get("transitions");
        if (tr == null || !tr.isObject()) {
            faults.add("\"transitions\" must be an object mapping a status to an array of statuses");
        } else {
            for (Iterator<Map.Entry<String, JsonNode>> it = tr.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                OrderStatus from = status(JSON.getNodeFactory().textNode(e.getKey()), "transitions", faults);
                if (!e.getValue().isArray()) {
                    faults.add("targets of " + e.getKey() + " must be an array");
                    continue;
                }
                Set<OrderStatus> tos = EnumSet.noneOf(OrderStatus.class);
                for (JsonNode n : e.getValue()) {
                    OrderStatus to = status(n, "targets of " + e.getKey(), faults);
                    if (to != null) {
                        tos.add(to);
                    }
                }
                if (from != null) {
                    edges.computeIfAbsent(from, k -> EnumSet.noneOf(OrderStatus.class)).addAll(tos);
                }
            }
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!Set.of("version", "terminal", "transitions").contains(f)) {
                faults.add("unknown field \"" + f + "\"");
            }
        }
        if (!faults.isEmpty()) {
            throw new InvalidRulesException(faults);
        }
        return TransitionRules.of(version, edges, terminal);
    }

    private static OrderStatus status(JsonNode n, String where, List<String> faults) {
        try {
            if (n.isIntegralNumber()) {
                if (!n.canConvertToInt()) {
                    faults.add("in " + where + ": " + n + " is not a status code (1..6)");
                    return null;
                }
                return OrderStatus.ofCode(n.asInt());
            }
            if (n.isTextual()) {
                return OrderStatus.parse(n.asText());
            }
            faults.add("in " + where + ": " + n + " is not a status");
        } catch (IllegalArgumentException e) {
            faults.add("in " + where + ": " + e.getMessage());
        }
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
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
