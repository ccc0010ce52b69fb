// Starts `bin/local.ts` (what `npm start` runs) as a child process and waits for its "API ready" line.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `detached` puts the runtime in its own process group (Java included), so a test can kill the whole
 * group at once, as a crash would. Resolves with the child and the addresses it printed.
 */
export async function spawnRuntime(env, { detached = false, timeoutMs = 90_000 } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    // DynamoDB Local's JVM with its quick compiler only: less CPU for a runtime that lives for a test run.
    env: { ...process.env, PORT: '0', LOCAL_DYNAMODB_QUICK_JIT: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  let output = '';
  // TEST_RUNTIME_LOG names a file that gets all the runtime's output (its workers' logs included), for
  // looking into a failure after the run; the tests themselves never show it.
  const logFile = process.env.TEST_RUNTIME_LOG;
  if (logFile) {
    const keep = (chunk) => appendFileSync(logFile, chunk);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
  }
  const info = await new Promise((resolve, reject) => {
    // A runtime that never got ready is stopped (its Java too), not left behind by the failed run.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`local runtime did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      const url = /API ready at (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          url,
          dynamoEndpoint: /DynamoDB Local at (\S+)/.exec(output)?.[1] ?? '',
          sqsEndpoint: /SQS emulator at (\S+)/.exec(output)?.[1] ?? '',
          s3Endpoint: /S3 emulator at (\S+)/.exec(output)?.[1] ?? '',
          realtimeUrl: /Realtime WebSocket at (\S+)/.exec(output)?.[1] ?? '',
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      onData(chunk);
      if (process.env.TEST_RUNTIME_VERBOSE) process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local runtime exited with ${code}:\n${output}`));
    });
  });
  return { child, info, output: () => output };
}
