package com.orderconsole.service.importer;

import java.util.List;

/**
 * Outcome of one CSV import.
 *
 * @param rowsRead data rows read from the file (the header not counted)
 * @param imported orders written to MySQL and Redis by this import
 * @param skippedDuplicates valid rows whose order id was already stored (a re-import counts every row here)
 * @param problems rows that were skipped because they are bad, in file order, each with its line number
 * @param millis wall time of the import, milliseconds
 */
public record ImportReport(long rowsRead, long imported, long skippedDuplicates, List<ImportProblem> problems,
                           long millis) {
    public ImportReport {
        problems = List.copyOf(problems);
    }
}
