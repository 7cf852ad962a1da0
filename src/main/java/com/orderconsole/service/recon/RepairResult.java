package com.orderconsole.service.recon;

import java.util.List;

/**
 * Result of repairing one category.
 *
 * @param category what was repaired
 * @param attempted findings attempted
 * @param repaired findings fixed (or found already fixed)
 * @param failed findings that could not be fixed
 * @param errors first error messages, in words (at most 20)
 * @param cancelled true when the user stopped it
 */
public record RepairResult(ReconCategory category, long attempted, long repaired, long failed, List<String> errors,
                           boolean cancelled) {
}
