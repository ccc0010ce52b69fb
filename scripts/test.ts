// `npm test`: checks the prerequisites of the steps it will run, runs the steps (each is an npm script that
// also runs alone), and prints how long each step took. The steps run in three lanes at once (a lane runs
// its steps one after another in the table's order):
//
// - `static`: the dashboard's build, then typecheck, lint and the contract lint; `checks`: unit, models and
//   infra. Each is busy on the CPU the whole time (tsc, type-aware ESLint, jest, esbuild). Two lanes, so
//   that once the waiting lanes end both cores work on what is left.
// - `runtime`: the runtime project. Its tests mostly wait (on pollers, retry delays, timers, a runtime of
//   their own), so it leaves a core free most of the time.
// - `clients`: the SDK suites and the dashboard's browser tests, each against a local runtime of its own,
//   also mostly waiting.
//
// The runtime and clients lanes start once the dashboard is built (every local runtime serves it). The
// static and checks lanes run at a lower CPU priority (nice 10): they take the CPU the waiting lanes leave idle, and never
// hold it while a runtime-backed test has something to do, so a test waiting on a bound (a webhook's
// timeout, a runtime's start) is not starved by a linter. Each step's output is kept and printed whole when
// it ends, so lanes do not interleave. The first failure stops new steps from starting; the steps already
// running finish; `npm test` exits with the first failing step's code. TEST_LANES=serial runs the steps one
// after another instead (static, checks, then runtime, then clients), their output streamed as it comes, at the
// usual priority.
//
//   npm test                    every step
//   npm test -- unit lint       just these steps (in their lanes)
import { spawn } from 'node:child_process';
import { describeMissing, missingPrerequisites, probe, pythonWithDeps, type Prerequisite } from './test-prerequisites';

type Lane = 'static' | 'checks' | 'runtime' | 'clients';

/** The CPU-bound lanes, which run niced beside the waiting ones. */
const NICED: Lane[] = ['static', 'checks'];

interface Step {
  name: string;
  /** The npm script it runs. */
  script: string;
  needs: Prerequisite[];
  lane: Lane;
  /** A step that must have ended before this one starts (in another lane). */
  after?: string;
}

const RUNTIME: Prerequisite[] = ['java', 'openssl'];

const STEPS: Step[] = [
  // Every local runtime serves the dashboard, and one that finds no build makes one: built once here, first,
  // so that the runtimes of three lanes do not all build it into the same folder at once.
  { name: 'build', script: 'build:dashboard', needs: [], lane: 'static' },
  { name: 'typecheck', script: 'typecheck', needs: [], lane: 'static' },
  { name: 'lint', script: 'lint', needs: [], lane: 'static' },
  { name: 'openapi', script: 'lint:openapi', needs: [], lane: 'static' },
  // The SDK generators' --check runs in a unit test, with python3 and ruby.
  { name: 'unit', script: 'test:unit', needs: ['python', 'ruby'], lane: 'checks' },
  { name: 'models', script: 'test:models', needs: [], lane: 'checks' },
  { name: 'infra', script: 'test:infra', needs: [], lane: 'checks' },
  // test/integration builds the three SDK packages offline (the wheel with Debian's build and hatchling).
  {
    name: 'runtime',
    script: 'test:runtime',
    needs: [...RUNTIME, 'python-build', 'ruby'],
    lane: 'runtime',
    after: 'build',
  },
  { name: 'sdks', script: 'test:sdks', needs: [...RUNTIME, 'python', 'ruby'], lane: 'clients', after: 'build' },
  { name: 'dashboard', script: 'test:dashboard', needs: [...RUNTIME, 'chromium'], lane: 'clients' },
];

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !STEPS.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`test: no step ${unknown.join(', ')}; the steps are ${STEPS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const chosen = asked.length > 0 ? STEPS.filter((s) => asked.includes(s.name)) : STEPS;
// A step's `after` comes along: `npm test -- runtime sdks` still builds the dashboard once, first.
const steps = STEPS.filter((s) => chosen.includes(s) || chosen.some((c) => c.after === s.name));

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

/** In lanes, each step's output is kept and printed whole when it ends, so lanes do not interleave. */
const inLanes = process.env.TEST_LANES !== 'serial';

/** How much less CPU priority the niced lanes get beside the waiting lanes (nice's scale, 0 to 19). */
const NICENESS = 10;

/**
 * Runs an npm script; in lanes its output is kept and returned when it ends, else streamed. A step of a
 * niced lane runs niced (its children inherit the priority).
 */
const runScript = (script: string, lane: Lane) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const npm = ['npm', 'run', '--silent', script];
    const command = inLanes && NICED.includes(lane) ? ['nice', '-n', String(NICENESS), ...npm] : npm;
    const child = spawn(command[0]!, command.slice(1), {
      stdio: ['ignore', inLanes ? 'pipe' : 'inherit', inLanes ? 'pipe' : 'inherit'],
      env,
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    const output = () => Buffer.concat(chunks).toString('utf8');
    child.once('error', () => resolve({ code: 127, output: output() }));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: output() }));
  });

interface Timing {
  name: string;
  /** Seconds from the start of `npm test` to the step's start, and the step's own duration. */
  startedAt: number;
  seconds: number;
  code: number;
}

const wallStarted = performance.now();
const sinceStart = () => (performance.now() - wallStarted) / 1000;
const times: Timing[] = [];
let failed = 0;
/** Each step's run, once it started: what a step with `after` waits for. */
const running = new Map<string, Promise<unknown>>();
const started = new Map<string, () => void>();
const startedOnce = (name: string) =>
  new Promise<void>((resolve) => (running.has(name) ? resolve() : started.set(name, resolve)));

async function runLane(laneSteps: Step[]) {
  for (const step of laneSteps) {
    if (step.after && steps.some((s) => s.name === step.after)) {
      await startedOnce(step.after);
      await running.get(step.after);
    }
    if (failed !== 0) return;
    const startedAt = sinceStart();
    console.log(`── ${step.name} (npm run ${step.script}) started at ${startedAt.toFixed(1)} s`);
    const run = runScript(step.script, step.lane);
    running.set(step.name, run);
    started.get(step.name)?.();
    const { code, output } = await run;
    const seconds = sinceStart() - startedAt;
    process.stdout.write(
      `\n── ${step.name} (npm run ${step.script}), ${seconds.toFixed(1)} s${code === 0 ? '' : `, failed (exit ${code})`}\n${output}`,
    );
    times.push({ name: step.name, startedAt, seconds, code });
    if (code !== 0 && failed === 0) failed = code;
  }
}

if (inLanes) {
  const lanes = [...new Set(steps.map((s) => s.lane))];
  await Promise.all(lanes.map((lane) => runLane(steps.filter((s) => s.lane === lane))));
} else {
  // One after another, in the lanes' order: static, checks, then the runtime, then the clients.
  const order: Lane[] = ['static', 'checks', 'runtime', 'clients'];
  await runLane(order.flatMap((lane) => steps.filter((s) => s.lane === lane)));
}
const wall = sinceStart();

const width = Math.max(...steps.map((s) => s.name.length), 'total (wall clock)'.length);
const seconds = (value: number) => `${value.toFixed(1).padStart(7)} s`;
console.log(`\n${'step'.padEnd(width)}  ${'lane'.padEnd(7)}  ${'started'.padStart(9)}  ${'took'.padStart(9)}`);
for (const step of steps) {
  const t = times.find((time) => time.name === step.name);
  const cells = t ? `${seconds(t.startedAt)}  ${seconds(t.seconds)}` : `${''.padStart(9)}  ${'not run'.padStart(9)}`;
  const note = t && t.code !== 0 ? `  failed (exit ${t.code})` : '';
  console.log(`${step.name.padEnd(width)}  ${step.lane.padEnd(7)}  ${cells}${note}`);
}
console.log(`${'total (wall clock)'.padEnd(width)}  ${''.padEnd(7)}  ${''.padStart(9)}  ${seconds(wall)}`);
process.exit(failed);
