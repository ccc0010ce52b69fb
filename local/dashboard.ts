import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardContentSecurityPolicy } from '../catalog/dashboard';
import { API_PREFIXES } from '../catalog/routes';

/**
 * The dashboard (dashboard/, docs/dashboard.md) on the local runtime: `npm start` builds it when
 * dashboard/dist is missing or older than its sources, and the gateway serves it at `/` with an SPA
 * fallback and the same strict Content-Security-Policy as in AWS. The API keeps /api/v1 and /v1.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DASHBOARD_DIR = join(ROOT, 'dashboard');
export const DASHBOARD_DIST = join(DASHBOARD_DIR, 'dist');
/** What the build reads: a change to any of these makes dist stale. */
const SOURCES = [
  'dashboard/index.html',
  'dashboard/vite.config.ts',
  'dashboard/public',
  'dashboard/src',
  'sdks/typescript/src',
  'package-lock.json',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why dist needs a build, or undefined when it is up to date. */
export function dashboardStaleness(): string | undefined {
  const index = join(DASHBOARD_DIST, 'index.html');
  if (!existsSync(index)) return 'the first build';
  const built = statSync(index).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(join(ROOT, source)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

/** Builds the dashboard (Vite) when it is missing or stale; a failed build is reported and the API still starts. */
export function ensureDashboardBuilt(log: (line: string) => void = console.log): void {
  const reason = dashboardStaleness();
  if (!reason) return;
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) return log('Dashboard not built (vite is not installed: run npm install).');
  const started = Date.now();
  try {
    execFileSync(process.execPath, [vite, 'build', '--config', join(DASHBOARD_DIR, 'vite.config.ts')], {
      cwd: ROOT,
      stdio: 'pipe',
      // A production build whoever calls: under jest NODE_ENV is 'test', which would bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    log(`Dashboard built into dashboard/dist (${reason}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString().trim();
    log(`Dashboard build failed (npm run build:dashboard shows why): ${output?.split('\n')[0] ?? String(error)}`);
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The realtime server's and the S3 emulator's ports are picked at start (REALTIME_URL, AWS_ENDPOINT_URL_S3),
 * so the policy is made per response.
 */
const securityHeaders = () => ({
  'Content-Security-Policy': dashboardContentSecurityPolicy(
    undefined,
    process.env.REALTIME_URL,
    process.env.AWS_ENDPOINT_URL_S3 && new URL(process.env.AWS_ENDPOINT_URL_S3).origin,
  ),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
});

/**
 * Answers GET and HEAD of dashboard paths: a file of dashboard/dist, else (a path without a file
 * extension) index.html for the SPA's own routes. False for API paths (and /api/…, /v2/… lookalikes), /docs, other methods, and
 * everything when the dashboard is not built, so the gateway answers those as before.
 */
export function serveDashboard(req: IncomingMessage, res: ServerResponse, rawPath: string): boolean {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (API_PREFIXES.some((p) => rawPath === p || rawPath.startsWith(`${p}/`))) return false;
  // Anything that looks like the API (another version, another case) gets the API's 404, not the app.
  if (/^\/+(api|v\d+)(\/|$)/i.test(rawPath)) return false;
  if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return false;
  }
  const file = normalize(join(DASHBOARD_DIST, decoded));
  const inside = relative(DASHBOARD_DIST, file);
  if (inside.startsWith('..') || inside.split(sep).includes('..')) return false;
  let target: string | undefined;
  if (inside !== '' && existsSync(file) && statSync(file).isFile()) target = file;
  else if (extname(decoded) === '') target = join(DASHBOARD_DIST, 'index.html');
  if (!target) return false;
  req.resume();
  const type = TYPES[extname(target)] ?? 'application/octet-stream';
  const hashed = relative(DASHBOARD_DIST, target).startsWith(`assets${sep}`);
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(statSync(target).size),
    // Vite's assets carry a content hash; index.html and config.json must be fresh on every load.
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...securityHeaders(),
  });
  if (method === 'HEAD') res.end();
  else createReadStream(target).pipe(res);
  return true;
}
