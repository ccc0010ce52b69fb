/**
 * Which functions carry which of the packages and bundles kept out of every bundle (catalog/bundling.ts
 * PACKAGES_BESIDE_BUNDLE, BUNDLES_BESIDE): those whose code loads them, found by following the handler's
 * imports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUNDLE_NAMES_BESIDE,
  PACKAGE_NAMES_BESIDE_BUNDLE,
  bundledInto,
  type BundleBeside,
  type PackageBeside,
} from './bundling';

const FUNCTIONS_DIR = fileURLToPath(new URL('../functions/', import.meta.url));

/**
 * Module specifiers a TypeScript or CommonJS file loads at run time: `import … from`, `export … from`,
 * `import()` and `require()`, without the type-only ones (which compile away).
 */
export function runtimeImports(source: string): string[] {
  const found: string[] = [];
  for (const [, typeOnly, spec] of source.matchAll(/\b(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s*'([^']+)'/g))
    if (!typeOnly) found.push(spec!);
  for (const [, spec] of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(spec!);
  for (const [, spec] of source.matchAll(/^import\s+'([^']+)'/gm)) found.push(spec!);
  for (const [, spec] of source.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g)) found.push(spec!);
  return found;
}

/** The TypeScript file a relative specifier names, if it names one. */
/** Each file's run-time imports, read once: the stack asks for every function. */
const imports = new Map<string, string[]>();
const importsOf = (file: string): string[] => {
  let found = imports.get(file);
  if (!found) imports.set(file, (found = runtimeImports(readFileSync(file, 'utf8'))));
  return found;
};

const resolveLocal = (from: string, spec: string): string | undefined => {
  const base = join(dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((p) => /\.tsx?$/.test(p) && existsSync(p));
};

/**
 * Which of `wanted` (bare specifiers) the handler (a module under functions/, without extension) loads,
 * directly or through the modules it imports. A false positive only ships something that stays unused; a
 * miss would fail the first call that needs it, so every local import is followed.
 */
function reached<T extends string>(handler: string, wanted: readonly T[]): T[] {
  const names = new Set<string>(wanted);
  const needed = new Set<T>();
  const seen = new Set<string>();
  const queue = [join(FUNCTIONS_DIR, `${handler}.ts`)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const next = resolveLocal(file, spec);
        const vendored = join(dirname(file), spec);
        if (next) queue.push(next);
        // Vendored CommonJS is followed too (its require() calls); data is a leaf.
        else if (spec.endsWith('.cjs') && existsSync(vendored)) queue.push(vendored);
        else if (!/\.(json|mjs)$/.test(spec) || !existsSync(vendored))
          throw new Error(`${relative(FUNCTIONS_DIR, file)}: cannot resolve ${spec}`);
      } else if (names.has(spec)) needed.add(spec as T);
    }
  }
  return [...needed].sort();
}

/** The packages of PACKAGES_BESIDE_BUNDLE the handler loads: installed beside its bundle. */
export const packagesBeside = (handler: string): PackageBeside[] => reached(handler, PACKAGE_NAMES_BESIDE_BUNDLE);

/**
 * The bundles of BUNDLES_BESIDE the handler may load and does not keep in its own bundle: built beside its
 * bundle when that bundle kept the import (catalog/bundling.ts `besideImport`).
 */
export const bundlesBeside = (handler: string): BundleBeside[] =>
  reached(handler, BUNDLE_NAMES_BESIDE).filter((name) => !bundledInto(name, handler));
