import { readFileSync } from 'node:fs';

export interface TestRuntime {
  url: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  /** The S3 emulator holding media (the same server as SQS). */
  s3Endpoint: string;
  /** The realtime WebSocket server (`ws://127.0.0.1:<port>`); its management API is the same port over http. */
  realtimeUrl: string;
  platformToken: string;
  jwtSecret: string;
  dataKey: string;
  graphUrl: string;
  stripeUrl: string;
  tls: { ca: string; key: string; cert: string };
  opsFile: string;
}

/** Addresses of the local runtime started by global-setup. */
export function testRuntime(): TestRuntime {
  const file = process.env.TEST_RUNTIME_FILE;
  if (!file) throw new Error('TEST_RUNTIME_FILE is not set: run the tests with npm test');
  return JSON.parse(readFileSync(file, 'utf8')) as TestRuntime;
}
