package com.orderconsole.service.importer;

/**
 * One bad row of an import, skipped.
 *
 * @param line 1-based line number in the file where the row starts (the header is line 1)
 * @param reason what is wrong, naming the column and showing the bad value
 */
public record ImportProblem(long line, String reason) {
}
