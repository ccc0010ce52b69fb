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
  const graph = globalThis.__FAKE_GRAPH__;
  if (graph) {
    const closed = new Promise((resolve) => graph.close(resolve));
    graph.closeAllConnections();
    await closed;
  }
  if (process.env.TEST_RUNTIME_FILE) rmSync(process.env.TEST_RUNTIME_FILE, { force: true });
}
