/**
 * Which functions carry which of the packages kept out of every bundle (catalog/bundling.ts
 * PACKAGES_BESIDE_BUNDLE): those whose code loads them, found by following the handler's imports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAMES_BESIDE_BUNDLE, type PackageBeside } from './bundling';

const FUNCTIONS_DIR = fileURLToPath(new URL('../functions/', import.meta.url));

/**
 * Module specifiers a TypeScript file loads at run time: `import … from`, `export … from` and `import()`,
 * without the type-only ones (which compile away).
 */
export function runtimeImports(source: string): string[] {
  const found: string[] = [];
  for (const [, typeOnly, spec] of source.matchAll(/\b(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s*'([^']+)'/g))
    if (!typeOnly) found.push(spec!);
  for (const [, spec] of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(spec!);
  for (const [, spec] of source.matchAll(/^import\s+'([^']+)'/gm)) found.push(spec!);
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
 * The packages of PACKAGES_BESIDE_BUNDLE that the handler (a module under functions/, without extension)
 * loads, directly or through the modules it imports. A false positive only installs a package that stays
 * unused; a miss would fail the first call that needs it, so every local import is followed.
 */
export function packagesBeside(handler: string): PackageBeside[] {
  const wanted = new Set<string>(PACKAGE_NAMES_BESIDE_BUNDLE);
  const needed = new Set<PackageBeside>();
  const seen = new Set<string>();
  const queue = [join(FUNCTIONS_DIR, `${handler}.ts`)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) {
        const next = resolveLocal(file, spec);
        if (next) queue.push(next);
        // Data and vendored plain JavaScript (no TypeScript source to follow) are leaves.
        else if (!/\.(json|cjs|mjs)$/.test(spec) || !existsSync(join(dirname(file), spec)))
          throw new Error(`${relative(FUNCTIONS_DIR, file)}: cannot resolve ${spec}`);
      } else if (wanted.has(spec)) needed.add(spec as PackageBeside);
    }
  }
  return [...needed].sort();
}
