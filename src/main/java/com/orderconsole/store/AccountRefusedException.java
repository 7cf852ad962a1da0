package com.orderconsole.store;

/** The database did not let an account sign in, or cannot tell accounts apart; the message says which, in words. */
public class AccountRefusedException extends RuntimeException {
    public AccountRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
