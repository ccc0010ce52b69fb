import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each SDK's resource layer is generated from openapi.json by a script in that SDK. Their `--check` runs
 * here, so a route added to the API (and to the contract) without running the generators fails the suite,
 * and so does a hand edit of a generated file. The generators use only their language's standard library.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const python =
  spawnSync('python3', ['-c', 'import json'], { encoding: 'utf8' }).status === 0 ? 'python3' : '/usr/bin/python3';

const GENERATORS = [
  {
    sdk: 'TypeScript',
    command: process.execPath,
    script: 'sdks/typescript/scripts/generate-resources.mjs',
    spec: '--spec',
  },
  { sdk: 'Python models', command: python, script: 'sdks/python/scripts/generate_models.py', spec: '--spec' },
  { sdk: 'Python', command: python, script: 'sdks/python/scripts/generate_resources.py', spec: '--spec' },
  { sdk: 'Ruby models', command: 'ruby', script: 'sdks/ruby/scripts/generate_models.rb', spec: '--openapi' },
  { sdk: 'Ruby', command: 'ruby', script: 'sdks/ruby/scripts/generate_resources.rb', spec: '--openapi' },
];

function check(generator: (typeof GENERATORS)[number], spec?: string) {
  const args = [join(ROOT, generator.script), '--check', ...(spec ? [generator.spec, spec] : [])];
  return spawnSync(generator.command, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

describe('the SDK generators', () => {
  it.each(GENERATORS)('$sdk: the committed files are what openapi.json implies', (generator) => {
    const result = check(generator);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('every resource group of the contract is made by each SDK\u2019s client', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
    const groups = new Set<string>();
    for (const item of Object.values<Record<string, Record<string, unknown>>>(document.paths))
      for (const op of Object.values(item))
        if (typeof op['x-sdk-resource'] === 'string' && !op['x-sdk-core'])
          groups.add(op['x-sdk-resource'].split('.')[0] as string);
    const classes = [...groups].map((g) => g.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase()));
    const read = (file: string) => readFileSync(join(ROOT, 'sdks', file), 'utf8');
    const clients = {
      typescript: [read('typescript/src/client.ts'), (c: string) => `new ${c}(`],
      python: [read('python/src/messaging_platform/async_client.py'), (c: string) => `= ${c}(`],
      ruby: [read('ruby/lib/messaging_platform/client.rb'), (c: string) => `Resources::${c}.new`],
    } as const;
    for (const [sdk, [source, made]] of Object.entries(clients))
      expect([sdk, classes.filter((c) => !source.includes(made(c)))]).toEqual([sdk, []]);
    expect(classes).toEqual(expect.arrayContaining(['Conversations', 'SavedReplies', 'Tenants', 'Meta']));
  });

  describe('a route in the contract that the SDKs lack', () => {
    let dir: string;
    let spec: string;
    beforeAll(() => {
      const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
      // A new operation, as `npm run openapi` would emit it for a new route with an SDK name.
      const archive = structuredClone(document.paths['/conversations/{id}'].patch);
      Object.assign(archive, {
        operationId: 'archiveConversation',
        summary: 'Archive a conversation',
        'x-sdk-resource': 'conversations',
        'x-sdk-method': 'archive',
      });
      delete archive.requestBody;
      document.paths['/conversations/{id}/archive'] = { post: archive };
      dir = mkdtempSync(join(tmpdir(), 'sdk-generators-'));
      spec = join(dir, 'openapi.json');
      writeFileSync(spec, JSON.stringify(document));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each(GENERATORS.filter((g) => !g.sdk.endsWith('models')))(
      '$sdk: --check fails and names the missing method',
      (generator) => {
        const result = check(generator, spec);
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(/out of date/);
        expect(result.stderr).toContain('archive');
      },
    );
  });
});
