/**
 * A closed-loop HTTP load generator for the bench, run in a process of its own so that it does not share
 * an event loop with the server it measures: `connections` keep-alive connections, each sending its next
 * request when the previous answer arrived, for `durationMs`. Prints one JSON line: requests per second,
 * latency percentiles in milliseconds, and the count of answers that were not 2xx.
 *
 *   tsx bench/load.ts '{"url":"http://…","headers":{…},"connections":10,"durationMs":3000}'
 */
import { Agent, request } from 'node:http';
import { percentile } from './ratios';

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
  connections: number;
  durationMs: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const url = new URL(spec.url);
  const latencies: number[] = [];
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = request(url, { method: spec.method ?? 'GET', agent, headers: spec.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if ((res.statusCode ?? 0) >= 300) errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(spec.body);
    });
  const started = performance.now();
  const until = started + spec.durationMs;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    errors,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
  console.log(JSON.stringify(await runLoad(spec)));
}
