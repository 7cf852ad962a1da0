package com.orderconsole.app;

import java.nio.file.Path;
import java.util.List;

/**
 * A connection profile that cannot be used, in words naming the file and, where there is one, the line
 * and the field (e.g. "prod.properties line 4, field 'kind': ...").
 */
public final class ProfileException extends RuntimeException {
    private final Path file;
    private final int line;
    private final String field;
    private final List<String> faults;

    /**
     * @param file the profile file (or the profiles directory when no file is at fault)
     * @param line 1-based line, 0 when the fault is not on one line (a missing field)
     * @param field the field at fault, or null
     * @param message the whole text, already naming file, line and field
     */
    ProfileException(Path file, int line, String field, String message) {
        this(file, line, field, message, List.of());
    }

    private ProfileException(Path file, int line, String field, String message, List<String> faults) {
        super(message);
        this.file = file;
        this.line = line;
        this.field = field;
        this.faults = faults.isEmpty() ? List.of(message) : List.copyOf(faults);
    }

    /**
     * @param faults one or more faults of one file, as found
     * @return one exception whose message lists every fault, a line each; line and field are the first fault's
     */
    static ProfileException all(List<ProfileException> faults) {
        ProfileException first = faults.get(0);
        if (faults.size() == 1) {
            return first;
        }
        List<String> each = faults.stream().map(Throwable::getMessage).toList();
        return new ProfileException(first.file, first.line, first.field,
                Messages.format("profile.error.several", each.size()) + System.lineSeparator() + "  "
                        + String.join(System.lineSeparator() + "  ", each), each);
    }

    /** @return each fault in words, as found (one element for a file with one fault) */
    public List<String> faults() {
        return faults;
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
