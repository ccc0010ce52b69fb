import { startLocalRuntime } from '../lib/local/runtime';

/** `npm start`: the whole system on this machine, in the foreground. See README "Configuration". */
const env = process.env;
const runtime = await startLocalRuntime({
  port: Number(env.PORT ?? 3000),
  host: env.HOST,
  dataDir: env.DATA_DIR || undefined,
  seedDemo: env.SEED_DEMO !== 'false',
  platformToken: env.PLATFORM_TOKEN || undefined,
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, stopping…`);
  await runtime.stop();
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
console.log(`API ready at ${runtime.url}`);
