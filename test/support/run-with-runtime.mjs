// Runs one command against a fresh local runtime, for the test runners outside jest (the SDKs' and the
// dashboard's): starts bin/local.ts with the main suite's own global setup (a free port, no demo data, a
// platform token, a test CA for HTTPS webhook receivers), runs the command with TEST_RUNTIME_FILE naming
// a JSON file of the runtime's addresses, stops the runtime whatever happens (Ctrl-C included), and exits
// with the command's status. Under sdks/conformance/run-all.mjs, which serves the three SDK suites with
// one runtime (TEST_RUNTIME_SHARED=1 and TEST_RUNTIME_FILE set), it runs the command against that one.
// With `sdkServers`, the SDK suites' shared fault proxy and webhook receiver (sdks/conformance/test-servers.mjs)
// run beside the runtime, named by SDK_FAULT_PROXY_URL and SDK_WEBHOOK_RECEIVER_URL (the shared runner starts
// its own once).
import { spawn } from 'node:child_process';
import globalSetup from './global-setup.mjs';
import globalTeardown from './global-teardown.mjs';
import { startTestServersForRuntime } from '../../sdks/conformance/test-servers.mjs';

/**
 * @param {string} label what the log lines name ("sdk", "dashboard")
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { sdkServers?: boolean }} [options] cwd, env (stdio is inherited)
 * @returns {Promise<never>}
 */
export async function runWithRuntime(label, command, args, { sdkServers = false, ...options } = {}) {
  const shared = process.env.TEST_RUNTIME_SHARED === '1' && process.env.TEST_RUNTIME_FILE;
  if (shared) process.exit(await run(command, args, options));
  console.log(`${label}: starting the local runtime`);
  await globalSetup();
  const servers = sdkServers ? await startTestServersForRuntime() : undefined;
  if (servers) options = { ...options, env: { ...options.env, ...servers.env } };
  let child;
  const stop = async (signal) => {
    child?.kill(signal);
    await servers?.close();
    await globalTeardown();
    process.exit(130);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  let exitCode;
  try {
    exitCode = await run(command, args, options, (started) => (child = started));
  } finally {
    await servers?.close();
    await globalTeardown();
  }
  process.exit(exitCode);
}

/** Runs the command with inherited stdio; resolves to its exit status (127 when it cannot start). */
function run(command, args, options, started = () => {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  started(child);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
