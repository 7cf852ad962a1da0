package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.orderconsole.domain.OrderStatus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A request's JSON body, read with limits and checked field by field: every failure is a 400/413/415 in words, found
 * before any server is asked, so bad input stores nothing.
 */
final class JsonBody {
    /** Largest body accepted, in bytes (64 KB). */
    static final int MAX_BYTES = 64 * 1024;
    /** Largest body read and dropped before a 413, so that the client gets it (1 MB); a larger one closes the connection. */
    static final int DRAIN_MAX_BYTES = 1024 * 1024;
    private static final ObjectMapper READER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final JsonNode node;

    private JsonBody(JsonNode node) {
        this.node = node;
    }

    /**
     * Reads and parses a body.
     *
     * @param contentType the request's Content-Type header (may be null)
     * @param body the body's bytes, asked for only when the content type is JSON (it throws the body's own 413 / 408 / 400)
     * @param allowed the field names this operation takes; any other is refused (a typo would otherwise be ignored)
     * @throws ApiProblem 415 for a content type other than JSON, what {@code body} throws, 400 for what is not a JSON object
     */
    static JsonBody read(String contentType, Supplier<byte[]> body, Set<String> allowed) throws IOException {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].trim();
        if (!type.equals("application/json")) {
            throw new ApiProblem(ErrorKind.UNSUPPORTED_MEDIA_TYPE, "the body must be JSON, sent with Content-Type: application/json"
                    + (type.isEmpty() ? " (none was given)" : " (not " + printable(type) + ")"));
        }
        byte[] bytes = body.get();
        JsonNode node;
        try {
            node = READER.readTree(bytes);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw ApiProblem.badInput("the body is not valid JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column "
                    + at.getColumnNr() + ")") + ": " + whatIsWrong(e) + "; nothing was stored");
        }
        if (node == null || !node.isObject()) {
            throw ApiProblem.badInput("the body must be a JSON object (GET /v1/openapi.json lists each operation's fields)");
        }
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String n = names.next();
            if (!allowed.contains(n)) {
                unknown.add(printable(n));
            }
        }
        if (!unknown.isEmpty()) {
            throw ApiProblem.badInput("unknown field" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + (allowed.isEmpty() ? " (this operation takes none: send {})"
                    : " (this operation takes " + String.join(", ", allowed.stream().sorted().toList()) + ")"));
        }
        return new JsonBody(node);
    }

    /**
     * Says what is wrong with JSON Jackson could not read, in our words: its own ("Unrecognized token 'x': was expecting
     * (JSON String, Number, Array, Object or token 'null', 'true' or 'false')") name its parser's states.
     */
    private static String whatIsWrong(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) {
            return "it ends before the JSON does (a brace, bracket or string is not closed)";
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException) {
            return "there is more after the JSON object ends";
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.startsWith("Duplicate field") && e.getProcessor() instanceof com.fasterxml.jackson.core.JsonParser p) {
            return "field " + printable(currentName(p)) + " is given twice";
        }
        return "what is there is not a JSON value (text is in double quotes; true, false and null are lower case; "
                + "fields are separated by commas)";
    }

    private static String currentName(com.fasterxml.jackson.core.JsonParser p) {
        try {
            return p.currentName();
        } catch (IOException e) {
            return "";
        }
    }

    /** @return a text field, or null when absent or null */
    String text(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiProblem.badInput(field + " must be a string");
        }
        return v.asText();
    }

    /** @return a required text field */
    String requiredText(String field) {
        String t = text(field);
        if (t == null) {
            throw ApiProblem.badInput(field + " is missing");
        }
        return t;
    }

    /** @return a whole number of 1 or more, or null when absent */
    Long positiveLong(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw ApiProblem.badInput(field + " must be a whole number (versions start at 1), not " + printable(v.toString()));
        }
        long n = v.asLong();
        if (n < 1) {
            throw ApiProblem.badInput(field + " must be 1 or more (versions start at 1), not " + n);
        }
        return n;
    }

    /**
     * @return a field holding a JSON object, written back as JSON text (e.g. a rules document), or null when absent
     * @throws ApiProblem 400 when it is not an object
     */
    String object(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            throw ApiProblem.badInput(field + " must be a JSON object");
        }
        return v.toString();
    }

    /**
     * @return a field holding an array of strings, or null when absent
     * @throws ApiProblem 400 when it is not an array of strings
     */
    List<String> texts(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode e : v) {
                if (!e.isTextual()) {
                    break;
                }
                out.add(e.asText());
            }
            if (out.size() == v.size()) {
                return out;
            }
        }
        throw ApiProblem.badInput(field + " must be an array of strings, e.g. [\"A-1\", \"A-2\"]");
    }

    /** @return a boolean, false when absent */
    boolean flag(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw ApiProblem.badInput(field + " must be true or false");
        }
        return v.asBoolean();
    }

    /** @return a status given by name ("PAID") or by number (2); required */
    OrderStatus status(String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw ApiProblem.badInput(field + " is missing: a status by name (e.g. \"PAID\") or number (e.g. 2)");
        }
        try {
            if (v.isIntegralNumber() && v.canConvertToInt()) {
                return OrderStatus.ofCode(v.asInt());
            }
            if (v.isTextual()) {
                return OrderStatus.parse(v.asText());
            }
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(field + ": " + e.getMessage());
        }
        throw ApiProblem.badInput(field + " must be a status by name (e.g. \"PAID\") or number (e.g. 2), not " + printable(v.toString()));
    }

    /** @return text safe to echo: control characters shown as '?', at most 80 characters */
    static String printable(String s) {
        if (s == null) {
            return "";
        }
        String p = s.replaceAll("\\p{Cntrl}", "?");
        return p.length() > 80 ? p.substring(0, 80) + "..." : p;
    }
}
