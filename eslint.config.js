// ESLint (flat config), run by `npm test` and `npm run lint`: typescript-eslint's type-aware rules plus
// the import boundaries of docs/design.md "Layout". test/unit/lint-boundaries.test.ts proves the boundaries bite.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The entry points: every handler module of catalog/routes.ts and catalog/workers.ts (`handler: 'feature/name'`). */
const ENTRY_POINTS = ['catalog/routes.ts', 'catalog/workers.ts'].flatMap((file) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bhandler: '([\w/-]+)'/g)].map((m) => `functions/${m[1]}.ts`),
);

/** Every module under functions/ that is neither an entry point nor part of the HTTP chain itself. */
function notEntryPoints(dir = join(ROOT, 'functions')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path);
    if (entry.isDirectory()) return rel === join('functions', 'http') ? [] : notEntryPoints(path);
    return entry.name.endsWith('.ts') && !ENTRY_POINTS.includes(rel) ? [rel] : [];
  });
}

/** Layers that every feature may use (they have their own zones below); every other folder is a feature. */
const LAYERS = ['platform', 'http'];
const FEATURES = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.includes(entry.name))
  .map((entry) => entry.name);

/**
 * A feature's public modules: those whose first line is a `// Public: …` comment (docs/architecture.md,
 * "Features and what they export"). Other features may import these and nothing else of the feature.
 */
const PUBLIC_MARKER = /^\/\/ Public: /;
function publicModules(feature) {
  const dir = join(ROOT, 'functions', feature);
  return readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('.ts') && PUBLIC_MARKER.test(readFileSync(join(dir, file), 'utf8')))
    .map((file) => `./${file}`);
}

/** One zone per feature: the rest of functions/ reaches into it only through its public modules. */
const FEATURE_ZONES = FEATURES.map((feature) => ({
  target: ['functions/http', ...FEATURES.filter((other) => other !== feature).map((other) => `functions/${other}`)],
  from: `functions/${feature}`,
  except: publicModules(feature),
  message: `Features use each other only through their public modules (a first line \`// Public: …\`); see docs/architecture.md.`,
}));

const STORES = ['functions/**/store.ts', 'functions/**/*-store.ts'];
const SERVICES = ['functions/**/service.ts', 'functions/**/*-service.ts'];
/** What runs or reads the handlers (contract/: the OpenAPI generator), never imported by them. */
const OUTSIDE_FUNCTIONS = ['bin', 'lib', 'local', 'contract', 'scripts', 'bench', 'test'];

/** docs/design.md "Layout": imports point one way, handlers → functions/http → features → functions/platform → catalog. */
const BOUNDARIES = [
  {
    target: 'catalog',
    from: ['functions', ...OUTSIDE_FUNCTIONS, 'node_modules'],
    message: 'catalog/ is pure data and imports only catalog/.',
  },
  {
    target: 'lib',
    from: ['functions', 'bin', 'local', 'contract', 'scripts', 'bench', 'test'],
    message: 'lib/ (CDK) reads only catalog/ and packages.',
  },
  {
    target: 'functions',
    from: OUTSIDE_FUNCTIONS,
    message: 'Lambda code never imports lib/, local/, contract/, bin/, scripts/, bench/ or test/.',
  },
  {
    target: 'functions/platform',
    from: 'functions',
    except: ['./platform'],
    message: 'functions/platform/ is the base layer: it imports no feature and not functions/http/.',
  },
  {
    target: notEntryPoints(),
    from: 'functions/http',
    message: 'Only handler and worker modules (catalog/routes.ts, catalog/workers.ts) use the HTTP chain.',
  },
  {
    target: STORES,
    from: SERVICES,
    message: 'A store is the bottom of its feature: it never imports a service.',
  },
  {
    target: STORES,
    from: ENTRY_POINTS,
    message: 'A store is the bottom of its feature: it never imports a handler or worker.',
  },
  ...FEATURE_ZONES,
];

export default tseslint.config(
  {
    // What .gitignore lists (build output, bench bundles, local data), scratch files, and the SDK (its own package).
    ignores: [
      'node_modules/',
      'cdk.out/',
      'coverage/',
      '.bench/',
      '.data/',
      '.local/',
      '.scratch/',
      'sdks/',
      'dashboard/dist/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json', '.d.ts'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: BOUNDARIES }],
      // Destructuring to drop attributes (`const { pk, sk, ...item } = row`) is how stores strip keys.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      // Handlers and AI providers implement Promise-returning contracts; some simply have nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests assert on parsed JSON bodies typed `any` (test/support/api.ts): the expect() calls are the check.
    files: ['test/**', 'dashboard/test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The dashboard runs in browsers; its type information comes from dashboard/tsconfig.json.
    files: ['dashboard/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Plain JavaScript (configs, jest setup): outside tsconfig, so no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
