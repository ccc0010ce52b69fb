/**
 * Dashboard figures (run by bench/bench.ts in a child process): the initial JavaScript the browser
 * downloads for the first page (gzip), and the time to interactive of the sign-in page on a cold cache
 * and of the inbox right after signing in, served by a local runtime, in Debian's Chromium.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DASHBOARD_DIST, ensureDashboardBuilt } from '../local/dashboard';

const TARGETS = { initialJsGzipKb: 350, ttiMs: 1500 };
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

ensureDashboardBuilt();
const html = readFileSync(join(DASHBOARD_DIST, 'index.html'), 'utf8');
// What index.html loads before anything else: its module script and the chunks it preloads.
const scripts = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map(
  (m) => m[1]!,
);
const js = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(DASHBOARD_DIST, src))).length, 0);
console.log(
  `initial JavaScript: ${kb(js)} KB gzip in ${scripts.length} file(s) (target <= ${TARGETS.initialJsGzipKb} KB) ${mark(kb(js) <= TARGETS.initialJsGzipKb)}`,
);

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.log(`time to interactive: skipped (no Chromium at ${executablePath})`);
  process.exit(0);
}
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const { startLocalRuntime } = await import('../local/runtime');
const runtime = await startLocalRuntime({ port: 0, seedDemo: true, logLevel: 'error' });
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const signInMs: number[] = [];
const inboxMs: number[] = [];
try {
  for (let i = 0; i < 5; i++) {
    // A fresh context each time: nothing cached.
    const context = await browser.newContext();
    const page = await context.newPage();
    let started = Date.now();
    await page.goto(`${runtime.url}/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    signInMs.push(Date.now() - started);
    await page.getByLabel('Email').fill(runtime.demo!.adminEmail);
    await page.getByLabel('Password', { exact: true }).fill(runtime.demo!.adminPassword);
    started = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('list', { name: 'Conversations' })
      .or(page.getByText('No conversations yet'))
      .first()
      .waitFor();
    inboxMs.push(Date.now() - started);
    await context.close();
  }
} finally {
  await browser.close();
  await runtime.stop();
}
const signIn = median(signInMs);
const inbox = median(inboxMs);
console.log(
  `time to interactive, sign-in page (cold cache): ${signIn} ms (median of 5, target <= ${TARGETS.ttiMs} ms) ${mark(signIn <= TARGETS.ttiMs)}`,
);
console.log(
  `sign in to a loaded inbox: ${inbox} ms (median of 5, target <= ${TARGETS.ttiMs} ms) ${mark(inbox <= TARGETS.ttiMs)}`,
);
