import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS } from '../../catalog/workers';

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

/** Shared singletons, as in the Powertools examples. Constructing them does no I/O. */
export const logger: Logger = new AppLogger({ serviceName: METRICS.service });
export const metrics = new Metrics({ namespace: METRICS.namespace, serviceName: METRICS.service });
