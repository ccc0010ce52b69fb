import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sqsClient } from '../functions/platform/queue';
import { buildApp } from 'fauxqs';
import { allowLoopbackMediaCors, type HookableServer } from './media-cors';
import { BUCKETS, QUEUES, TABLES, type BucketKey, type QueueKey, type TableName } from '../catalog/resources';
import { ensureBuckets, ensureQueues, ensureTables, type QueueInfo } from './bootstrap';
import { s3Client } from '../functions/media/store';
import { startDynamoDbLocal } from './dynamodb-local';
import { createGateway, loadRoutes } from './gateway';
import { lambdaContext } from './context';
import {
  currentInvocation,
  enableConcurrentInvocations,
  invokeLocally,
  onInvocationStart,
  TRIGGER,
  type Store,
  type Trigger,
} from './invocations';
import { onClientMade } from '../functions/platform/client-hooks';
import { chaos as chaosFromEnvironment, describeChaos, type Chaos } from './chaos/config';
import { freezeFetch, mayTimeOut, skewClocks, skewInvocation } from './chaos/invocations';
import { chaosClientHook } from './chaos/sdk';
import { startReplicas, type Replicas } from './chaos/replica';
import { startInvokeEndpoint, type InvocableWorker } from './lambda-invoke';
import { startQueuePoller, startSchedulePoller, startStreamPoller, type Poller } from './pollers';
import { WORKERS, type WorkerDef } from '../catalog/workers';
import { matchesFilter } from '../catalog/event-filters';
import { seedDemoData, seedDemoTenant, type DemoCredentials } from './seed';
import { PROBLEM_DOCS_PATH } from '../catalog/problems';
import { configureLogs, type LogLevel } from './logs';
import { startRealtimeServer } from './realtime';

export interface LocalRuntimeOptions {
  port: number;
  host?: string;
  /** Persistent data directory; in memory when unset. */
  dataDir?: string;
  seedDemo: boolean;
  platformToken?: string;
  /** LOG_LEVEL (docs/configuration.md); `info` by default. */
  logLevel?: LogLevel;
  /** The realtime WebSocket server's port (REALTIME_PORT); a free one when unset or 0. */
  realtimePort?: number;
}

export interface LocalRuntime {
  url: string;
  dynamoEndpoint: string;
  /** DynamoDB Local's Java process, for the bench's memory figures. */
  dynamoPid: number | undefined;
  sqsEndpoint: string;
  /** The S3 emulator (the same fauxqs server as SQS), where media is kept; addressed path-style. */
  s3Endpoint: string;
  buckets: Record<BucketKey, string>;
  /** The realtime WebSocket server (`ws://127.0.0.1:<port>`), which tickets point at. */
  realtimeUrl: string;
  tables: Record<TableName, string>;
  queues: Record<QueueKey, QueueInfo>;
  platformToken: string;
  demo?: DemoCredentials;
  stop(): Promise<void>;
}

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The part of fauxqs's Fastify app used here (its published declarations do not resolve their Fastify types). */
interface SqsEmulator {
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}

interface PersistedState {
  jwtSecret: string;
  dataKey: string;
  platformToken: string;
  demo?: DemoCredentials;
}

/** With DATA_DIR, secrets and the demo tenant survive restarts along with the data. */
function loadState(dataDir: string | undefined, platformToken: string | undefined): PersistedState {
  const file = dataDir && join(dataDir, 'local-state.json');
  const saved = (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Partial<PersistedState>;
  return {
    jwtSecret: process.env.JWT_SECRET || saved.jwtSecret || randomBytes(32).toString('base64url'),
    dataKey: process.env.DATA_KEY || saved.dataKey || randomBytes(32).toString('base64url'),
    platformToken: platformToken ?? saved.platformToken ?? `pt_${randomBytes(24).toString('base64url')}`,
    demo: saved.demo,
  };
}

function saveState(dataDir: string | undefined, state: PersistedState) {
  if (dataDir) writeFileSync(join(dataDir, 'local-state.json'), JSON.stringify(state, null, 2), { mode: 0o600 });
}

/**
 * DynamoDB Local, the SQS emulator, the tables and queues from catalog/resources.ts, the gateway over the
 * route table, and the pollers. Handlers run in this process with the AWS SDK pointed at the emulators.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  configureLogs(options.logLevel ?? 'info');
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const state = loadState(dataDir, options.platformToken);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => undefined);
  };

  try {
    const dynamo = await startDynamoDbLocal(dataDir && join(dataDir, 'dynamodb'));
    stops.push(() => dynamo.stop());
    // buildApp rather than startFauxqs: it lets the emulator listen on loopback only. The one server
    // answers SQS and S3 alike (fauxqs 2), on a free port.
    const sqsApp = buildApp({ logger: false }) as unknown as SqsEmulator & HookableServer;
    allowLoopbackMediaCors(sqsApp);
    const sqsEndpoint = await sqsApp.listen({ port: 0, host: '127.0.0.1' });
    stops.push(async () => void (await sqsApp.close()));

    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqsEndpoint,
      AWS_ENDPOINT_URL_S3: sqsEndpoint,
      JWT_SECRET: state.jwtSecret,
      DATA_KEY: state.dataKey,
      PLATFORM_TOKEN: state.platformToken,
      POWERTOOLS_METRICS_DISABLED: 'true',
    });

    // Many requests run at once in this process: keep each one's logger keys its own.
    enableConcurrentInvocations();
    // The chaos mode (docs/chaos.md) hooks in before any client or handler exists.
    const chaos = chaosFromEnvironment();
    let replicas: Replicas | undefined;
    if (chaos) {
      console.log(`Chaos mode: ${describeChaos(chaos)}`);
      skewClocks(currentInvocation);
      freezeFetch(currentInvocation);
      onInvocationStart((store) => skewInvocation(chaos, store));
      onClientMade(chaosClientHook(chaos, currentInvocation, (table) => replicas?.replicaOf(table)));
    }
    const tables = await ensureTables(new DynamoDBClient({}), 'local-', { ttl: !chaos });
    if (chaos) {
      replicas = await startReplicas(chaos, tables);
      const started = replicas;
      stops.push(() => started.stop());
    }
    const queues = await ensureQueues(sqsClient(), 'local-');
    for (const key of Object.keys(TABLES) as TableName[]) process.env[TABLES[key].envVar] = tables[key];
    for (const key of Object.keys(QUEUES) as QueueKey[]) process.env[QUEUES[key].envVar] = queues[key].url;
    const buckets = await ensureBuckets(await s3Client(), 'local-');
    for (const key of Object.keys(BUCKETS) as BucketKey[]) process.env[BUCKETS[key].envVar] = buckets[key];

    // Workers invoke each other asynchronously through a stand-in for Lambda's Invoke API.
    const invocable = new Map<string, InvocableWorker>();
    const lambda = await startInvokeEndpoint(invocable, chaos);
    stops.push(() => lambda.stop());
    process.env.AWS_ENDPOINT_URL_LAMBDA = lambda.url;
    for (const worker of WORKERS) if (worker.asyncInvoke) process.env[worker.asyncInvoke.envVar] = worker.id;

    // The realtime WebSocket API's stand-in, on its own port: tickets point at it, pushes go through it.
    const realtime = await startRealtimeServer({
      functionsDir: join(ROOT, 'functions'),
      port: options.realtimePort ?? 0,
      host: options.host,
      idleSeconds: positiveNumber(process.env.REALTIME_IDLE_SECONDS),
      maxSeconds: positiveNumber(process.env.REALTIME_MAX_SECONDS),
    });
    stops.push(() => realtime.stop());
    process.env.REALTIME_URL = realtime.url;
    process.env.REALTIME_MANAGEMENT_URL = realtime.managementUrl;

    // Handlers are imported only now, after the environment they read is in place.
    const routes = await loadRoutes(join(ROOT, 'functions'));
    const pollers: Poller[] = [];
    stops.push(async () => void (await Promise.all(pollers.map((p) => p.stop()))));
    for (const worker of WORKERS) pollers.push(await startWorker(worker, tables, queues, invocable, chaos));

    const server: Server = createGateway(routes);
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(options.port, options.host ?? '127.0.0.1', () => ok());
    });
    stops.push(
      () =>
        new Promise<void>((ok) => {
          server.close(() => ok());
          server.closeAllConnections();
        }),
    );
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
    // Problem `type` URLs lead to the page this gateway serves, unless configured elsewhere.
    process.env.PROBLEM_DOCS_URL ||= `${url}${PROBLEM_DOCS_PATH}`;

    if (options.seedDemo && !state.demo) {
      state.demo = await seedDemoTenant();
      // Saved before the demo's data, so a failed step never makes a second demo tenant on the next start.
      saveState(dataDir, state);
      for (const failure of await seedDemoData(url, state.demo)) console.error(`Demo data: ${failure}`);
    }
    saveState(dataDir, state);

    return {
      url,
      dynamoEndpoint: dynamo.endpoint,
      dynamoPid: dynamo.pid,
      sqsEndpoint,
      s3Endpoint: sqsEndpoint,
      buckets,
      realtimeUrl: realtime.url,
      tables,
      queues,
      platformToken: state.platformToken,
      demo: options.seedDemo ? state.demo : undefined,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const positiveNumber = (value: string | undefined): number | undefined =>
  Number(value) > 0 ? Number(value) : undefined;

/**
 * A poller per worker of catalog/workers.ts, calling the same handler module the CDK stack deploys; a worker
 * invoked asynchronously is also registered with the Invoke API stand-in.
 */
async function startWorker(
  worker: WorkerDef,
  tables: Record<TableName, string>,
  queues: Record<QueueKey, QueueInfo>,
  invocable: Map<string, InvocableWorker>,
  chaos: Chaos | undefined,
): Promise<Poller> {
  const mod = (await import(pathToFileURL(join(ROOT, 'functions', `${worker.handler}.ts`)).href)) as {
    handler: (event: never, context: ReturnType<typeof lambdaContext>) => Promise<never>;
  };
  const invokeBy = (trigger: Trigger) => (event: unknown) => {
    const store: Store = { [TRIGGER]: trigger };
    const run = () => invokeLocally(worker.id, mod.handler, event as never, undefined, store);
    const fault = trigger === 'queue' ? 'queueWorkerTimeout' : 'timeout';
    return chaos ? mayTimeOut(chaos, fault, store, worker.id, run) : run();
  };
  if (worker.asyncInvoke)
    invocable.set(worker.id, {
      invoke: invokeBy('invoke'),
      onFailureQueueUrl: queues[worker.asyncInvoke.onFailure].url,
    });
  const { source } = worker;
  if (source.kind === 'stream') {
    return startStreamPoller({
      tableName: tables[source.table],
      handler: invokeBy('stream'),
      filter: (record) => source.filters.some((pattern) => matchesFilter(record, pattern)),
      batchSize: source.batchSize,
      maxAttempts: source.maxRetries + 1,
      functionName: worker.id,
      chaos,
    });
  }
  if (source.kind === 'schedule') {
    const override = Number(source.localEveryEnv ? process.env[source.localEveryEnv] : undefined);
    return startSchedulePoller({
      handler: invokeBy('schedule'),
      everySeconds: override > 0 ? override : source.everySeconds,
    });
  }
  const queue = queues[source.queue];
  return startQueuePoller({
    queueUrl: queue.url,
    queueArn: queue.arn,
    handler: invokeBy('queue'),
    batchSize: source.batchSize,
    concurrency: source.concurrency,
    chaos,
  });
}

/** Where a running `npm start` describes itself for `npm run ops` (tables, queues, endpoints). */
export const RUNTIME_FILE = process.env.LOCAL_RUNTIME_FILE || join(ROOT, '.local', 'runtime.json');

export async function writeRuntimeFile(runtime: LocalRuntime): Promise<void> {
  mkdirSync(dirname(RUNTIME_FILE), { recursive: true });
  const { url, dynamoEndpoint, sqsEndpoint, s3Endpoint, buckets, realtimeUrl, tables, queues } = runtime;
  writeFileSync(
    RUNTIME_FILE,
    JSON.stringify(
      { url, dynamoEndpoint, sqsEndpoint, s3Endpoint, buckets, realtimeUrl, tables, queues, pid: process.pid },
      null,
      2,
    ),
  );
}

export function removeRuntimeFile(): void {
  rmSync(RUNTIME_FILE, { force: true });
}
