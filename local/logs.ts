import { logger, setLogSink, type LogRecord } from '../functions/platform/observability';
import { currentInvocation, type Store } from './invocations';

/**
 * How `npm start` prints logs (LOG_LEVEL, docs/configuration.md). In AWS every log record is a JSON line
 * (Powertools). Locally, at the default `info`, each request is one short line from the gateway
 * (`POST /api/v1/conversations 201 12ms req=… tenant=…`) and other records are short lines too; `debug`
 * prints every record as the full structured JSON instead, as in AWS; `warn` and `error` only print
 * records of that level or worse.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const isLogLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

const POWERTOOLS_LEVEL = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' } as const;

/** Keys every record carries that a short line leaves out (the function name leads the line instead). */
const CONTEXT_KEYS = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  'sampling_rate',
  'xray_trace_id',
]);

/** Where an invocation keeps its access-log record (functions/http/middleware.ts) for the gateway's line. */
const ACCESS_RECORD = Symbol('accessRecord');

let requestLines = true;

export function configureLogs(level: LogLevel): void {
  process.env.POWERTOOLS_LOG_LEVEL = POWERTOOLS_LEVEL[level];
  // The logger may exist already (modules imported before this call): set its level too.
  logger.setLogLevel(POWERTOOLS_LEVEL[level]);
  requestLines = level === 'info';
  setLogSink(level === 'debug' ? undefined : shortRecord);
}

interface ErrorLike {
  name: string;
  message: string;
  stack?: string;
}

/** An Error, or an error as Powertools formats one (`{ name, message, stack, … }`). */
const asError = (value: unknown): ErrorLike | undefined =>
  value instanceof Error ||
  (typeof value === 'object' &&
    value !== null &&
    'message' in value &&
    typeof value.message === 'string' &&
    'name' in value &&
    typeof value.name === 'string')
    ? (value as ErrorLike)
    : undefined;

function show(value: unknown): string {
  const error = asError(value);
  if (error) return JSON.stringify(`${error.name}: ${error.message}`);
  if (typeof value === 'string') return value === '' || /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** `WARN webhook-delivery: webhook delivery failed tenant_id=… reason=…`, and an error's stack under it. */
function shortRecord(record: LogRecord): void {
  const invocation = currentInvocation();
  if (record.message === 'request' && invocation) {
    invocation[ACCESS_RECORD] = record;
    return;
  }
  const level = typeof record.level === 'string' ? record.level : 'INFO';
  const source = typeof record.function_name === 'string' ? `${record.function_name}: ` : '';
  const keys = Object.entries(record).filter(([key]) => !CONTEXT_KEYS.has(key));
  const stacks = keys.flatMap(([, value]) => asError(value)?.stack?.split('\n').slice(1) ?? []);
  const message = typeof record.message === 'string' ? record.message : show(record.message);
  const line = [`${level} ${source}${message}`, ...keys.map(([key, value]) => `${key}=${show(value)}`)].join(' ');
  const text = [line, ...stacks].join('\n');
  if (level === 'DEBUG' || level === 'INFO') console.log(text);
  else console.error(text);
}

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  /** The invocation's request id, when there is no access-log record to take it from. */
  requestId?: string;
  /** The handler's invocation store, holding its access-log record. */
  invocation?: Store;
}

/** One line per request the gateway answers: `POST /api/v1/conversations 201 12ms req=… tenant=…`. */
export function logRequest(line: RequestLine): void {
  if (!requestLines) return;
  const record = line.invocation?.[ACCESS_RECORD] as LogRecord | undefined;
  const requestId = typeof record?.request_id === 'string' ? record.request_id : line.requestId;
  const tenant = typeof record?.tenant_id === 'string' ? record.tenant_id : undefined;
  const parts = [`${line.method} ${line.path} ${line.status} ${line.ms}ms`];
  if (requestId) parts.push(`req=${requestId}`);
  if (tenant) parts.push(`tenant=${tenant}`);
  console.log(parts.join(' '));
}
