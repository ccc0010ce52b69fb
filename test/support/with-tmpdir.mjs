// Runs a command with TMPDIR set to a folder of its own, removed when the command ends: the infra tests'
// CDK apps each synthesize into a new temporary cdk.out (up to 25 MB, about twenty a run) that nothing else
// removes, which filled /tmp by gigabytes over many runs.
//
//   node test/support/with-tmpdir.mjs <command> [args…]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node test/support/with-tmpdir.mjs <command> [args…]');
  process.exit(2);
}
const folder = mkdtempSync(join(tmpdir(), 'test-tmp-'));
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TMPDIR: folder } });
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => {
  rmSync(folder, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
