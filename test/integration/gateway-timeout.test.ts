import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A handler that overruns its timeout gets 504 from the local gateway, as from API Gateway, while other
 * requests are served; one stuck in a synchronous loop, which nothing in the process can interrupt, is
 * reported and then ends the runtime (its child processes first) instead of freezing it for ever.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 1000;
/** Generous bounds: the guard acts after about one and two timeouts. */
const PROMPT_MS = 15_000;

interface Gateway {
  process: ChildProcess;
  base: string;
  childPid: number;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startGateway(): Promise<Gateway> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/overrun-gateway.ts'], {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const [port, childPid] = await new Promise<[string, string]>((resolve, reject) => {
    proc.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening (\d+) child (\d+)/.exec(output);
      if (found) resolve([found[1]!, found[2]!]);
    });
    proc.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    void exited.then((how) => reject(new Error(`the gateway exited (${how}): ${output}`)));
  });
  return {
    process: proc,
    base: `http://127.0.0.1:${port}/api/v1/openapi.json`,
    childPid: Number(childPid),
    output: () => output,
    exited,
  };
}

/** Whether a process runs (a zombie, ended but not yet reaped by whoever inherited it, does not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway();
}, 60_000);
afterAll(() => {
  gateway?.process.kill('SIGKILL');
  if (gateway && alive(gateway.childPid)) process.kill(gateway.childPid, 'SIGKILL');
});

const get = (mode: string) => fetch(`${gateway.base}?mode=${mode}`, { signal: AbortSignal.timeout(PROMPT_MS) });

describe('a handler that overruns its timeout', () => {
  it('answers 504 problem+json for a handler that never settles, and serves others meanwhile', async () => {
    const hung = get('hang');
    expect((await get('ok')).status).toBe(200);
    const res = await hung;
    expect([res.status, res.headers.get('content-type')]).toEqual([504, 'application/problem+json']);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 504, code: 'gateway_timeout', title: 'Gateway Timeout' });
    expect(body.request_id).toEqual(res.headers.get('x-request-id'));
    expect((await get('ok')).status).toBe(200);
  });

  it('reports a handler stuck in a synchronous loop, then ends the runtime and its child processes', async () => {
    expect(alive(gateway.childPid)).toBe(true);
    // The connection closes when the runtime ends: no answer that never comes.
    await expect(get('spin')).rejects.toThrow(/fetch failed/);
    expect(await gateway.exited).toBe('SIGKILL');
    expect(gateway.output()).toMatch(/the event loop has been blocked for \d+ ms.*requests in flight: openapi req=/);
    expect(gateway.output()).toMatch(/ending the runtime/);
    expect(alive(gateway.childPid)).toBe(false);
  }, 60_000);
});
