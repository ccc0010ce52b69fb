// `npm run test:dashboard`: builds the dashboard when it is stale, starts the real local runtime once
// with the main suite's own setup (bin/local.ts on a free port, a test CA that the runtime trusts for
// HTTPS webhook receivers, short retry delays), and runs the browser tests (Playwright with Debian's
// Chromium) against the dashboard the runtime serves. Screenshots land in .scratch/dashboard-screenshots/.
//
//   node dashboard/test/run.mjs                                   every test file
//   node dashboard/test/run.mjs dashboard/test/dashboard.test.ts  just these
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithRuntime } from '../../test/support/run-with-runtime.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const here = join(ROOT, 'dashboard', 'test');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(here)
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => relative(ROOT, join(here, f)));

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`dashboard: Chromium is missing at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}

// The same check `npm start` makes: build when dashboard/dist is missing or older than its sources.
execFileSync(
  process.execPath,
  ['--import', 'tsx', '-e', "(await import('./local/dashboard.ts')).ensureDashboardBuilt()"],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);

// Three files at once: each has a tenant of its own, and they mostly wait on the browser and the runtime
// (one at a time took 200 s on two idle cores, three at once 117 s, with less CPU).
await runWithRuntime('dashboard', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', ...files], {
  cwd: ROOT,
  env: { CHROMIUM_PATH: chromium },
});
