package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.service.importer.OlistImporter;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.importer.ImportProblem;
import com.orderconsole.service.importer.ImportProgress;
import com.orderconsole.service.importer.ImportReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code import --csv FILE}: imports Olist orders; bad rows are listed and skipped. On production the file's row count
 * is confirmed first ({@code --yes=ROWS}); a file with no good row exits {@link ExitCode#NO_GOOD_ROW}.
 */
@Command(name = "import")
final class ImportCommand extends CliCommand {
    @Option(names = "--csv", required = true, paramLabel = "FILE", descriptionKey = "cli.opt.csv")
    Path csv;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(csv)) {
            throw new IllegalArgumentException(Messages.format("cli.import.noFile", csv));
        }
        long rows = OlistImporter.dataRows(csv);
        try (Engine engine = engine()) {
            Operator op = operator();
            confirm(ProductionGuard.Action.IMPORT, rows, Messages.format("cli.import.what", rows, csv.getFileName().toString()));
            ImportReport r = engine.services().importer().importCsv(op, csv, progress());
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("file", csv.toString());
            doc.put("rowsRead", r.rowsRead());
            doc.put("imported", r.imported());
            doc.put("skippedDuplicates", r.skippedDuplicates());
            doc.put("badRows", r.problems().size());
            doc.put("problems", r.problems());
            doc.put("millis", r.millis());
            StringBuilder text = new StringBuilder(Messages.format("cli.import.done", r.rowsRead(), csv.toString(), r.millis() / 1000.0,
                    r.imported(), r.skippedDuplicates(), r.problems().size()) + System.lineSeparator());
            for (ImportProblem p : r.problems()) {
                text.append(Messages.format("cli.import.problem", p.line(), p.reason())).append(System.lineSeparator());
            }
            boolean noGoodRow = r.imported() + r.skippedDuplicates() == 0;
            if (noGoodRow) {
                String why = Messages.format("cli.import.noGoodRow", csv.getFileName().toString(), r.rowsRead());
                // The one document keeps the report (the bad rows) and says why the exit is not 0, as every --json failure does.
                doc.putAll(OrderCli.errorDocument(why, ExitCode.NO_GOOD_ROW, ExitCode.NO_GOOD_ROW.kind()));
                err().println(Messages.format("cli.error", why));
            }
            emit(doc, text.toString());
            return noGoodRow ? ExitCode.NO_GOOD_ROW.code() : ExitCode.OK.code();
        }
    }

    /** Progress on stderr, only for a person at a terminal (never in --json runs or pipes); the last report ends the line. */
    private ImportProgress progress() {
        return progress(ImportProgress.NONE, line -> (done, total) -> line.draw(done == total,
                () -> (total >= 0 ? Messages.format("cli.import.progress.total", done, total) : Messages.format("cli.import.progress", done))
                        + (done == total ? System.lineSeparator() : "")));
    }
}
