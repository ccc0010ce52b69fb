// `npm test` of the SDK: type-checks the sources and tests, starts the real local runtime once with the
// main suite's own global setup (bin/local.ts on a free port, SEED_DEMO=false, a platform token, a test
// CA for HTTPS webhook receivers, private networks allowed for them), runs every test file with node's
// test runner, and stops the runtime.
//
//   node test/run.mjs                      every test file
//   node test/run.mjs test/retries.test.ts just these
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithRuntime } from '../../../test/support/run-with-runtime.mjs';

const sdkRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(sdkRoot, 'package.json'));
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(join(sdkRoot, 'test'))
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => join('test', f));

// The SDK has its own dev dependencies (openapi-typescript for the generated types' check): install them
// from its lockfile when they are missing or older than it, e.g. in CI after the root's `npm ci`.
const lock = join(sdkRoot, 'package-lock.json');
const installed = join(sdkRoot, 'node_modules/.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('sdk: installing dev dependencies (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: sdkRoot, stdio: 'inherit' });
}

// The package tests import the package by its own name, which resolves to dist/: build it first.
console.log('sdk: building');
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: sdkRoot, stdio: 'inherit' });

console.log('sdk: type-checking');
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: sdkRoot, stdio: 'inherit' });

await runWithRuntime('sdk', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', ...files], {
  cwd: sdkRoot,
  sdkServers: true,
});
