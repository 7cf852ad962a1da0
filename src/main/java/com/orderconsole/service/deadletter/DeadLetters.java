package com.orderconsole.service.deadletter;

import com.orderconsole.domain.Operator;

import java.util.List;

/**
 * The dead-letter list: records the follower set aside because it could not apply them, retried or discarded by ops.
 * Implemented in-process by {@link DeadLetterService} and over serve's HTTP API.
 */
public interface DeadLetters {
    /**
     * @param limit at most this many, 1..10,000
     * @return open letters, oldest first
     * @throws IllegalArgumentException for a bad limit
     */
    List<DeadLetter> open(int limit);

    /** @return how many letters are open */
    long countOpen();

    /**
     * Retries a letter (role ops): restores its order's Redis state from MySQL and closes the letter.
     *
     * @param operator who retries
     * @param id the letter
     * @return the letter as closed
     * @throws IllegalArgumentException when there is no open letter with that id, or it names no order
     * @throws IllegalStateException when MySQL has no record of the order (discard the letter instead)
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    DeadLetter retry(Operator operator, long id);

    /**
     * Discards a letter (role ops): it stays in the list, closed, with who and why.
     *
     * @param operator who discards
     * @param id the letter
     * @param reason why, required
     * @return the letter as closed
     * @throws IllegalArgumentException when there is no open letter with that id or the reason is missing
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    DeadLetter discard(Operator operator, long id, String reason);
}
