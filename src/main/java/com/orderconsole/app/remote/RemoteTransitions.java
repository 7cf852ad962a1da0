package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.transition.TransitionOutcome;
import com.orderconsole.service.transition.Transitions;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Moves through serve: {@code POST /v1/orders/{id}/transitions} with one Idempotency-Key per move (a move serve applied
 * before the connection broke is answered, not applied twice), then a wait until serve's follower has written the
 * outcome to MySQL, read from the order's history ({@code GET /v1/orders/{id}}). A rejected move is a result, as
 * in-process; serve's refusals of the request itself are the in-process exceptions. An override is sent with its count
 * (one order) confirmed: the console asked for it before calling, as serve's production guard requires.
 */
public final class RemoteTransitions implements Transitions {
    /** How often the wait for MySQL asks serve, in milliseconds. */
    static final long POLL_MS = 100;

    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteTransitions(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public TransitionOutcome transitionAndWait(Operator operator, TransitionRequest request, Duration mysqlWait) {
        TransitionResult r = transition(request);
        if (r.code() == ResultCode.STATE_MISSING || r.code() == ResultCode.RULES_MISSING || r.code() == ResultCode.MALFORMED
                || r.code() == ResultCode.RESTORING) {
            return new TransitionOutcome(r, null); // the script recorded nothing
        }
        return new TransitionOutcome(r, recorded(r, mysqlWait));
    }

    private TransitionResult transition(TransitionRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("to", request.target().name());
        if (request.expectedVersion() != null) {
            body.put("expectedVersion", request.expectedVersion());
        }
        if (request.reason() != null && !request.reason().isEmpty()) {
            body.put("reason", request.reason());
        }
        if (request.override()) {
            body.put("override", true);
            body.put("confirmCount", 1);
        }
        String id = request.orderId();
        try {
            return CoreRecords.transition(serve.post("/v1/orders/" + ServeClient.encode(id) + "/transitions", body));
        } catch (ApiRefusal refused) {
            JsonNode t = refused.document().path("transition");
            if (t.isObject()) {
                return CoreRecords.transition(t);
            }
            throw CoreRecords.refusal(refused, () -> new OrderNotFoundException(id));
        }
    }

    /**
     * @return caught up once MySQL's history holds the outcome (the same version, code and time); not caught up, in words,
     *     when it does not within {@code wait}, or when MySQL records that version as another status (the follower set the
     *     move aside)
     */
    private CatchUp recorded(TransitionResult r, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        String path = "/v1/orders/" + ServeClient.encode(r.orderId());
        while (true) {
            JsonNode order = serve.get(path);
            for (HistoryEntry h : CoreRecords.entries(order.get("history"))) {
                if (h.version() == r.version() && h.atMs() == r.timeMs() && h.code() == r.code()) {
                    return new CatchUp(true, "");
                }
                if (r.applied() && h.code() == ResultCode.APPLIED && h.version() == r.version() && h.to() != r.target()) {
                    return new CatchUp(false, "MySQL's history records version " + r.version() + " of order " + r.orderId()
                            + " as " + h.to() + ", not " + r.target() + ": the follower set this move aside (see the dead "
                            + "letters); MySQL's history is the durable record");
                }
            }
            if (System.nanoTime() > deadline) {
                int waiting = order.path("pending").size();
                return new CatchUp(false, waiting + " changes of order " + r.orderId() + " wait in serve's Redis outbox after "
                        + wait.toSeconds() + " s");
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new CatchUp(false, "the wait for MySQL was interrupted");
            }
        }
    }
}
