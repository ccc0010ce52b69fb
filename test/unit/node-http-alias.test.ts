import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLING } from '../../catalog/bundling';

/**
 * Every bundle takes Node's `http` as the CommonJS module (catalog/bundling.ts BUNDLING.alias), so that no
 * cold start loads undici for `http.WebSocket`. The SDK imports `http` the three ways checked here: a
 * default import at load (IMDS credentials), and a dynamic import on its first plain-HTTP request (as to
 * DynamoDB Local), whose module it reads as `default ?? namespace`.
 */
const ROOT = new URL('../..', import.meta.url).pathname;

const PROBE = `
import http from 'node:http';
import { request } from 'http';
const atLoad = process.moduleLoadList.filter((m) => m.includes('undici')).length;
const loaded = await import('node:http');
const dynamic = loaded.default ?? loaded;
console.log(JSON.stringify({
  atLoad,
  afterImport: process.moduleLoadList.filter((m) => m.includes('undici')).length,
  agent: typeof http.Agent,
  request: request === http.request,
  dynamic: dynamic.Agent === http.Agent && typeof dynamic.request,
  server: http.createServer === process.getBuiltinModule('node:http').createServer,
}));
`;

it("bundles take Node's http as the CommonJS module, whole, without loading undici", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-http-alias-'));
  try {
    const result = await build({
      stdin: { contents: PROBE, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      write: false,
      format: BUNDLING.format,
      platform: BUNDLING.platform,
      target: BUNDLING.target,
      banner: { js: BUNDLING.banner },
      alias: BUNDLING.alias,
      absWorkingDir: ROOT,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    // Neither a static nor a dynamic ES-module import of it is left.
    expect(code).not.toMatch(/(from\s*|import\s*\(\s*)["'](node:)?http["']/);
    writeFileSync(join(dir, 'probe.mjs'), code);
    const out = execFileSync(process.execPath, [join(dir, 'probe.mjs')], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      atLoad: 0,
      afterImport: 0,
      agent: 'function',
      request: true,
      dynamic: 'function',
      server: true,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
