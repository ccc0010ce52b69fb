// `npm test`: checks the prerequisites of the steps it will run, runs the steps in order (each is an npm
// script that also runs alone), stops at the first failure with that step's exit code, and prints how
// long each step took. Steps that share a `together` name run side by side: each of them is one process
// on one core (tsc, type-aware ESLint) or small, so two of them fill a two-core machine where one leaves a
// core idle; their output is printed whole when each ends, so it does not interleave.
//
//   npm test                    every step
//   npm test -- unit lint       just these steps, in the table's order
import { spawn } from 'node:child_process';
import { describeMissing, missingPrerequisites, probe, pythonWithDeps, type Prerequisite } from './test-prerequisites';

interface Step {
  name: string;
  /** The npm script it runs. */
  script: string;
  needs: Prerequisite[];
  /** Consecutive steps with the same name run at the same time. */
  together?: string;
}

const RUNTIME: Prerequisite[] = ['java', 'openssl'];

const STEPS: Step[] = [
  { name: 'typecheck', script: 'typecheck', needs: [], together: 'static' },
  { name: 'lint', script: 'lint', needs: [], together: 'static' },
  { name: 'openapi', script: 'lint:openapi', needs: [], together: 'static' },
  // The SDK generators' --check runs in a unit test, with python3 and ruby.
  { name: 'unit', script: 'test:unit', needs: ['python', 'ruby'] },
  // Model training is one process; the CDK synth is another: side by side.
  { name: 'models', script: 'test:models', needs: [], together: 'offline' },
  { name: 'infra', script: 'test:infra', needs: [], together: 'offline' },
  // test/integration builds the three SDK packages offline (the wheel with Debian's build and hatchling).
  { name: 'runtime', script: 'test:runtime', needs: [...RUNTIME, 'python-build', 'ruby'] },
  { name: 'sdks', script: 'test:sdks', needs: [...RUNTIME, 'python', 'ruby'] },
  { name: 'dashboard', script: 'test:dashboard', needs: [...RUNTIME, 'chromium'] },
];

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !STEPS.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`test: no step ${unknown.join(', ')}; the steps are ${STEPS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const steps = asked.length > 0 ? STEPS.filter((s) => asked.includes(s.name)) : STEPS;

const needed = steps.flatMap((s) => s.needs);
const found = probe(needed);
const missing = missingPrerequisites(found, needed);
if (missing.length > 0) {
  console.error(describeMissing(missing));
  process.exit(1);
}
const env = { ...process.env };
const python = pythonWithDeps(found);
if (python) env.PYTHON = python;

/** Runs an npm script; `buffered`: its output is kept and printed whole when it ends. */
const runScript = (script: string, buffered: boolean) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env,
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const output = () => Buffer.concat(chunks).toString('utf8');
    child.once('error', () => resolve({ code: 127, output: output() }));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: output() }));
  });

/** The steps in order, consecutive steps with the same `together` name as one group. */
const groups: Step[][] = [];
for (const step of steps) {
  const last = groups.at(-1);
  if (last && step.together && last[0]?.together === step.together) last.push(step);
  else groups.push([step]);
}

const times: { name: string; seconds: number; code: number }[] = [];
let failed = 0;
const wallStarted = performance.now();
for (const group of groups) {
  const buffered = group.length > 1;
  if (buffered)
    console.log(`\n── ${group.map((s) => s.name).join(' + ')} (side by side; each one's output when it ends)`);
  const results = await Promise.all(
    group.map(async (step) => {
      if (!buffered) console.log(`\n── ${step.name} (npm run ${step.script})`);
      const started = performance.now();
      const { code, output } = await runScript(step.script, buffered);
      const seconds = (performance.now() - started) / 1000;
      if (buffered)
        process.stdout.write(`\n── ${step.name} (npm run ${step.script}), ${seconds.toFixed(1)} s\n${output}`);
      return { name: step.name, seconds, code };
    }),
  );
  times.push(...results);
  const failure = results.find((r) => r.code !== 0);
  if (failure) {
    failed = failure.code;
    break;
  }
}
const wall = (performance.now() - wallStarted) / 1000;

const width = Math.max(...steps.map((s) => s.name.length), 'total (wall clock)'.length);
const row = (name: string, seconds: number, note = '') =>
  `${name.padEnd(width)}  ${seconds.toFixed(1).padStart(7)} s${note}`;
console.log(`\n${'step'.padEnd(width)}  ${'time'.padStart(9)}`);
for (const t of times) console.log(row(t.name, t.seconds, t.code === 0 ? '' : `  failed (exit ${t.code})`));
for (const s of steps.filter((step) => !times.some((t) => t.name === step.name)))
  console.log(`${s.name.padEnd(width)}  ${'not run'.padStart(9)}`);
console.log(row('total (wall clock)', wall));
process.exit(failed);
