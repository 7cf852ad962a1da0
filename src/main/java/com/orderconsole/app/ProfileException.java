package com.orderconsole.app;

import java.nio.file.Path;

/**
 * A connection profile that cannot be used, in words naming the file and, where there is one, the line
 * and the field (e.g. "prod.properties line 4, field 'kind': ...").
 */
public final class ProfileException extends RuntimeException {
    private final Path file;
    private final int line;
    private final String field;

    /**
     * @param file the profile file (or the profiles directory when no file is at fault)
     * @param line 1-based line, 0 when the fault is not on one line (a missing field)
     * @param field the field at fault, or null
     * @param message the whole text, already naming file, line and field
     */
    ProfileException(Path file, int line, String field, String message) {
        super(message);
        this.file = file;
        this.line = line;
        this.field = field;
    }

    /** @return the file at fault */
    public Path file() {
        return file;
    }

    /** @return 1-based line at fault, 0 when none */
    public int line() {
        return line;
    }

    /** @return the field at fault, or null */
    public String field() {
        return field;
    }
}
