import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLE_NAMES_BESIDE,
  BUNDLES_BESIDE,
  BUNDLING,
  PACKAGE_NAMES_BESIDE_BUNDLE,
  besideImport,
  externalsFor,
} from '../../catalog/bundling';
import { bundlesBeside, packagesBeside, runtimeImports } from '../../catalog/packages-beside';

/**
 * The packages kept out of bundles must be installed beside every function that loads them: a function
 * that missed one would fail its first call that needs it (a Stripe tenant's booking), so the import walk
 * is checked against esbuild's own view of what a bundle leaves out.
 */
const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The names of `kept` (packages or bundles beside) that esbuild leaves as imports in the handler's bundle,
 * and the bundle's minified code.
 */
async function bundleOf(handler: string, kept: readonly string[]): Promise<{ external: string[]; code: string }> {
  const result = await build({
    entryPoints: [join(ROOT, 'functions', `${handler}.ts`)],
    bundle: true,
    write: false,
    metafile: true,
    format: BUNDLING.format,
    platform: BUNDLING.platform,
    target: BUNDLING.target,
    mainFields: BUNDLING.mainFields,
    minify: BUNDLING.minify,
    external: ['@aws-sdk/*', '@smithy/*', ...externalsFor(handler)],
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    external: [...new Set(output.imports.map((i) => i.path))].filter((p) => kept.includes(p)).sort(),
    code: result.outputFiles[0]!.text,
  };
}
const externalsOf = async (handler: string, kept: readonly string[]) => (await bundleOf(handler, kept)).external;

describe('packages installed beside the bundle', () => {
  it('reads run-time imports, not type-only ones', () => {
    const source = [
      "import type Stripe from 'stripe';",
      "export type { Event } from 'stripe';",
      "import { a, type B } from './a';",
      "export { c } from '../c';",
      "const lib = async () => (await import('stripe')).default;",
      "import './side-effect';",
      "const stemmer = () => require('#stemmer-fr');",
    ].join('\n');
    expect(runtimeImports(source).sort()).toEqual(['#stemmer-fr', '../c', './a', './side-effect', 'stripe']);
  });

  it.each(['payments/stripe-webhook', 'payments/create', 'bookings/create', 'conversations/list'])(
    '%s carries what its bundle leaves out, and nothing else it loads',
    async (handler) => {
      const walked = packagesBeside(handler);
      const external = await externalsOf(handler, PACKAGE_NAMES_BESIDE_BUNDLE);
      // esbuild drops what tree shaking proves unused, so the walk may find more, never less.
      expect(walked).toEqual(expect.arrayContaining(external));
      expect(walked).toEqual(handler === 'conversations/list' ? [] : ['stripe']);
    },
    30_000,
  );
});

describe('bundles built beside the bundle', () => {
  it('are each found by name from the sources too (package.json `imports`), as `npm start` and the tests load them', () => {
    const { imports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      imports: Record<string, string>;
    };
    expect(imports).toEqual(
      Object.fromEntries(BUNDLE_NAMES_BESIDE.map((name) => [name, `./${BUNDLES_BESIDE[name].source}`])),
    );
  });

  it.each([
    ['conversations/messages-list', ['#jose', '#media-s3', '#metrics']],
    ['bookings/create', ['#jose', '#media-s3', '#metrics']],
    ['channels/sandbox-inbound', ['#jose', '#media-s3', '#metrics']],
    ['conversations/list', ['#jose', '#metrics']],
    // It uses S3 on every call: S3 stays in its own bundle.
    ['media/uploads-create', ['#jose', '#metrics']],
    // It signs a token on every call: jose stays in its own bundle.
    ['auth/login', ['#metrics']],
    // A worker that emits metrics on every run imports them itself.
    ['webhooks/dead-letter-worker', []],
    // Required, not imported: the stemmers, through the vendored CommonJS that builds them. Imported by entity
    // extraction: each language's date parser, and libphonenumber for a message that names a phone number.
    // (The walk also reaches the conversation service's media, which tree shaking leaves out of this bundle.)
    [
      'ai/analyze',
      [
        '#chrono-de',
        '#chrono-en',
        '#chrono-es',
        '#chrono-fr',
        '#chrono-pt',
        '#jose',
        '#media-s3',
        '#metrics',
        '#phone-numbers',
        '#stemmer-de',
        '#stemmer-es',
        '#stemmer-fr',
        '#stemmer-pt',
      ],
    ],
  ])(
    '%s carries what its bundle leaves out, and nothing else it loads',
    async (handler, expected) => {
      const walked = bundlesBeside(handler);
      const { external, code } = await bundleOf(handler, BUNDLE_NAMES_BESIDE);
      expect(walked).toEqual(expect.arrayContaining(external));
      expect(walked).toEqual(expected);
      // Bundling builds a bundle beside where the code shows its load: exactly where esbuild left the import.
      expect(BUNDLE_NAMES_BESIDE.filter((name) => code.includes(besideImport(name)))).toEqual(external);
    },
    30_000,
  );
});
