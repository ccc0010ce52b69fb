/** `npm start`: the whole system on this machine, in the foreground. See README "Configuration". */
const env = process.env;
// Before any handler module loads: the Powertools singletons read these when they are created.
env.POWERTOOLS_METRICS_DISABLED ??= 'true';
env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { startLocalRuntime, writeRuntimeFile, removeRuntimeFile } = await import('../local/runtime');
const { PrerequisiteError } = await import('../local/dynamodb-local');
const runtime = await startLocalRuntime({
  port: Number(env.PORT ?? 3000),
  host: env.HOST,
  dataDir: env.DATA_DIR || undefined,
  seedDemo: env.SEED_DEMO !== 'false',
  platformToken: env.PLATFORM_TOKEN || undefined,
}).catch((error: unknown) => {
  // A missing prerequisite (Java) is the user's to fix: say what and how, without a stack trace.
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

console.log(`DynamoDB Local at ${runtime.dynamoEndpoint}`);
console.log(`SQS emulator at ${runtime.sqsEndpoint}`);
console.log(`Platform token: ${runtime.platformToken}`);
if (runtime.demo) {
  console.log(`Demo tenant id: ${runtime.demo.tenantId}`);
  console.log(`Demo API key: ${runtime.demo.apiKey}`);
  console.log(`Demo admin login: ${runtime.demo.adminEmail} / ${runtime.demo.adminPassword}`);
}
// Lets `npm run ops` find this runtime's tables and queues.
await writeRuntimeFile(runtime);
console.log(`API ready at ${runtime.url}`);
export {};
