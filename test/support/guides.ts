/**
 * Runs a guide (docs/guides/*.md, and the README's tour) as a reader would, and checks what it shows.
 * The conventions (docs/guides/README.md):
 *
 * - a ```bash block runs in the guide's one bash shell, in order, so variables carry from block to block;
 * - a ```bash background NAME block starts a long-running command (a second terminal), stopped at the end;
 * - a ```bash runtime block starts `npm start`: the test's runtime already runs with that environment, so
 *   the block is checked (its variables must be ones the runtime was started with) rather than run;
 * - a block whose info string has the word `output` right after a bash block (blank lines between) is what
 *   that block prints; `output NAME` is what the background command NAME prints from then on (each line
 *   on a line of its log, in any order: see logShows). `…` stands
 *   for anything (ids, times, tokens, the rest of a long answer); whitespace does not count.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface GuideBlock {
  kind: 'run' | 'background' | 'runtime' | 'output';
  /** background: its name; output: the background command it belongs to, if any. */
  name?: string;
  code: string;
  /** 1-based line of the block in its file, for messages. */
  line: number;
}

/** The fenced blocks of a Markdown file that the runner acts on, in order. */
export function guideBlocks(markdown: string): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith('```')) body.push(lines[i]!);
    const [language, words] = [open[1]!, open[2]!.trim().split(/\s+/).filter(Boolean)];
    const code = body.join('\n');
    if (language === 'bash' && words[0] === 'background')
      blocks.push({ kind: 'background', name: words[1], code, line: start + 1 });
    else if (language === 'bash' && words[0] === 'runtime') blocks.push({ kind: 'runtime', code, line: start + 1 });
    else if (language === 'bash' && words.length === 0) blocks.push({ kind: 'run', code, line: start + 1 });
    else if (words[0] === 'output') blocks.push({ kind: 'output', name: words[1], code, line: start + 1 });
  }
  return blocks;
}

// eslint-disable-next-line no-control-regex -- colour codes, which a terminal prints but a reader does not see
const ANSI = /\x1b\[[0-9;]*m/g;
const squeeze = (text: string) => text.replace(ANSI, '').replace(/\s+/g, '');

/**
 * Whether `actual` is what `expected` shows: `…` matches anything, whitespace aside; anchored unless `anywhere`.
 * Each literal part is found at its first place after the one before: linear in the output, where a
 * regular expression with a lazy wildcard per `…` backtracks exponentially on a long output that does
 * not match (a background command's log, checked every 200 ms, blocked the test for good).
 */
export function showsOutput(expected: string, actual: string, anywhere = false): boolean {
  const parts = squeeze(expected).split('…');
  const text = squeeze(actual);
  const first = parts[0]!;
  if (parts.length === 1) return anywhere ? text.includes(first) : text === first;
  const last = parts.at(-1)!;
  let at = anywhere ? text.indexOf(first) : text.startsWith(first) ? 0 : -1;
  if (at === -1) return false;
  at += first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found === -1) return false;
    at = found + part.length;
  }
  return anywhere ? text.indexOf(last, at) !== -1 : text.length - last.length >= at && text.endsWith(last);
}

/**
 * Whether a background command's log shows each line of `expected` on a line of its own, in any order: such
 * a command prints things as they happen (webhook deliveries come in any order). Each log line serves one
 * expected line, so six expected lines need six.
 */
export function logShows(expected: string, log: string): boolean {
  const lines = log.split('\n');
  const used = new Set<number>();
  return expected
    .split('\n')
    .filter((line) => line.trim() !== '')
    .every((want) => {
      const at = lines.findIndex((line, i) => !used.has(i) && showsOutput(want, line, true));
      if (at === -1) return false;
      used.add(at);
      return true;
    });
}

export interface GuideRun {
  /** Every check that failed, with the block's line; empty when the guide works. */
  failures: string[];
  /** The transcript: each block's command and output. */
  transcript: string;
}

const MARK = '__GUIDE_BLOCK_DONE__';

/**
 * Runs one guide file in a fresh bash with `env` (API, TENANT, KEY, PT, …) and checks every output block.
 * `runtimeEnv` is the environment the runtime was started with, for ```bash runtime blocks.
 */
export async function runGuide(
  file: string,
  options: { cwd: string; env: Record<string, string>; runtimeEnv: Record<string, string>; waitMs?: number },
): Promise<GuideRun> {
  const blocks = guideBlocks(readFileSync(file, 'utf8'));
  const failures: string[] = [];
  let transcript = '';
  const shell = spawn('bash', ['--noprofile', '--norc'], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  shell.stdout.on('data', (c: Buffer) => (output += c.toString()));
  shell.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const background = new Map<string, { child: ChildProcess; log: string; offset: number }>();
  const waitMs = options.waitMs ?? 30_000;

  /** Runs one block in the shell and resolves with what it printed. */
  const run = (code: string) =>
    new Promise<string>((resolve, reject) => {
      const from = output.length;
      const timer = setTimeout(
        () => reject(new Error(`timed out after ${waitMs / 1000} s:\n${output.slice(from)}`)),
        waitMs,
      );
      const check = () => {
        const at = output.indexOf(MARK, from);
        if (at < 0) return;
        shell.stdout.off('data', check);
        clearTimeout(timer);
        resolve(output.slice(from, at));
      };
      shell.stdout.on('data', check);
      // A block's own output may lack a final newline; the marker goes on a line of its own.
      shell.stdin.write(`${code}\necho; echo ${MARK}\n`);
    });

  try {
    let last: { kind: 'run'; out: string } | undefined;
    for (const block of blocks) {
      const where = `${file.split('/').slice(-2).join('/')}:${block.line}`;
      if (block.kind === 'run') {
        const out = (await run(block.code)).replace(/\n$/, '');
        transcript += `$ ${block.code}\n${out}\n`;
        last = { kind: 'run', out };
        continue;
      }
      if (block.kind === 'background') {
        const child = spawn('bash', ['--noprofile', '--norc', '-c', block.code], {
          cwd: options.cwd,
          env: { ...process.env, ...options.env },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        const entry = { child, log: '', offset: 0 };
        child.stdout.on('data', (c: Buffer) => (entry.log += c.toString()));
        child.stderr.on('data', (c: Buffer) => (entry.log += c.toString()));
        background.set(block.name ?? `background-${block.line}`, entry);
        transcript += `$ ${block.code} &\n`;
        last = undefined;
        continue;
      }
      if (block.kind === 'runtime') {
        for (const [, name, value] of block.code.matchAll(/\b([A-Z][A-Z0-9_]*)=(\S+)/g)) {
          if (options.runtimeEnv[name!] !== value!.replace(/^'|'$/g, ''))
            failures.push(
              `${where}: the runtime block sets ${name}=${value}, but the test's runtime has ${name}=${options.runtimeEnv[name!] ?? '(unset)'}`,
            );
        }
        last = undefined;
        continue;
      }
      // An output block: of the last run block, or of a background command.
      if (block.name) {
        const entry = background.get(block.name);
        if (!entry) {
          failures.push(`${where}: no background command named ${block.name}`);
          continue;
        }
        const deadline = Date.now() + waitMs;
        while (!logShows(block.code, entry.log.slice(entry.offset)) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 200));
        if (!logShows(block.code, entry.log.slice(entry.offset)))
          failures.push(
            `${where}: ${block.name} did not print\n${block.code}\nIt printed:\n${entry.log.slice(entry.offset)}`,
          );
        else entry.offset = entry.log.length;
        continue;
      }
      if (!last) {
        failures.push(`${where}: an output block with no command before it`);
        continue;
      }
      if (!showsOutput(block.code, last.out))
        failures.push(`${where}: expected\n${block.code}\nbut the commands printed\n${last.out}`);
      last = undefined;
    }
  } catch (error) {
    failures.push(`${file}: ${(error as Error).message}`);
  } finally {
    shell.stdin.end();
    shell.kill('SIGTERM');
    for (const { child } of background.values()) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  return { failures, transcript };
}
