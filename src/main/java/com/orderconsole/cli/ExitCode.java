package com.orderconsole.cli;

import com.orderconsole.app.ErrorKind;

/**
 * Every exit code of the command line, in one place: the commands return them, the {@code --json} error document
 * carries them as {@code "exit"}, and {@code --help}, the man page and docs/reference.md list them from here.
 */
public enum ExitCode {
    /** The command did what was asked. */
    OK(0, "ok"),
    /** Any other failure: a server down, an order not found, a permission refused; the message is on stderr. */
    FAILED(ErrorKind.FAILED),
    /** The command line is wrong: an unknown option, a missing or malformed value; nothing was asked of a server. */
    USAGE(ErrorKind.USAGE),
    /** The transition script rejected the transition; the output has its result code. */
    REJECTED(ErrorKind.REJECTED),
    /** {@code reconcile} found disagreements between Redis and MySQL (left after {@code --repair}, when given). */
    DRIFT(ErrorKind.DRIFT),
    /**
     * A change on production was not confirmed: {@code --yes=COUNT} missing or naming another count, or the
     * terminal's y/N answered no. Nothing was changed.
     */
    NOT_CONFIRMED(ErrorKind.NOT_CONFIRMED),
    /**
     * {@code import}: the file had no good row (every row bad, or no data row), so nothing was imported; the bad rows are
     * listed as for any import. A file with some good rows exits 0 and lists its bad ones.
     */
    NO_GOOD_ROW(ErrorKind.NO_GOOD_ROW);

    private final int code;
    private final String kind;

    ExitCode(int code, String kind) {
        this.code = code;
        this.kind = kind;
    }

    /** A failure's exit code: the kind's own code and word. */
    ExitCode(ErrorKind kind) {
        this(kind.exit(), kind.word());
    }

    /** @return the process exit status, 0 to 6 */
    public int code() {
        return code;
    }

    /** @return the word a script reads in {@code --json} errors as {@code error.kind}, e.g. "usage" */
    public String kind() {
        return kind;
    }

    /** @return the message key of its one-line description in the bundles ({@code cli.exit.<kind>}) */
    String descriptionKey() {
        return "cli.exit." + kind;
    }
}
