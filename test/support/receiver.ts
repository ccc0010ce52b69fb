import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { recordWebhook } from './contract';
import { testRuntime } from './runtime';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (req: Received) => {
  status: number;
  delayMs?: number;
  body?: string;
  headers?: Record<string, string>;
};

/**
 * A real HTTPS webhook receiver on 127.0.0.1, with the test CA's certificate. Its behaviour can change.
 * Each delivery is checked against openapi.json's webhooks section, unless `contract: false` (tests that
 * queue hand-made events).
 */
export async function startReceiver(
  behaviour: Behaviour = () => ({ status: 200, body: 'ok' }),
  options: { contract?: boolean } = {},
) {
  const { key, cert } = testRuntime().tls;
  const received: Received[] = [];
  let current = behaviour;
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      if (options.contract !== false) recordWebhook(req.headers, r.body);
      const answer = current(r);
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path = '/hook') => `https://localhost:${port}${path}`,
    received,
    setBehaviour: (b: Behaviour) => void (current = b),
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
