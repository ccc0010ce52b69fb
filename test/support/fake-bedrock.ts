/**
 * A local HTTP/2 server (cleartext, as the SDK's Bedrock Runtime client speaks HTTP/2) with the Converse
 * wire format (POST /model/{modelId}/converse), for the `bedrock` provider's tests: the real SDK client
 * signs and sends to it through an endpoint override. Each test scripts the next answers and reads back what was sent.
 */
import { createServer, type Http2Server, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  /** The assistant's text (the model's JSON, or anything else to test validation). */
  text?: string;
  status?: number;
  delayMs?: number;
}

export interface RecordedCall {
  modelId: string;
  authorization: string | undefined;
  body: {
    system?: { text: string }[];
    messages: { role: string; content: { text: string }[] }[];
    inferenceConfig?: Record<string, unknown>;
  };
}

export interface FakeBedrock {
  url: string;
  calls: RecordedCall[];
  answer(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startFakeBedrock(): Promise<FakeBedrock> {
  const queue: ScriptedAnswer[] = [];
  const calls: RecordedCall[] = [];
  const sessions = new Set<Http2Session>();
  const server: Http2Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/model\/([^/]+)\/converse$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match?.[1]) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'Unknown operation' }));
        return;
      }
      calls.push({
        modelId: decodeURIComponent(match[1]),
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const next = queue.shift() ?? { status: 500 };
      setTimeout(() => {
        if (res.stream.destroyed) return;
        if (next.status && next.status !== 200) {
          res.writeHead(next.status, {
            'content-type': 'application/json',
            'x-amzn-errortype': 'ServiceUnavailableException',
          });
          res.end(JSON.stringify({ message: 'The service is unavailable' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            output: { message: { role: 'assistant', content: [{ text: next.text ?? '' }] } },
            stopReason: 'end_turn',
            usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160 },
            metrics: { latencyMs: next.delayMs ?? 5 },
          }),
        );
      }, next.delayMs ?? 0);
    });
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    answer: (...answers) => queue.push(...answers),
    close: () =>
      new Promise((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
