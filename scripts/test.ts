// `npm test`: checks the prerequisites of the steps it will run, runs the steps in order (each is an npm
// script that also runs alone), stops at the first failure with that step's exit code, and prints how
// long each step took.
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
}

const RUNTIME: Prerequisite[] = ['java', 'openssl'];

const STEPS: Step[] = [
  { name: 'typecheck', script: 'typecheck', needs: [] },
  { name: 'lint', script: 'lint', needs: [] },
  { name: 'openapi', script: 'lint:openapi', needs: [] },
  // The SDK generators' --check runs in a unit test, with python3 and ruby.
  { name: 'unit', script: 'test:unit', needs: ['python', 'ruby'] },
  { name: 'models', script: 'test:models', needs: [] },
  { name: 'infra', script: 'test:infra', needs: [] },
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

const runScript = (script: string) =>
  new Promise<number>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', env });
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const times: { name: string; seconds: number; code: number }[] = [];
let failed = 0;
for (const step of steps) {
  console.log(`\n── ${step.name} (npm run ${step.script})`);
  const started = performance.now();
  const code = await runScript(step.script);
  times.push({ name: step.name, seconds: (performance.now() - started) / 1000, code });
  if (code !== 0) {
    failed = code;
    break;
  }
}

const total = times.reduce((sum, t) => sum + t.seconds, 0);
const width = Math.max(...steps.map((s) => s.name.length), 'total'.length);
const row = (name: string, seconds: number, note = '') =>
  `${name.padEnd(width)}  ${seconds.toFixed(1).padStart(7)} s${note}`;
console.log(`\n${'step'.padEnd(width)}  ${'time'.padStart(9)}`);
for (const t of times) console.log(row(t.name, t.seconds, t.code === 0 ? '' : `  failed (exit ${t.code})`));
for (const s of steps.slice(times.length)) console.log(`${s.name.padEnd(width)}  ${'not run'.padStart(9)}`);
console.log(row('total', total));
process.exit(failed);
