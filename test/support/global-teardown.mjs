import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const child = globalThis.__LOCAL_RUNTIME__;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  globalThis.__FAKE_GRAPH__?.close();
  if (process.env.TEST_RUNTIME_FILE) rmSync(process.env.TEST_RUNTIME_FILE, { force: true });
}
