package com.orderconsole.api;

import org.eclipse.jetty.util.URIUtil;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's routes by the shape of their path, matched by hand: a path without {@code {name}} segments is one hash
 * lookup, one with them a comparison of segments against the few templates that have them. No routing library: the
 * per-request cost of one is what the API's benchmarks measured against (a transition's whole CPU).
 */
final class RouteTable {
    /** The routes of one path template, by method. */
    static final class Endpoint {
        private final String template;
        private final String[] segments;
        private final int paramCount;
        private final Map<String, Route> byMethod = new LinkedHashMap<>();

        private Endpoint(String template) {
            this.template = template;
            this.segments = template.split("/");
            int n = 0;
            for (String s : segments) {
                n += isParam(s) ? 1 : 0;
            }
            this.paramCount = n;
        }

        /** @return the route answering {@code method} here (HEAD is answered as GET, without the body), or null */
        Route route(String method) {
            Route r = byMethod.get(method);
            return r == null && "HEAD".equals(method) ? byMethod.get("GET") : r;
        }

        /** @return the methods answered, for a 405's Allow: GET and HEAD first (a GET path answers HEAD too), then the others */
        String allow() {
            List<String> methods = new ArrayList<>();
            if (byMethod.containsKey("GET")) {
                methods.add("GET");
                methods.add("HEAD");
            }
            byMethod.keySet().stream().filter(m -> !m.equals("GET")).sorted().forEach(methods::add);
            return String.join(", ", methods);
        }

        String template() {
            return template;
        }

        /** @return true when every route of the path is answered without credentials (any method, 405 included) */
        boolean open() {
            return byMethod.values().stream().allMatch(Route::open);
        }
    }

    private final Map<String, Endpoint> fixed = new HashMap<>();
    private final List<Endpoint> templated = new ArrayList<>();

    /**
     * @param routes every route; two with the same method and template are a defect
     * @throws IllegalStateException when two routes collide
     */
    RouteTable(List<Route> routes) {
        Map<String, Endpoint> all = new LinkedHashMap<>();
        for (Route r : routes) {
            Endpoint e = all.computeIfAbsent(r.template(), Endpoint::new);
            if (e.byMethod.putIfAbsent(r.method(), r) != null) {
                throw new IllegalStateException("two routes for " + r.operation()); // i18n-ok: a defect
            }
        }
        for (Endpoint e : all.values()) {
            if (e.paramCount == 0) {
                fixed.put(e.template, e);
            } else {
                templated.add(e);
            }
        }
        // A literal segment wins over a {name}: /v1/x/summary before /v1/x/{id}.
        templated.sort(Comparator.comparingInt(e -> e.paramCount));
    }

    private static boolean isParam(String segment) {
        return segment.length() > 2 && segment.charAt(0) == '{' && segment.charAt(segment.length() - 1) == '}';
    }

    /**
     * @param path the request's path as sent, without a trailing slash (one with ';' parameters is refused before its
     *             {name} values are used: decoding drops them)
     * @param call where the decoded {name} values are put (null: only the endpoint is wanted)
     * @return the endpoint of that path, or null when none has its shape
     */
    Endpoint match(String path, ApiCall call) {
        Endpoint e = fixed.get(path);
        if (e != null || templated.isEmpty()) {
            return e;
        }
        String[] given = path.split("/");
        for (Endpoint t : templated) {
            if (t.segments.length != given.length || !fits(t.segments, given)) {
                continue;
            }
            if (call != null) {
                for (int i = 0; i < given.length; i++) {
                    if (isParam(t.segments[i])) {
                        String name = t.segments[i].substring(1, t.segments[i].length() - 1);
                        call.param(name, URIUtil.decodePath(given[i]));
                    }
                }
            }
            return t;
        }
        return null;
    }

    private static boolean fits(String[] template, String[] given) {
        for (int i = 0; i < given.length; i++) {
            if (isParam(template[i]) ? given[i].isEmpty() : !template[i].equals(given[i])) {
                return false;
            }
        }
        return true;
    }
}
