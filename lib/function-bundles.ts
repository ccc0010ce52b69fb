/**
 * Every function's bundle built in one process ahead of a synth, for the infra tests: NodejsFunction runs
 * `npx esbuild` once per function (about 110), each parsing the AWS SDK and the shared code again. Here the
 * functions built without a `define` (the workers) share one esbuild run with many entry points, and the
 * route functions (each with its own route written in: catalog/bundling.ts `routeDefine`) are built by
 * one esbuild service, without npx. The settings are NodejsFunction's for AppFunction (same esbuild, same
 * flags), so each folder holds what `cdk synth` would bundle, byte for byte; test/infra checks that.
 *
 * A synth given the folder (context PREBUILT_BUNDLES_CONTEXT) takes each function's code from it;
 * `cdk synth` and `cdk deploy` are never given one and bundle each function themselves.
 */
import { App } from 'aws-cdk-lib';
import { build, type BuildOptions } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLES_BESIDE,
  BUNDLING,
  PACKAGES_BESIDE_BUNDLE,
  besideFormat,
  besideImport,
  besidePackageJson,
  externalsFor,
  type BundleBeside,
} from '../catalog/bundling';
import { AppFunction, FUNCTIONS_DIR, ROOT, bundleKey, type FunctionBundle } from './api-function';
import { buildCdkApp, type CdkAppOptions } from './app';

/** The context key naming a folder of prebuilt bundles, one sub-folder per bundleKey. */
export { PREBUILT_BUNDLES_CONTEXT } from './api-function';

/** The bundles an app's functions need (distinct ones once), from a construction without bundling. */
export function functionBundles(context: Record<string, unknown> = {}, options: CdkAppOptions = {}): FunctionBundle[] {
  const { app } = buildCdkApp(new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } }), options);
  const bundles = new Map<string, FunctionBundle>();
  for (const node of app.node.findAll())
    if (node instanceof AppFunction) bundles.set(bundleKey(node.bundle), node.bundle);
  return [...bundles.values()];
}

/** esbuild's settings as NodejsFunction passes them for AppFunction (lib/api-function.ts). */
const ESBUILD: BuildOptions = {
  bundle: true,
  platform: BUNDLING.platform,
  format: BUNDLING.format,
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  sourcemap: BUNDLING.sourcemap,
  mainFields: BUNDLING.mainFields,
  banner: { js: BUNDLING.banner },
  external: [...BUNDLING.external],
  alias: BUNDLING.alias,
  absWorkingDir: ROOT,
  logLevel: 'warning',
  outExtension: { '.js': '.mjs' },
};

const entry = (bundle: FunctionBundle) => join(FUNCTIONS_DIR, `${bundle.handler}.ts`);

/** A shell glob of catalog/bundling.ts DataFiles (`*.json.gz`, a plain name) as a test on file names. */
const globTest = (pattern: string) => {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
};

/** What AppFunction's afterBundling commands put beside the bundle: the data files, the packages, the bundles. */
async function copyBeside(bundle: FunctionBundle, dir: string) {
  for (const files of bundle.dataFiles) {
    const matches = globTest(files.pattern);
    const target = join(dir, files.to);
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(join(ROOT, files.from)).filter((n) => matches.test(n)))
      cpSync(join(ROOT, files.from, name), join(target, name));
  }
  for (const name of bundle.packages) {
    const from = join(ROOT, 'node_modules', name);
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    for (const part of PACKAGES_BESIDE_BUNDLE[name])
      cpSync(join(from, part), join(dir, 'node_modules', name, part), {
        recursive: true,
        filter: (path) => !path.endsWith('.map') && !path.endsWith('.d.ts'),
      });
  }
  // Only beside a bundle that kept the import, as the commands' grep decides.
  const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
  const kept = bundle.bundles.filter((name) => code.includes(besideImport(name)));
  for (const name of kept) writeFileSync(join(dir, BUNDLES_BESIDE[name].file), await besideBundle(name));
  if (kept.length > 0) writeFileSync(join(dir, 'package.json'), besidePackageJson(bundle.bundles));
}

/** Each bundle beside, built once for every function that carries it. */
const besideBundles = new Map<BundleBeside, Promise<Uint8Array>>();
function besideBundle(name: BundleBeside): Promise<Uint8Array> {
  let built = besideBundles.get(name);
  if (!built) {
    // As its esbuild command does: the function's settings, but nothing external and no define.
    const { external: _external, outExtension: _outExtension, banner: _banner, ...settings } = ESBUILD;
    const { format, banner } = besideFormat(name);
    built = build({
      ...settings,
      format,
      ...(banner ? { banner: { js: banner } } : {}),
      entryPoints: [join(ROOT, BUNDLES_BESIDE[name].source)],
      outfile: BUNDLES_BESIDE[name].file,
      write: false,
    }).then((result) => result.outputFiles[0]!.contents);
    besideBundles.set(name, built);
  }
  return built;
}

/** Builds every bundle into `outdir`/<bundleKey>, each with the files its asset carries beside it. */
export async function buildFunctionBundles(bundles: readonly FunctionBundle[], outdir: string): Promise<void> {
  // Those with the usual externals share one run; a function that keeps a bundle beside inside is built alone.
  const usualExternals = (b: FunctionBundle) => externalsFor(b.handler).length === BUNDLING.external.length;
  const shared = bundles.filter((b) => !b.define && usualExternals(b));
  if (shared.length > 0)
    await build({
      ...ESBUILD,
      entryPoints: Object.fromEntries(shared.map((b) => [`${bundleKey(b)}/index`, entry(b)])),
      outdir,
    });
  // A few at a time: all at once, one service holds every bundle's syntax trees in memory at the same time.
  const own = bundles.filter((b) => !shared.includes(b));
  const next = own.values();
  const worker = async () => {
    for (const b of next)
      await build({
        ...ESBUILD,
        entryPoints: [entry(b)],
        define: b.define,
        external: externalsFor(b.handler),
        outfile: join(outdir, bundleKey(b), 'index.mjs'),
      });
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  for (const b of bundles) await copyBeside(b, join(outdir, bundleKey(b)));
}
