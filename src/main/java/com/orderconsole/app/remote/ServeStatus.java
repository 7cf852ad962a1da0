package com.orderconsole.app.remote;

/**
 * How serve answered the latest request, as the status bar says it: answering, or which trouble, in words.
 *
 * @param state the kind of answer
 * @param words the sentence to show, naming serve's address ("" while answering as usual)
 * @param atMs when it was seen, epoch milliseconds
 */
public record ServeStatus(State state, String words, long atMs) {
    /** The kinds of answer. */
    public enum State {
        /** serve answers, as it did before. */
        ANSWERING,
        /** serve answers again after it did not (refused, timed out, 503, closed): the console works on by itself. */
        RECOVERED,
        /** serve closed a connection mid-request and answered on a new one: it restarted, or another serve took over. */
        RESTARTED,
        /** The latest request got no answer, or a 503; {@link #words} says which. */
        UNAVAILABLE,
        /** serve refused the access token twice: a new sign-in is needed. */
        SIGN_IN_NEEDED
    }

    /** @return true when serve answered the latest request */
    public boolean answering() {
        return state == State.ANSWERING || state == State.RECOVERED || state == State.RESTARTED;
    }
}
