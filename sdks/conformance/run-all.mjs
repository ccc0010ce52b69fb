// `npm run test:sdks`: the three SDK suites (TypeScript, Python, Ruby) against one local runtime, started
// here with the main suite's own setup and handed to each suite through TEST_RUNTIME_FILE (its URL, the
// platform token and the test CA), instead of one runtime per language; likewise one fault proxy and
// one HTTPS webhook receiver (test-servers.mjs), handed over as SDK_FAULT_PROXY_URL and
// SDK_WEBHOOK_RECEIVER_URL. The suites run side by side, each one's output printed whole when it ends;
// exits with the code of the first suite that failed, and prints each suite's time.
//
//   node sdks/conformance/run-all.mjs                 all three
//   node sdks/conformance/run-all.mjs python ruby     some
import { spawn, spawnSync } from 'node:child_process';
import globalSetup from '../../test/support/global-setup.mjs';
import globalTeardown from '../../test/support/global-teardown.mjs';
import { startTestServersForRuntime } from './test-servers.mjs';

const SUITES = { typescript: 'test:sdk:ts', python: 'test:sdk:python', ruby: 'test:sdk:ruby' };
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`sdks: no suite ${unknown.join(', ')}; the suites are ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(SUITES);

// The Python suite runs on $PYTHON: a python3 earlier on PATH (pyenv, say) may lack httpx and pytest
// where Debian's has them (`npm test` picks the same way, scripts/test-prerequisites.ts).
const hasPythonDeps = (python) => spawnSync(python, ['-c', 'import httpx, pytest']).status === 0;
if (!process.env.PYTHON && !hasPythonDeps('python3') && hasPythonDeps('/usr/bin/python3'))
  process.env.PYTHON = '/usr/bin/python3';

console.log('sdks: starting one local runtime for the SDK suites');
await globalSetup();
// One fault proxy and one HTTPS webhook receiver for the three suites too.
const servers = await startTestServersForRuntime();
const children = new Set();
const stop = async (signal) => {
  for (const child of children) child.kill(signal);
  await servers.close();
  await globalTeardown();
  process.exit(130);
};
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

/**
 * One suite, its output kept and printed whole when it ends: the suites run side by side (each mostly
 * waits on the runtime, its retry delays and its own test servers), and their lines must not interleave.
 */
const runSuite = (name) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', SUITES[name]], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...servers.env, TEST_RUNTIME_SHARED: '1' },
    });
    children.add(child);
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const done = (code) => {
      children.delete(child);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`\n── sdks: ${name}, ${seconds.toFixed(1)} s\n${Buffer.concat(chunks).toString('utf8')}`);
      resolve([name, seconds, code]);
    };
    child.once('error', () => done(127));
    child.once('exit', (status, signal) => done(status ?? (signal ? 1 : 0)));
  });

let times = [];
try {
  times = await Promise.all(names.map(runSuite));
} finally {
  await servers.close();
  await globalTeardown();
}
const failed = times.find(([, , code]) => code !== 0)?.[2] ?? 0;
for (const [name, seconds, code] of times)
  console.log(`sdks: ${name.padEnd(10)} ${seconds.toFixed(1).padStart(7)} s${code === 0 ? '' : `  failed (exit ${code})`}`);
process.exit(failed);
