package com.orderconsole.store;

import java.util.List;

/**
 * Filter and keyset position for one page of recorded actions, newest first by (at_ms, id) within each
 * table. Null fields do not filter. The page starts strictly after (afterAtMs, afterId) in that order.
 */
public class AuditEventQuery {
    public String actor;
    public String source;
    public Integer resultCode;
    /** null: any; "LEGAL": applied along an edge of {@link #edges}; "OVERRIDE": applied along no such edge. */
    public String moveKind;
    /** The edges of the rules in force, for {@link #moveKind}. */
    public List<Edge> edges;
    public Long fromMs;
    public Long toMs;
    /** Order id prefix, LIKE-escaped. */
    public String idPrefix;
    public Long afterAtMs;
    public Long afterId;
    public int limit = 100;

    /** One edge of the rules, by status code. */
    public static class Edge {
        public int from;
        public int to;

        public Edge(int from, int to) {
            this.from = from;
            this.to = to;
        }
    }
}
