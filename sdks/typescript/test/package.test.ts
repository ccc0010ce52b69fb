// The package as published: both builds load (ESM and CommonJS, through the exports map too) and work
// against the runtime, consumers type-check against the declarations in both module systems, the
// tarball holds only what it should, and the library has no runtime dependencies or Node-only imports.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { baseUrl, newTenant } from './helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const scratch = join(root, '.package-check');

before(() => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'pipe' });
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

describe('package', () => {
  it('package.json is ready to publish', () => {
    assert.equal(pkg.name, '@messaging-platform/sdk');
    assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
    assert.equal(pkg.license, 'MIT');
    assert.equal(pkg.private, undefined);
    assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
    assert.equal(pkg.sideEffects, false);
    assert.deepEqual(Object.keys(pkg.exports['.']), ['import', 'require']);
    assert.deepEqual(pkg.files, ['dist', 'README.md', 'CHANGELOG.md', 'LICENSE']);
    assert.match(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${pkg.version.replaceAll('.', '\\.')}`));
    assert.doesNotMatch(JSON.stringify(pkg), /TODO|your-org|example\.com|<[a-z-]+>/i);
  });

  it('the ESM build works, directly and through the exports map', async () => {
    const esm = await import(pathToFileURL(join(root, 'dist/esm/index.js')).href);
    const viaExports = await import('@messaging-platform/sdk');
    assert.equal(viaExports.MessagingClient, esm.MessagingClient);
    const t = await newTenant();
    const client = new esm.MessagingClient({ apiKey: t.apiKey, tenantId: t.tenantId, baseUrl: baseUrl() });
    assert.equal((await client.auth.me()).kind, 'api_key');
    await assert.rejects(client.bookings.get('bkg_01JDQ8ZK3M4N5P6Q7R8S9T0V1W'), esm.NotFoundError);
  });

  it('the CommonJS build works, directly and through the exports map, webhook verification included', async () => {
    const cjs = require(join(root, 'dist/cjs/index.js'));
    assert.equal(require('@messaging-platform/sdk').MessagingClient, cjs.MessagingClient);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"id":"evt_1","type":"webhook.test"}';
    const headers = await cjs.signWebhook(body, secret, { id: 'evt_1' });
    assert.equal((await cjs.verifyWebhook(body, headers, secret)).type, 'webhook.test');
    const t = await newTenant();
    const client = new cjs.MessagingClient({ apiKey: t.apiKey, tenantId: t.tenantId, baseUrl: baseUrl() });
    assert.equal((await client.auth.me()).kind, 'api_key');
  });

  it('consumers type-check against the declarations, as ES modules and as CommonJS', () => {
    mkdirSync(scratch, { recursive: true });
    const usage = `
      const client = new MessagingClient({ apiKey: 'sk_x', tenantId: 't', baseUrl: 'https://api.example.test', maxRetries: 3, timeout: 10_000 });
      async function main(): Promise<void> {
        for await (const c of client.conversations.list({ status: 'open', limit: 50 })) { const id: string = c.id; void id; }
        const page = await client.bookings.list({ from: new Date() }).page();
        const cursor: string | null = page.nextCursor;
        const conv = await client.conversations.get('conv_1');
        await client.conversations.update(conv.id, { status: 'resolved' }, { ifMatch: conv.version });
        const event = await verifyWebhook('{}', {}, 'whsec_x');
        if (event.type === 'booking.created') { const b: Booking = event.data.booking; void b; }
        try { await client.ai.analyze({ text: 'hi' }); } catch (e) { if (e instanceof RateLimitError) { const s: number | undefined = e.retryAfter; void s; } }
        // @ts-expect-error unknown status
        client.conversations.list({ status: 'closed' });
        void cursor;
      }
      void main;`;
    writeFileSync(join(scratch, 'esm.mts'), `import { MessagingClient, RateLimitError, verifyWebhook, type Booking } from '@messaging-platform/sdk';\n${usage}\n`);
    writeFileSync(join(scratch, 'cjs.cts'), `import { MessagingClient, RateLimitError, verifyWebhook, type Booking } from '@messaging-platform/sdk';\n${usage}\n`);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false }, files: ['esm.mts', 'cjs.cts'] }),
    );
    try {
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', scratch], { cwd: root, stdio: 'pipe' });
    } catch (error) {
      assert.fail(String((error as { stdout?: Buffer }).stdout ?? error));
    }
  });

  it('the tarball holds the builds, README, CHANGELOG and LICENSE only', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path).sort();
    for (const required of ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']) {
      assert.ok(files.includes(required), `${required} is packed`);
    }
    assert.deepEqual(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'].includes(f)), []);
  });

  it('the ES build imports nothing from Node (it runs in browsers) and nothing outside itself', () => {
    for (const file of walk(join(root, 'dist/esm')).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
      for (const spec of imports) assert.match(spec, /^\.\.?\//, `${file} imports ${spec}`);
    }
  });
});
