/**
 * `npm run bench`: the project's figures. For every handler: its bundle as the stack builds it (and
 * without @aws-sdk), and its cold module-load time in a fresh Node process. Then the DynamoDB round
 * trips of authenticated requests, measured through the local runtime, the webhook delivery figures and
 * the AI evaluation. `npm run bench -- --help` prints what it measures (HELP below).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  AI_MODEL_FILES,
  BUNDLES_BESIDE,
  BUNDLE_NAMES_BESIDE,
  BUNDLING,
  PACKAGE_NAMES_BESIDE_BUNDLE,
  besideFormat,
  besideImport,
  besidePackageJson,
  externalsFor,
  routeDefine,
  type BundleBeside,
} from '../catalog/bundling';
import { bundlesBeside, packagesBeside } from '../catalog/packages-beside';
import { AI_MEMORY_MB, FULL_VCPU_MB } from '../catalog/functions';
import { ROUTES } from '../catalog/routes';
import { WORKERS } from '../catalog/workers';
import { REQUEST_TARGETS, requestCosts } from './requests';
import { alternate, cell, median, meets, ratioOf, showRatio, spreadOf, verdict } from './ratios';

/**
 * The environment of a part that runs in a child process. The request-cost part served requests in this
 * process with an invocation store; a child has none, so Powertools must not be told to expect one.
 */
function childEnv(): NodeJS.ProcessEnv {
  const { AWS_LAMBDA_MAX_CONCURRENCY: _concurrency, ...env } = process.env;
  return env;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.bench');
/**
 * AI handlers carry the NLP code (chrono's five languages, phone numbers, stemmers): their own bundle
 * budget, measured without the model files, which ship beside the bundle as data.
 */
const TARGETS = { bundleKb: 150, aiBundleKb: 300 };
/** A handler's cold load against the floor's (a bundle of the DynamoDB clients alone): at most this many times. */
const LOAD_TARGETS = { route: 1.1, ai: 1.2 };
/** Pairs (handler, floor) of fresh processes per route. */
const LOAD_PAIRS = 5;
/** The API path's requests per second against the minimal server's: at least this share. */
const API_TARGET = 0.9;
/** The webhook worker's deliveries per second against the minimal loop's: at least this share. */
const WORKER_TARGET = 0.95;

const PARTS = ['loads', 'requests', 'api', 'webhooks', 'dashboard', 'ai'] as const;
type Part = (typeof PARTS)[number];

const HELP = `usage: npm run bench [-- --only <part>[,<part>…]] [-- --help]

Prints the project's figures. Speed is measured against a floor built and run in the same run, in
alternating pairs (medians, with the pairs' spread), so the targets are ratios that a shared or slower
machine does not move; the absolute figures are printed beside them. A missed target says OVER.
  loads      handler bundles as the stack builds them (<= ${TARGETS.bundleKb} KB without @aws-sdk, AI handlers
             <= ${TARGETS.aiBundleKb} KB) and each handler's cold module load in a fresh Node process against a
             bundle of the DynamoDB clients alone (<= ${LOAD_TARGETS.route}×, AI handlers <= ${LOAD_TARGETS.ai}×), and, for
             reference, the design's handler libraries alone against the same floor; a cold analysis
             per language (load, model, date parser, classification and entities);
  requests   through a local runtime it starts itself: DynamoDB round trips and capacity units of each
             request, counted in its own invocation (GET /api-keys <= ${REQUEST_TARGETS.getRoundTrips} round trips; POST message
             <= ${REQUEST_TARGETS.messageUnits} units on the request path, <= ${REQUEST_TARGETS.messageAllInUnits} with what it causes, <= ${REQUEST_TARGETS.messageRoundTrips} round trips; inbound
             <= ${REQUEST_TARGETS.inboundRoundTrips} round trips; POST /bookings as dear with 500 future bookings of the resource
             as with 1), and dollars per million requests on AWS list prices, a booking reminder's too
             (scheduled, sent by a scheduler run over an idle one, its message and events) (GET list
             <= $${REQUEST_TARGETS.listDollarsPerMillion}, POST message all-in <= $${REQUEST_TARGETS.messageDollarsPerMillion});
  api        requests per second, p50 and p99 of GET /conversations through the local gateway against a
             minimal HTTP server making the same DynamoDB calls (>= ${API_TARGET}× at 10 and 50 connections);
             growth ratios (GET /conversations and GET /events with 200 and 5,000 items, POST /bookings
             with 1 and 500 future bookings); the runtime's memory (Node and DynamoDB Local), idle and
             after the load;
  webhooks   deliveries per second of the webhook worker against a minimal loop (HMAC sign, HTTPS POST
             with keep-alive, one UpdateItem) to the same receiver and DynamoDB (>= ${WORKER_TARGET}×), and event
             to first attempt latency through the local runtime;
  dashboard  its initial JavaScript (gzip) and time to interactive on a local runtime, in Chromium, and the
             API requests an idle inbox tab makes in an hour with realtime events (<= 6);
  ai         AI quality and latency, as npm run eval:ai prints them.

Needs Java 17+ (DynamoDB Local) and openssl (a throwaway certificate for the webhook receiver), leaves
bundles in .bench/, and takes a while: the handler loads alone spawn ten processes per route.

  --only <parts>  run only these parts (comma-separated): ${PARTS.join(', ')}
  -h, --help      print this help`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
let only: Set<Part> = new Set(PARTS);
for (let i = 0; i < args.length; i++) {
  const value = args[i] === '--only' ? args[++i] : undefined;
  const named = value?.split(',') ?? [];
  if (named.length === 0 || named.some((p) => !(PARTS as readonly string[]).includes(p))) {
    console.error(`bench: unknown argument ${args[i] ?? args[i - 1]}\n\n${HELP}`);
    process.exit(1);
  }
  only = new Set(named as Part[]);
}

/** Bundles `entry` (a path under the repository) into .bench/, with the stack's settings or without the SDK. */
async function bundleEntry(
  entry: string,
  name: string,
  withSdk: boolean,
  define: Record<string, string> = {},
): Promise<string> {
  const outfile = join(OUT, withSdk ? 'full' : 'no-sdk', `${name.replaceAll('/', '__')}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    outfile,
    format: BUNDLING.format,
    platform: BUNDLING.platform,
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    treeShaking: BUNDLING.treeShaking,
    sourcemap: BUNDLING.sourcemap,
    sourcesContent: BUNDLING.sourcesContent,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    alias: BUNDLING.alias,
    absWorkingDir: ROOT,
    external: withSdk
      ? externalsFor(name)
      : ['@aws-sdk/*', '@smithy/*', ...externalsFor(name).filter((e) => !e.startsWith('@aws-sdk/'))],
    define,
    logLevel: 'error',
  });
  return outfile;
}

const bundle = (handler: string, withSdk: boolean, define?: Record<string, string>) =>
  bundleEntry(`functions/${handler}.ts`, handler, withSdk, define);

/**
 * One fresh `node` process timing only the import of the bundle (or running `measure`): the CPU time it
 * took, in milliseconds. Loading is CPU work (parsing, evaluating); counting CPU time rather than the
 * wall clock keeps other processes on a shared machine out of the figure.
 */
function coldLoadMs(
  file: string,
  measure = `const t=process.cpuUsage();await import(${JSON.stringify(file)});const d=process.cpuUsage(t);console.log((d.user+d.system)/1000)`,
): number {
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', measure], {
      env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
    })
      .toString()
      .trim(),
  );
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const misses: string[] = [];

async function bundles() {
  mkdirSync(OUT, { recursive: true });
  const floor = await bundleEntry('bench/floors/dynamodb-clients.ts', 'floor-dynamodb-clients', true);
  const libraries = await bundleEntry('bench/floors/design-libraries.ts', 'floor-design-libraries', true);
  console.log('\nHandler bundles (esbuild, as the stack bundles them) and cold module load against its floor');
  console.log(
    `floor: a bundle of the DynamoDB clients alone (${kb(statSync(floor).size)} KB), loaded in a fresh process beside each handler (CPU time of the import),\n` +
      `${LOAD_PAIRS} pairs in alternating order; ratio = median of the pairs' handler/floor (lowest–highest).\n` +
      `targets: load <= ${LOAD_TARGETS.route}× the floor (AI handlers <= ${LOAD_TARGETS.ai}×); bundle <= ${TARGETS.bundleKb} KB without @aws-sdk (AI <= ${TARGETS.aiBundleKb} KB)\n`,
  );
  console.log(
    [
      'route'.padEnd(24),
      'bundle KB'.padStart(10),
      'no-SDK KB'.padStart(10),
      'load ms'.padStart(8),
      'floor ms'.padStart(9),
      'ratio (spread)'.padStart(22),
      'target',
    ].join(' '),
  );
  const ratios: number[] = [];
  for (const route of ROUTES) {
    const full = await bundle(route.handler, true, routeDefine(route));
    const lean = await bundle(route.handler, false, routeDefine(route));
    const sizes = { full: kb(statSync(full).size), lean: kb(statSync(lean).size) };
    const loads = await alternate(
      LOAD_PAIRS,
      () => coldLoadMs(full),
      () => coldLoadMs(floor),
    );
    const ratio = ratioOf(loads.project, loads.floor);
    ratios.push(ratio.median);
    const target = { max: route.ai ? LOAD_TARGETS.ai : LOAD_TARGETS.route };
    const budget = route.ai ? TARGETS.aiBundleKb : TARGETS.bundleKb;
    if (!meets(ratio, target)) misses.push(`${route.id} load ${showRatio(ratio)}`);
    if (sizes.lean > budget) misses.push(`${route.id} bundle ${sizes.lean} KB`);
    console.log(
      [
        route.id.padEnd(24),
        String(sizes.full).padStart(10),
        String(sizes.lean).padStart(10),
        cell(median(loads.project)).padStart(8),
        cell(median(loads.floor)).padStart(9),
        showRatio(ratio).padStart(22),
        `${verdict(ratio, target)}${sizes.lean > budget ? ' (bundle OVER)' : ''}`,
      ].join(' '),
    );
  }
  await packagesBesideBundles();
  const all = spreadOf(ratios);
  console.log(
    `\nhandler load ratios across routes: median ${cell(all.median, 2)}×, ${cell(all.low, 2)}–${cell(all.high, 2)}×`,
  );
  // What no route can avoid: the design's libraries alone, against the same floor. More pairs than a
  // route's, as the one figure every route's ratio is read against.
  const reference = await alternate(
    LOAD_PAIRS * 2,
    () => coldLoadMs(libraries),
    () => coldLoadMs(floor),
  );
  const librariesRatio = ratioOf(reference.project, reference.floor);
  console.log(
    `the design's libraries loaded at start alone (DynamoDB clients, Powertools Logger, zod, middy: ${kb(statSync(libraries).size)} KB): ` +
      `${showRatio(librariesRatio)} the floor, ${cell(median(reference.project))} ms against ${cell(median(reference.floor))} ms; ` +
      `the median route takes ${cell(all.median / librariesRatio.median, 2)}× of that`,
  );
  // A cold analysis in a fresh process, per language: load the code, read that language's model file (and
  // the language identifier's), require its stemmer and import its date parser from beside the bundle, as
  // deployed, and analyse the first message (classification and entities).
  const modelDir = join(OUT, 'ai-model');
  mkdirSync(modelDir, { recursive: true });
  const model = join(modelDir, 'index.mjs');
  cpSync(await bundleEntry('bench/first-analysis.ts', 'ai/first-analysis', false), model);
  cpSync(join(ROOT, AI_MODEL_FILES.from), join(modelDir, AI_MODEL_FILES.to), { recursive: true });
  const modelCode = readFileSync(model, 'utf8');
  const beside = BUNDLE_NAMES_BESIDE.filter((name) => modelCode.includes(besideImport(name)));
  for (const name of beside) writeFileSync(join(modelDir, BUNDLES_BESIDE[name].file), await buildBeside(name));
  writeFileSync(join(modelDir, 'package.json'), besidePackageJson(beside));
  const FIRST_MESSAGES = {
    en: 'hello, can I book a haircut?',
    es: 'hola, puedo pedir cita para mañana?',
    pt: 'oi, tem horário amanhã?',
    fr: 'bonjour, je peux prendre rdv demain ?',
    de: 'hallo, kann ich morgen einen Termin haben?',
  };
  for (const [language, text] of Object.entries(FIRST_MESSAGES)) {
    const runs = Array.from({ length: 5 }, () =>
      coldLoadMs(
        model,
        `const t=process.cpuUsage();const m=await import(${JSON.stringify(model)});m.classifyLocally(${JSON.stringify(text)},${JSON.stringify(language)});await m.extractEntities(${JSON.stringify(text)},new Date(),'Europe/Berlin',${JSON.stringify(language)});const d=process.cpuUsage(t);console.log((d.user+d.system)/1000)`,
      ),
    );
    const firstUse = median(runs);
    // On Lambda the same CPU-bound work gets AI_MEMORY_MB's share of a vCPU.
    const onLambda = firstUse * Math.max(1, FULL_VCPU_MB / AI_MEMORY_MB);
    console.log(
      `local AI, fresh process, load + ${language} model + first analysis with entities: ${cell(firstUse)} ms (median of 5, absolute; no floor); about ${Math.round(onLambda)} ms on Lambda at ${AI_MEMORY_MB} MB`,
    );
  }
}

// The stack's settings, built in memory: sizes and contents only.
const inMemory = {
  bundle: true,
  write: false,
  format: BUNDLING.format,
  platform: BUNDLING.platform,
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  mainFields: BUNDLING.mainFields,
  alias: BUNDLING.alias,
  absWorkingDir: ROOT,
  logLevel: 'error',
} as const;

/** A bundle beside, as the stack builds it (in memory): its code. */
const buildBeside = async (name: BundleBeside, { format, banner } = besideFormat(name)): Promise<Uint8Array> =>
  (
    await build({
      ...inMemory,
      entryPoints: [join(ROOT, BUNDLES_BESIDE[name].source)],
      outfile: BUNDLES_BESIDE[name].file,
      format,
      ...(banner ? { banner: { js: banner } } : {}),
    })
  ).outputFiles[0]!.contents;

/**
 * The packages copied and the bundles built beside bundles rather than into them (catalog/bundling.ts
 * PACKAGE_NAMES_BESIDE_BUNDLE, BUNDLES_BESIDE): each one's size alone, and which functions carry it. Loaded on
 * first use only: not part of any cold start above.
 */
async function packagesBesideBundles() {
  const carriers = [...ROUTES, ...WORKERS].map((f) => ({ id: f.id, packages: packagesBeside(f.handler) }));
  for (const name of PACKAGE_NAMES_BESIDE_BUNDLE) {
    const alone = await build({
      ...inMemory,
      stdin: { contents: `export { default } from '${name}';`, resolveDir: ROOT, loader: 'ts' },
    });
    const ids = carriers.filter((c) => c.packages.includes(name)).map((c) => c.id);
    console.log(
      `
${name}: ${kb(alone.outputFiles[0]!.contents.length)} KB bundled alone; copied beside the bundle of ${ids.length} functions ` +
        `and loaded on first use (not in the sizes or loads above; bundled, each of them was that much larger):
  ${ids.join(', ')}`,
    );
  }
  for (const name of BUNDLE_NAMES_BESIDE) {
    const beside = await buildBeside(name);
    // Beside the functions whose bundle keeps the import (tree shaking drops it from the others).
    const ids: string[] = [];
    for (const f of [...ROUTES, ...WORKERS].filter((f) => bundlesBeside(f.handler).includes(name))) {
      const own = await build({
        ...inMemory,
        entryPoints: [join(ROOT, 'functions', `${f.handler}.ts`)],
        external: ['@aws-sdk/*', '@smithy/*', ...externalsFor(f.handler)],
        define: 'method' in f ? routeDefine(f) : {},
      });
      if (own.outputFiles[0]!.text.includes(besideImport(name))) ids.push(f.id);
    }
    console.log(
      `
${name} (${BUNDLES_BESIDE[name].source}): ${kb(beside.length)} KB alone; built beside the bundle of ` +
        `${ids.length} functions and loaded on first use (not in the sizes or loads above):
  ${ids.join(', ')}`,
    );
  }
}

/** The AI quality and latency figures (the same as `npm run eval:ai`). */
function aiEvaluation() {
  console.log('');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'eval-ai.ts')], {
    env: childEnv(),
    stdio: 'inherit',
  });
}

/** The webhook figures run in a child process: it must trust a throwaway CA from its start. */
async function webhooks() {
  console.log('\nWebhook delivery\n');
  const { makeTestTls } = await import('../test/support/tls.mjs');
  const tls = makeTestTls();
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'webhooks.ts')], {
      env: {
        ...childEnv(),
        NODE_EXTRA_CA_CERTS: tls.ca,
        BENCH_TLS: JSON.stringify(tls),
        BENCH_WORKER_TARGET: String(WORKER_TARGET),
      },
      stdio: 'inherit',
    });
  } finally {
    rmSync(tls.dir, { recursive: true, force: true });
  }
}

/** The API path, growth and memory figures run in a child process with a runtime of their own (bench/api-path.ts). */
function apiPath() {
  console.log('\nAPI path against a minimal server, growth and memory\n');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'api-path.ts')], {
    env: { ...childEnv(), BENCH_API_TARGET: String(API_TARGET) },
    stdio: 'inherit',
  });
}

/** The dashboard figures run in a child process too (bench/dashboard.ts): a runtime and a browser of their own. */
function dashboard() {
  console.log('\nDashboard\n');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'dashboard.ts')], {
    env: childEnv(),
    stdio: 'inherit',
  });
}

if (only.has('loads')) await bundles();
if (only.has('requests')) await requestCosts();
if (only.has('api')) apiPath();
if (only.has('webhooks')) await webhooks();
if (only.has('dashboard')) dashboard();
if (only.has('ai')) aiEvaluation();
if (only.has('loads'))
  console.log(misses.length ? `\nOVER (${misses.length}): ${misses.join('; ')}` : '\nEvery handler load target met.');
