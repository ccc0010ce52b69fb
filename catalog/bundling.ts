export { AI_MODEL_FILES, OPENAPI_DOCUMENT, PROBLEM_DOCS, type DataFiles } from './data-files';

/**
 * Packages kept out of every bundle and copied beside the bundle (`node_modules/<name>`, from the installed
 * copy: only the files listed, which are what Node loads for the package's ESM entry, without maps and
 * types) of each function whose code loads them (which functions: catalog/packages-beside.ts). Each is
 * loaded with a dynamic import on first use only, so no cold start parses it and the functions that never
 * call it never load it.
 *
 * `stripe`: about 250 KB minified, 170 KB of them the API resources its client builds in its constructor
 * whatever one calls, which no tree shaking removes. Bundled, it made every handler that can reach a payment
 * provider (bookings, payments, the inbound paths) 250 KB larger, sandbox tenants' requests included.
 */
export const PACKAGES_BESIDE_BUNDLE = { stripe: ['package.json', 'esm'] } as const satisfies Record<
  string,
  readonly string[]
>;
export type PackageBeside = keyof typeof PACKAGES_BESIDE_BUNDLE;
export const PACKAGE_NAMES_BESIDE_BUNDLE = Object.keys(PACKAGES_BESIDE_BUNDLE) as PackageBeside[];

/** A Snowball stemmer's bundle beside (below): CommonJS, required by synchronous code. */
const stemmerBeside = <L extends string>(language: L) =>
  ({
    [`#stemmer-${language}`]: {
      source: `functions/ai/local/vendor/snowball/stemmer-${language}.cjs`,
      file: `stemmer-${language}.cjs`,
      bundledInto: [],
      format: 'cjs',
    } as const,
  }) as Record<`#stemmer-${L}`, { source: string; file: string; bundledInto: readonly []; format: 'cjs' }>;

/** chrono's parser for one language, as a bundle beside (below). */
const chronoBeside = <L extends string>(language: L) =>
  ({
    [`#chrono-${language}`]: {
      source: `functions/ai/chrono/${language}.ts`,
      file: `chrono-${language}.mjs`,
      bundledInto: [],
    } as const,
  }) as Record<`#chrono-${L}`, { source: string; file: string; bundledInto: readonly [] }>;

/**
 * Code built into a bundle of its own (`file`, from `source`) beside the bundle of each function that
 * imports it, rather than into that bundle. Each is loaded by a subpath import (`#name`) on first use only,
 * with a dynamic import, or with `require` for a CommonJS one (`format: 'cjs'`) that synchronous code
 * needs: the project's package.json maps the name to the source, the function's asset a package.json of
 * its own to the file beside the bundle. The import walk (catalog/packages-beside.ts) names the functions
 * that may load it; bundling builds it beside those whose bundle kept the name (`besideImport`: tree
 * shaking drops it from the others). The handlers in `bundledInto` use it on every
 * call, so they keep it in their own bundle (still evaluated on first use), sharing the SDK's core.
 *
 * `#media-s3`: the S3 client and presigner (about 150 KB minified), which came, through the conversation
 * service, into message lists and sends, bookings, payments and the inbound paths, most of whose requests
 * never touch S3. In their bundles they were about a fifth of the cold start.
 *
 * `#jose`: jose's JWT signing and verification (about 15 KB minified, a tenth of a route handler's own
 * code), which only a request with a dashboard session token needs: an API key's never loads it. Login and
 * refresh sign a token on every call, so they keep it in their own bundle.
 *
 * `#metrics`: Powertools Metrics (about 13 KB minified, a tenth of a route handler's own code), which an HTTP
 * handler loads only to count a server error. The workers that emit metrics on every run import it
 * statically (functions/platform/metrics.ts), so they never reach `#metrics`.
 *
 * `#phone-numbers`: libphonenumber's parser (about 38 KB minified), imported by entity extraction only for a message with a number in international form in it; its
 * metadata is data already. Most messages name no number, and their analysis never parses it.
 *
 * `#chrono-en`, `-es`, `-pt`, `-fr`, `-de`: chrono's date parser for one language each (47–55 KB minified,
 * its shared core included), imported when entity extraction first reads that language's dates. Bundled,
 * all five languages (77 KB) were parsed at every cold start of the functions that read dates; now a
 * process loads the languages it meets. Each carries its own copy of the core, so a container that meets
 * two or more languages parses more than the 77 KB in all (about 260 KB for all five): most containers
 * of a business meet its one or two languages.
 *
 * `#stemmer-de`, `-es`, `-fr`, `-pt`: the local AI model's Snowball stemmers (9–15 KB minified each, their
 * base class included; their tables are data already), required when a language's model is first built (functions/ai/local/vendor/
 * snowball/index.cjs). Bundled, all four were parsed at every cold start of the AI functions, English
 * messages' included; now a process loads the stemmers of the languages it meets.
 */
export const BUNDLES_BESIDE = {
  ...chronoBeside('de'),
  ...chronoBeside('en'),
  ...chronoBeside('es'),
  ...chronoBeside('fr'),
  ...chronoBeside('pt'),
  '#jose': {
    source: 'functions/auth/jose.ts',
    file: 'jose.mjs',
    bundledInto: ['auth/login', 'auth/refresh'],
  },
  '#media-s3': {
    source: 'functions/media/s3-sdk.ts',
    file: 'media-s3.mjs',
    bundledInto: ['media/uploads-create', 'channels/media-fetch-worker'],
  },
  '#metrics': {
    source: 'functions/platform/metrics.ts',
    file: 'metrics.mjs',
    bundledInto: [],
  },
  '#phone-numbers': {
    source: 'functions/ai/phone-numbers.ts',
    file: 'phone-numbers.mjs',
    bundledInto: [],
  },
  ...stemmerBeside('de'),
  ...stemmerBeside('es'),
  ...stemmerBeside('fr'),
  ...stemmerBeside('pt'),
} as const satisfies Record<
  `#${string}`,
  { source: string; file: string; bundledInto: readonly string[]; format?: 'cjs' }
>;
export type BundleBeside = keyof typeof BUNDLES_BESIDE;
export const BUNDLE_NAMES_BESIDE = Object.keys(BUNDLES_BESIDE) as BundleBeside[];

/** Whether the handler keeps this bundle beside in its own bundle (BUNDLES_BESIDE `bundledInto`). */
export const bundledInto = (name: BundleBeside, handler: string): boolean =>
  (BUNDLES_BESIDE[name].bundledInto as readonly string[]).includes(handler);

/**
 * What a bundle that loads a bundle beside contains, however esbuild writes the load: `import("#name")`,
 * or a minified require's `q("#name")`. (The name alone is not enough: a table that lists it as a key,
 * `"#name":`, is no load.)
 */
export const besideImport = (name: BundleBeside): string => `("${name}")`;

/** The package.json of an asset carrying bundles beside its own: it maps each one's name to its file. */
export const besidePackageJson = (bundles: readonly BundleBeside[]): string =>
  JSON.stringify({ imports: Object.fromEntries(bundles.map((name) => [name, `./${BUNDLES_BESIDE[name].file}`])) });

/** Node's `http` as its CommonJS module (BUNDLING.alias), from the project root. */
const NODE_HTTP_COMMONJS = './functions/platform/node-http.cjs';

/**
 * How every Lambda is bundled, as plain esbuild settings. The function construct maps them onto
 * NodejsFunction, and `npm run bench` builds with the very same settings to measure the bundles.
 */
export const BUNDLING = {
  format: 'esm' as const,
  platform: 'node' as const,
  target: 'node22',
  minify: true,
  treeShaking: true,
  /**
   * No source maps: nothing linked them (no sourceMappingURL), so they were 56 % of the deployed bytes
   * for no use, and linking them with --enable-source-maps would make Node parse a map larger than the
   * bundle on every cold start. A minified stack trace is mapped offline, by building the same commit
   * with `sourcemap: true` (esbuild's output is deterministic).
   */
  sourcemap: false,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  /**
   * Imports replaced at bundling (paths from the project root, the working directory of every build). An
   * ES-module import of `node:http` loads Node's undici for `http.WebSocket` (functions/platform/node-http.cjs):
   * taken as the CommonJS module, it does not, and every cold start is 9–12 ms of CPU shorter.
   */
  alias: { 'node:http': NODE_HTTP_COMMONJS, http: NODE_HTTP_COMMONJS } as Record<string, string>,
  /** ESM bundles still contain CommonJS dependencies that call require(). */
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /**
   * The SDK is bundled (pinned, tree-shaken), except three clients imported lazily, on first use only, so
   * they are taken from the Lambda runtime's own SDK rather than parsed with every cold start: Secrets
   * Manager (a container's first request), Lambda (the dispatcher's first outbound message: 74 KB its
   * cold start for events would otherwise parse) and Bedrock Runtime (the AI functions' first call when
   * AI_PROVIDER is bedrock: 50 KB of each AI function, which the default local model never calls). And
   * the packages installed and the bundles built beside the bundle (above).
   */
  external: [
    '@aws-sdk/client-secrets-manager',
    '@aws-sdk/client-lambda',
    '@aws-sdk/client-bedrock-runtime',
    ...PACKAGE_NAMES_BESIDE_BUNDLE,
    ...BUNDLE_NAMES_BESIDE,
  ] as readonly string[],
};

/** BUNDLING.alias as esbuild's command line takes each (`<from>=<to>`), with `to` under `root`. */
export const aliasArgs = (root = '.'): string[] =>
  Object.entries(BUNDLING.alias).map(([from, to]) => `${from}=${root}/${to.replace(/^\.\//, '')}`);

/** How a bundle beside is built: as the functions' bundles are (ESM, with their banner), or as CommonJS. */
export const besideFormat = (name: BundleBeside): { format: 'esm' | 'cjs'; banner?: string } =>
  'format' in BUNDLES_BESIDE[name] ? { format: 'cjs' } : { format: BUNDLING.format, banner: BUNDLING.banner };

/** One function's externals: BUNDLING.external, less the bundles beside that it keeps in its own bundle. */
export const externalsFor = (handler: string): string[] =>
  BUNDLING.external.filter((name) => !BUNDLE_NAMES_BESIDE.some((b) => b === name && bundledInto(b, handler)));

/**
 * What an HTTP handler's bundle is built with: its own route, written in where catalog/routes.ts
 * `routeById` reads it, so that the bundle carries that route and not the whole route table.
 */
export const routeDefine = (route: { id: string }): Record<string, string> => ({
  'process.env.BUNDLED_ROUTE': JSON.stringify(JSON.stringify(route)),
});
