import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const child = globalThis.__LOCAL_RUNTIME__;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // The fallback timer is cleared: a pending one would keep Jest alive after the run.
    let timer;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
  }
  for (const server of [globalThis.__FAKE_GRAPH__, globalThis.__FAKE_STRIPE__]) {
    if (!server) continue;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
  }
  if (process.env.TEST_RUNTIME_FILE) rmSync(process.env.TEST_RUNTIME_FILE, { force: true });
  if (globalThis.__TEST_TLS_DIR__) rmSync(globalThis.__TEST_TLS_DIR__, { recursive: true, force: true });
}
