package com.orderconsole.service.monitor;

import com.orderconsole.domain.ResultCode;

import java.util.Map;

/**
 * History outcomes in one minute.
 *
 * @param minuteStartMs start of the minute, epoch ms
 * @param byCode outcomes per result code (APPLIED = transitions, the rest rejections)
 */
public record MinuteCount(long minuteStartMs, Map<ResultCode, Long> byCode) {
}
