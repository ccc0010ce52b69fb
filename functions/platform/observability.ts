import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import { METRICS } from '../../catalog/metrics';

/** A log record as Powertools prints it: level, message, timestamp, service, context and the record's keys. */
export type LogRecord = Record<string, unknown>;
export type LogSink = (record: LogRecord) => void;

let sink: LogSink | undefined;

/**
 * Sends log records to `next` instead of printing each as a JSON line. Never set in AWS, where every
 * record stays structured JSON for CloudWatch; the local runtime sets it to print short lines.
 */
export function setLogSink(next: LogSink | undefined): void {
  sink = next;
}

class AppLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (!sink) return super.printLog(logLevel, log);
    log.prepareForPrint();
    sink(log.getAttributes());
  }
}

/**
 * The shared logger, as in the Powertools examples (constructing it does no I/O). Metrics are in
 * ./metrics.ts, apart, so that functions that never emit one do not carry Powertools Metrics.
 */
export const logger: Logger = new AppLogger({ serviceName: METRICS.service });
