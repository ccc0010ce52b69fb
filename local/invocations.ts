import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { countUsageIn, newDbUsage, type DbUsage } from './usage';
import { lambdaContext } from './context';

/**
 * Lambda gives each process one request at a time, so the Powertools logger (and metrics, and the batch
 * processor) keep per-request state in one place. The local runtime serves many requests at once in one
 * process, so that state would leak between them: a log line could carry another request's id and tenant.
 * Lambda's own answer for concurrent invocations is the InvokeStore, an AsyncLocalStorage its runtime puts
 * on `globalThis.awslambda`, which Powertools uses whenever AWS_LAMBDA_MAX_CONCURRENCY is set. The local
 * runtime does the same, and runs every invocation in its own store. In Lambda nothing changes.
 */
export type Store = Record<string | symbol, unknown>;

const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
/** The invocation's own DynamoDB and SQS accounting (./usage.ts), never shared with another. */
const DB_USAGE = Symbol('dbUsage');
const als = new AsyncLocalStorage<Store>();
/** Outside any invocation (start-up, seeding) there is one shared store, as in a one-request process. */
const shared: Store = {};

const invokeStore = {
  hasContext: () => als.getStore() !== undefined,
  getContext: () => als.getStore(),
  get: (key: string | symbol) => (als.getStore() ?? shared)[key],
  set: (key: string | symbol, value: unknown) => {
    (als.getStore() ?? shared)[key] = value;
  },
  run: <T>(context: Store, fn: () => T): T => als.run(context, fn),
  getRequestId: () => (als.getStore()?.[REQUEST_ID] as string | undefined) ?? '-',
  getXRayTraceId: () => undefined,
  getTenantId: () => undefined,
  getTraceparent: () => undefined,
  getTracestate: () => undefined,
  getBaggage: () => undefined,
};

/** Call once, before serving: from then on Powertools keeps per-request state per invocation. */
export function enableConcurrentInvocations(): void {
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
  const global = globalThis as { awslambda?: Record<string, unknown> };
  global.awslambda = { ...global.awslambda, InvokeStore: invokeStore };
}

/** What started a worker's invocation (kept in its store): the bench charges queue-started ones their SQS requests. */
export const TRIGGER = Symbol('trigger');
export type Trigger = 'stream' | 'queue' | 'schedule' | 'invoke';

/** What an invocation did, reported when it ends: for `npm run bench`, which charges each request its own work. */
export interface InvocationRecord {
  functionName: string;
  requestId: string;
  ms: number;
  /** CPU time of the whole process meanwhile: about the invocation's own when little else runs (the bench). */
  cpuMs: number;
  db: DbUsage;
  store: Store;
}
type InvocationObserver = (record: InvocationRecord) => void;
const observers = new Set<InvocationObserver>();

/**
 * Calls `observer` after every invocation ends (handlers and workers alike); returns the way to stop. The
 * first observer turns on the per-invocation DynamoDB and SQS accounting (./usage.ts): middleware on every
 * call, which a runtime nobody observes (`npm start`, the tests, the bench's other parts) goes without.
 */
export function observeInvocations(observer: InvocationObserver): () => void {
  countUsageIn(() => als.getStore()?.[DB_USAGE] as DbUsage | undefined);
  observers.add(observer);
  return () => observers.delete(observer);
}

/** The running invocation's store (undefined outside one): what the local runtime keeps per invocation. */
export const currentInvocation = (): Store | undefined => als.getStore();

/** The request id an invocation ran with (undefined if `store` never ran one). */
export const requestIdOf = (store: Store): string | undefined => {
  const id = store[REQUEST_ID];
  return typeof id === 'string' ? id : undefined;
};

const startHooks: ((store: Store) => void)[] = [];

/** Calls `hook` with every new invocation's store before it runs (the chaos mode gives it its clock). */
export function onInvocationStart(hook: (store: Store) => void): void {
  startHooks.push(hook);
}

/**
 * Invokes a handler as Lambda would: with its own context object and its own invocation store (`store`,
 * when the caller wants to read what the invocation left there, such as its access-log record).
 */
export function invokeLocally<E, R>(
  functionName: string,
  handler: (event: E, context: Context) => Promise<R>,
  event: E,
  requestId: string = randomUUID(),
  store: Store = {},
): Promise<R> {
  store[REQUEST_ID] = requestId;
  for (const hook of startHooks) hook(store);
  // Measured only when observed (the bench): process.cpuUsage() is a system call, dear in a busy runtime.
  if (observers.size === 0) return als.run(store, () => handler(event, lambdaContext(functionName, requestId)));
  const usage = newDbUsage();
  store[DB_USAGE] = usage;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = als.run(store, () => handler(event, lambdaContext(functionName, requestId)));
  const report = () => {
    // Without the time the bench spent pricing its transactions (none outside the bench).
    const ms = performance.now() - started - usage.accountingMs;
    const { user, system } = process.cpuUsage(cpu);
    const record = { functionName, requestId, ms, cpuMs: (user + system) / 1000, db: usage, store };
    for (const observer of observers) observer(record);
  };
  return result.finally(report);
}
