package com.orderconsole.app;

/**
 * An operator could not sign in: wrong password or unknown account, no console role, a role higher than
 * the account holds, or a server that cannot tell accounts apart. The message says which, in words, and
 * what an administrator can do about it.
 */
public class SignInException extends RuntimeException {
    public SignInException(String message, Throwable cause) {
        super(message, cause);
    }
}
