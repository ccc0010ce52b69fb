import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * What `npm test` needs beyond node_modules, checked before its first step so that a missing tool is
 * named with its install command instead of failing halfway through. The decisions are pure functions
 * of what was found (test/unit/test-prerequisites.test.ts); `probe()` looks at the machine.
 */
export type Prerequisite = 'java' | 'openssl' | 'python' | 'python-build' | 'ruby' | 'chromium';

export interface Found {
  /** `java -version`'s output (it writes to stderr), or undefined when there is no java. */
  javaVersion?: string;
  openssl: boolean;
  /** The Python interpreters tried, in order, and whether each imports httpx and pytest. */
  pythons: { command: string; ok: boolean }[];
  /** Whether some Python 3 has httpx, build and hatchling (the Python SDK's offline wheel build). */
  pythonBuild?: boolean;
  ruby: 'missing' | 'no-minitest' | 'ok';
  /** Chromium's path, when it is there. */
  chromium?: string;
}

export interface Missing {
  prerequisite: Prerequisite;
  /** What is missing, and what it is for. */
  what: string;
  /** Debian's install command (the CI's platform). */
  install: string;
}

export const JAVA_MIN = 17;

/** The major version in `java -version`'s output: `"17.0.9"` → 17, `"1.8.0_381"` → 8, `"21"` → 21. */
export function javaMajor(output: string): number | undefined {
  const quoted = /version "([^"]+)"/.exec(output)?.[1];
  if (!quoted) return undefined;
  const [first, second] = quoted.split(/[.+_-]/).map(Number);
  const major = first === 1 ? second : first;
  return Number.isInteger(major) ? major : undefined;
}

/** The first interpreter that has httpx and pytest (what test:sdk:python runs through $PYTHON). */
export function pythonWithDeps(found: Found): string | undefined {
  return found.pythons.find((p) => p.ok)?.command;
}

/** What is missing among `needed`, in the order of `needed`, each with its install command. */
export function missingPrerequisites(found: Found, needed: readonly Prerequisite[]): Missing[] {
  const missing: Missing[] = [];
  for (const prerequisite of new Set(needed)) {
    switch (prerequisite) {
      case 'java': {
        const major = found.javaVersion === undefined ? undefined : javaMajor(found.javaVersion);
        if (major === undefined || major < JAVA_MIN)
          missing.push({
            prerequisite,
            what: `Java ${JAVA_MIN}+ for DynamoDB Local (${found.javaVersion === undefined ? 'no java on PATH' : `found Java ${major ?? 'of unknown version'}`})`,
            install: 'apt-get install openjdk-17-jre-headless',
          });
        break;
      }
      case 'openssl':
        if (!found.openssl)
          missing.push({
            prerequisite,
            what: 'openssl for the test CA of the HTTPS webhook receivers',
            install: 'apt-get install openssl',
          });
        break;
      case 'python':
        if (!pythonWithDeps(found))
          missing.push({
            prerequisite,
            what: `Python 3 with httpx and pytest for the Python SDK's tests (tried ${found.pythons.map((p) => p.command).join(', ')})`,
            install: 'apt-get install python3 python3-httpx python3-pytest',
          });
        break;
      case 'python-build':
        if (!found.pythonBuild)
          missing.push({
            prerequisite,
            what: "Python 3 with httpx, build and hatchling for the Python SDK's offline wheel build",
            install: 'apt-get install python3-httpx python3-build python3-hatchling',
          });
        break;
      case 'ruby':
        if (found.ruby !== 'ok')
          missing.push({
            prerequisite,
            what: `Ruby with minitest for the Ruby SDK's tests (${found.ruby === 'missing' ? 'no ruby on PATH' : 'minitest cannot be loaded'})`,
            install: 'apt-get install ruby ruby-minitest',
          });
        break;
      case 'chromium':
        if (!found.chromium)
          missing.push({
            prerequisite,
            what: "Chromium for the dashboard's browser tests (or set CHROMIUM_PATH)",
            install: 'apt-get install chromium',
          });
        break;
    }
  }
  return missing;
}

/** One line per missing prerequisite. */
export function describeMissing(missing: readonly Missing[]): string {
  return missing.map((m) => `missing: ${m.what} — install: ${m.install}`).join('\n');
}

const run = (command: string, args: string[]) => spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
const succeeds = (command: string, args: string[]) => {
  const result = run(command, args);
  return !result.error && result.status === 0;
};

/** Looks at this machine for what `needed` names (only that: probing Python or Ruby takes a moment). */
export function probe(needed: readonly Prerequisite[], env: NodeJS.ProcessEnv = process.env): Found {
  const wants = (p: Prerequisite) => needed.includes(p);
  const found: Found = { openssl: false, pythons: [], ruby: 'missing' };
  if (wants('java')) {
    const java = run('java', ['-version']);
    if (!java.error) found.javaVersion = `${java.stderr}${java.stdout}`;
  }
  if (wants('openssl')) found.openssl = succeeds('openssl', ['version']);
  if (wants('python')) {
    // A python3 earlier on PATH (pyenv, say) may lack them while Debian's /usr/bin/python3 has them.
    const candidates = [...new Set([env.PYTHON ?? 'python3', 'python3', '/usr/bin/python3'])];
    for (const command of candidates) {
      const ok = succeeds(command, ['-c', 'import httpx, pytest']);
      found.pythons.push({ command, ok });
      if (ok) break;
    }
  }
  if (wants('python-build'))
    found.pythonBuild = [...new Set([env.PYTHON ?? 'python3', 'python3', '/usr/bin/python3'])].some((command) =>
      succeeds(command, ['-c', 'import httpx, build, hatchling']),
    );
  if (wants('ruby'))
    found.ruby = !succeeds('ruby', ['--version'])
      ? 'missing'
      : succeeds('ruby', ['-e', 'require "minitest"'])
        ? 'ok'
        : 'no-minitest';
  if (wants('chromium')) {
    const path = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
    if (existsSync(path)) found.chromium = path;
  }
  return found;
}
