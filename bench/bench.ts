/**
 * `npm run bench`: the project's figures. For every handler: its bundle as the stack builds it (and
 * without @aws-sdk), and its cold module-load time in a fresh Node process. Then the DynamoDB round
 * trips of authenticated requests, measured through the local runtime, the webhook delivery figures and
 * the AI evaluation. `npm run bench -- --help` prints what it measures (HELP below).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { AI_MODEL_FILES, BUNDLING } from '../catalog/bundling';
import { AI_MEMORY_MB, FULL_VCPU_MB } from '../catalog/functions';
import { ROUTES } from '../catalog/routes';
import { REQUEST_TARGETS, requestCosts } from './requests';

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
const TARGETS = { bundleKb: 150, aiBundleKb: 300, loadMs: 50, modelLoadMs: 100 };

const HELP = `usage: npm run bench [-- --help]

Prints the project's figures, each against its target:
  1. handler bundles: each route's esbuild bundle as the stack builds it, and without @aws-sdk
     (<= ${TARGETS.bundleKb} KB, AI handlers <= ${TARGETS.aiBundleKb} KB), and its cold module-load time in a fresh
     Node process (<= ${TARGETS.loadMs} ms); then the local AI model's cold load and first analysis
     (<= ${TARGETS.modelLoadMs} ms);
  2. request costs, through a local runtime it starts itself on a free port: DynamoDB round trips and
     capacity units of each request, counted in its own invocation (GET /api-keys <= ${REQUEST_TARGETS.getRoundTrips}
     round trips; POST message <= ${REQUEST_TARGETS.messageUnits} units on the request path, <= ${REQUEST_TARGETS.messageAllInUnits} with what it causes,
     <= ${REQUEST_TARGETS.messageRoundTrips} round trips; inbound <= ${REQUEST_TARGETS.inboundRoundTrips} round trips; POST /bookings as dear with 500
     future bookings of the resource as with 1), and dollars per million requests on AWS list prices
     (GET list <= $${REQUEST_TARGETS.listDollarsPerMillion}, POST message all-in <= $${REQUEST_TARGETS.messageDollarsPerMillion});
  3. webhook delivery: deliveries per second from one worker process to a local HTTPS receiver, and event
     to first attempt latency through the local runtime;
  4. AI quality and latency, as npm run eval:ai prints them;
  5. the dashboard: its initial JavaScript (gzip) and time to interactive on a local runtime, in Chromium,
     and the API requests an idle inbox tab makes in an hour with realtime events (<= 6).

It takes no other options, needs Java 17+ (DynamoDB Local) and openssl (a throwaway certificate for the
webhook receiver), leaves bundles in .bench/, and takes a few minutes.

  -h, --help   print this help`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`bench: unknown argument ${args[0]}\n\n${HELP}`);
  process.exit(1);
}

async function bundle(handler: string, withSdk: boolean): Promise<string> {
  const outfile = join(OUT, withSdk ? 'full' : 'no-sdk', `${handler.replace('/', '__')}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'functions', `${handler}.ts`)],
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
    external: withSdk ? BUNDLING.external : ['@aws-sdk/*', '@smithy/*'],
    logLevel: 'error',
  });
  return outfile;
}

/** Median of five fresh `node` processes, each timing only the import of the bundle (or `measure`). */
function coldLoadMs(
  file: string,
  measure = `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`,
): number {
  const script = measure;
  const runs = Array.from({ length: 5 }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
      })
        .toString()
        .trim(),
    ),
  );
  return runs.sort((a, b) => a - b)[2] ?? NaN;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');

async function bundles() {
  mkdirSync(OUT, { recursive: true });
  console.log('\nHandler bundles (esbuild, as the stack bundles them) and cold module load');
  console.log(`target: <= ${TARGETS.bundleKb} KB without @aws-sdk, <= ${TARGETS.loadMs} ms to load\n`);
  console.log(
    ['route'.padEnd(18), 'bundle KB'.padStart(10), 'no-SDK KB'.padStart(10), 'load ms'.padStart(8), ''].join(' '),
  );
  let worst = { kb: 0, ms: 0 };
  for (const route of ROUTES) {
    const full = await bundle(route.handler, true);
    const lean = await bundle(route.handler, false);
    const sizes = { full: kb(statSync(full).size), lean: kb(statSync(lean).size) };
    const ms = Math.round(coldLoadMs(full) * 10) / 10;
    worst = { kb: worst.kb, ms: Math.max(worst.ms, ms) };
    const budget = route.ai ? TARGETS.aiBundleKb : TARGETS.bundleKb;
    if (!route.ai) worst.kb = Math.max(worst.kb, sizes.lean);
    console.log(
      [
        route.id.padEnd(18),
        String(sizes.full).padStart(10),
        String(sizes.lean).padStart(10),
        String(ms).padStart(8),
        `${mark(sizes.lean <= budget)}/${mark(ms <= TARGETS.loadMs)}`,
      ].join(' '),
    );
  }
  console.log(
    `\nlargest without SDK (AI handlers aside, budget ${TARGETS.aiBundleKb} KB): ${worst.kb} KB; slowest load: ${worst.ms} ms`,
  );
  // The local AI model in a fresh process, per language: load the code, read that language's model file
  // (and the language identifier's) from beside the bundle, as deployed, and analyse the first message.
  const model = await bundle('ai/local/provider', false);
  cpSync(join(ROOT, AI_MODEL_FILES.from), join(dirname(model), AI_MODEL_FILES.to), { recursive: true });
  const FIRST_MESSAGES = {
    en: 'hello, can I book a haircut?',
    es: 'hola, puedo pedir cita para mañana?',
    pt: 'oi, tem horário amanhã?',
    fr: 'bonjour, je peux prendre rdv demain ?',
    de: 'hallo, kann ich morgen einen Termin haben?',
  };
  for (const [language, text] of Object.entries(FIRST_MESSAGES)) {
    const firstUse = coldLoadMs(
      model,
      `const t=performance.now();const m=await import(${JSON.stringify(model)});m.classifyLocally(${JSON.stringify(text)},${JSON.stringify(language)});console.log(performance.now()-t)`,
    );
    // On Lambda the same CPU-bound work gets AI_MEMORY_MB's share of a vCPU.
    const onLambda = firstUse * Math.max(1, FULL_VCPU_MB / AI_MEMORY_MB);
    console.log(
      `local AI, fresh process, load + ${language} model + first analysis: ${Math.round(firstUse * 10) / 10} ms (target <= ${TARGETS.modelLoadMs} ms) ${mark(firstUse <= TARGETS.modelLoadMs)}; about ${Math.round(onLambda)} ms on Lambda at ${AI_MEMORY_MB} MB`,
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
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'webhooks.ts')], {
    env: { ...childEnv(), NODE_EXTRA_CA_CERTS: tls.ca, BENCH_TLS: JSON.stringify(tls) },
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

await bundles();
await requestCosts();
await webhooks();
dashboard();
aiEvaluation();
