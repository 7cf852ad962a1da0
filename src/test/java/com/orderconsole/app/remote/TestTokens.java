package com.orderconsole.app.remote;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Tokens for remote tests: hands out the given tokens in turn (the last one again and again), records which ones serve
 * refused, and asks for a sign-in once it has none left after a refusal.
 */
public final class TestTokens implements AccessTokens {
    private final Deque<String> next = new ArrayDeque<>();
    private final List<String> rejected = new ArrayList<>();
    private String held;

    /** @param tokens the tokens to hand out in turn; the first is held at once */
    public TestTokens(String... tokens) {
        for (String t : tokens) {
            next.add(t);
        }
        held = next.poll();
    }

    @Override
    public synchronized String current() {
        if (held == null) {
            held = next.poll();
        }
        if (held == null) {
            throw new SignInRequiredException("the test's session ended: no token left; sign in again");
        }
        return held;
    }

    @Override
    public synchronized void rejected(String token) {
        rejected.add(token);
        if (token.equals(held)) {
            held = null;
        }
    }

    @Override
    public synchronized void signOut() {
        held = null;
        next.clear();
    }

    /** @return the tokens serve refused, in order */
    public synchronized List<String> rejectedTokens() {
        return List.copyOf(rejected);
    }
}
