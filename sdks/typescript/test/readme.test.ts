// Every TypeScript example in README.md type-checks against the SDK, so the documentation cannot drift
// from the API's types. Each ```ts block becomes a module; `…` placeholders become empty code, and the
// few free variables the examples use are declared.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.package-check', 'readme');
const require = createRequire(import.meta.url);

after(() => rmSync(dir, { recursive: true, force: true }));

const GLOBALS = `
import type { MessagingClient, Tokens } from '@messaging-platform/sdk';
declare global {
  const client: MessagingClient;
  const customerId: string, conversationId: string, deliveryId: string, keyId: string, orderId: string;
  function save(tokens: Tokens): void;
  function forget(): void;
  function load(): Tokens;
}
export {};
`;

/** A stand-in for the few express calls of the webhook example. */
const EXPRESS = `
declare module 'express' {
  interface Handler { (req: { body: Uint8Array; headers: Record<string, string | string[] | undefined> }, res: { sendStatus(code: number): void }): unknown }
  interface App { post(path: string, ...handlers: Handler[]): App; listen(port: number): unknown }
  interface Express { (): App; raw(options: { type: string }): Handler }
  const express: Express;
  export default express;
}
`;

describe('README', () => {
  it('every TypeScript example type-checks', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.ok(blocks.length >= 15, `found ${blocks.length} examples`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'globals.d.ts'), GLOBALS);
    writeFileSync(join(dir, 'express.d.ts'), EXPRESS);
    const files = blocks.map((code, i) => {
      const body = code
        .replace(/\{ … \}/g, '{}')
        .replace(/^(\s*)\/\* read it again and decide \*\//gm, '$1')
        .replace(/(?<!['"`/][^'"`\n]*)…(?![^'"`\n]*['"`])/g, '');
      const file = `example-${String(i + 1).padStart(2, '0')}.ts`;
      writeFileSync(join(dir, file), `${body}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')],
          strict: true, noEmit: true, skipLibCheck: true, noUnusedLocals: false,
          paths: { '@messaging-platform/sdk': [join(root, 'src/index.ts')] },
        },
        files: ['globals.d.ts', 'express.d.ts', ...files],
      }),
    );
    try {
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir], { cwd: root, stdio: 'pipe' });
    } catch (error) {
      assert.fail(`README examples do not type-check:\n${String((error as { stdout?: Buffer }).stdout ?? error)}`);
    }
  });
});
