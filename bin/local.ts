/**
 * `npm start`: the whole system on this machine, in the foreground (docs/configuration.md). Data is kept in
 * .local/data across restarts; `npm start -- --fresh` (or FRESH=true) starts it empty, and DATA_DIR= (empty)
 * keeps it in memory, as the tests do.
 */
const env = process.env;
// Before any handler module loads: the Powertools singletons read these when they are created.
env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// fauxqs 2 keeps queues and objects in node:sqlite, which Node 22 flags as experimental when it loads: a
// warning nobody running `npm start` can act on, which would also split its one-line error messages.
const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  const text = typeof warning === 'string' ? warning : warning.message;
  if (type === 'ExperimentalWarning' && text.includes('SQLite')) return;
  emitWarning(warning, ...rest);
};
const { startLocalRuntime, writeRuntimeFile, removeRuntimeFile } = await import('../local/runtime');
const { PrerequisiteError } = await import('../local/dynamodb-local');
const { isLogLevel, LOG_LEVELS } = await import('../local/logs');
const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
if (!isLogLevel(logLevel)) {
  console.error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}".`);
  process.exit(1);
}
const { createServer } = await import('node:net');
const { existsSync, rmSync } = await import('node:fs');
const { fileURLToPath } = await import('node:url');
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--fresh');
if (unknown.length > 0) {
  console.error(`Unknown option ${unknown.join(' ')}: npm start takes only --fresh (start with no data).`);
  process.exit(1);
}
const fresh = args.includes('--fresh') || env.FRESH === 'true';
// Unset: the git-ignored .local/data; set but empty: in memory.
const dataDir =
  env.DATA_DIR === undefined ? fileURLToPath(new URL('../.local/data', import.meta.url)) : env.DATA_DIR || undefined;
const dashboard = await import('../local/dashboard');
const { DEMO_AGENT } = await import('../local/seed');
const port = Number(env.PORT ?? 3000);
const portTaken = `Port ${port} of ${env.HOST ?? '127.0.0.1'} is in use (another npm start?): stop that one first, or set PORT.`;
// Checked before the start-up (DynamoDB Local, tables, handlers) rather than a minute later.
const inUse = await new Promise<boolean>((answer) => {
  if (port === 0) return answer(false);
  const probe = createServer().once('error', (e: NodeJS.ErrnoException) => answer(e.code === 'EADDRINUSE'));
  probe.listen(port, env.HOST ?? '127.0.0.1', () => probe.close(() => answer(false)));
});
if (inUse) {
  console.error(portTaken);
  process.exit(1);
}
// The dashboard served at / (docs/dashboard.md): built first when dashboard/dist is missing or stale.
if (env.DASHBOARD_BUILD !== 'false') dashboard.ensureDashboardBuilt();
if (fresh && dataDir) rmSync(dataDir, { recursive: true, force: true });
const runtime = await startLocalRuntime({
  port,
  host: env.HOST,
  dataDir,
  seedDemo: env.SEED_DEMO !== 'false',
  platformToken: env.PLATFORM_TOKEN || undefined,
  logLevel,
  realtimePort: env.REALTIME_PORT ? Number(env.REALTIME_PORT) : undefined,
}).catch((error: unknown) => {
  // A missing prerequisite (Java) or a taken port is the user's to fix: say what and how, without a stack trace.
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(portTaken);
    process.exit(1);
  }
  if (!(error instanceof PrerequisiteError)) throw error;
  console.error(error.message);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, stopping…`);
  await runtime.stop();
  removeRuntimeFile();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

console.log(
  dataDir ? `Data in ${dataDir} (kept across restarts; npm start -- --fresh starts empty)` : 'Data in memory',
);
console.log(`DynamoDB Local at ${runtime.dynamoEndpoint}`);
console.log(`SQS emulator at ${runtime.sqsEndpoint}`);
console.log(`S3 emulator at ${runtime.s3Endpoint} (bucket ${runtime.buckets.media})`);
console.log(`Realtime WebSocket at ${runtime.realtimeUrl}`);
console.log(`Platform token: ${runtime.platformToken}`);
if (runtime.demo) {
  console.log(`Demo tenant id: ${runtime.demo.tenantId}`);
  console.log(`Demo API key: ${runtime.demo.apiKey}`);
  console.log(`Demo admin login: ${runtime.demo.adminEmail} / ${runtime.demo.adminPassword}`);
  console.log(`Demo agent login: ${DEMO_AGENT.email} / ${DEMO_AGENT.password}`);
}
// Lets `npm run ops` find this runtime's tables and queues.
await writeRuntimeFile(runtime);
console.log(`API reference at ${runtime.url}/docs`);
if (existsSync(`${dashboard.DASHBOARD_DIST}/index.html`)) console.log(`Dashboard at ${runtime.url}/`);
// One line for the guides (docs/guides/): paste it into each terminal you use.
const exports = [
  `API=${runtime.url}/api/v1`,
  ...(runtime.demo ? [`TENANT=${runtime.demo.tenantId}`, `KEY=${runtime.demo.apiKey}`] : []),
  `PT=${runtime.platformToken}`,
];
console.log('For the guides, paste this line into your shell:');
console.log(`export ${exports.join(' ')}`);
console.log(`API ready at ${runtime.url}`);
export {};
