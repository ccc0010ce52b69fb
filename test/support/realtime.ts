import { WebSocket } from 'ws';

/** A realtime socket under test: every message it received, in order, and a way to wait for one. */
export interface TestSocket {
  socket: WebSocket;
  messages: any[];
  /** The first message (already received or still to come) that `match` accepts. */
  next(match: (message: any) => boolean, ms?: number): Promise<any>;
  send(message: unknown): void;
  /** Resolves when the socket is closed, with its close code. */
  closed: Promise<number>;
  close(): Promise<number>;
}

/** Opens a socket and waits for the server's `realtime.ready`. */
export async function openSocket(url: string): Promise<TestSocket> {
  const socket = new WebSocket(url);
  const messages: any[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
  });
  const next = (match: (message: any) => boolean, ms = 15_000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (found === undefined) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message within ${ms} ms; got ${JSON.stringify(messages)}`));
      }, ms);
      if (!check()) waiters.add(check);
    });
  const opened: TestSocket = {
    socket,
    messages,
    next,
    send: (message) => socket.send(JSON.stringify(message)),
    closed,
    close: () => {
      socket.close();
      return closed;
    },
  };
  await next((m) => m.type === 'realtime.ready');
  return opened;
}

/** The HTTP status a refused handshake got (and its problem body). */
export function refusal(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    socket.once('error', () => undefined);
  });
}

/**
 * Waits `ms` and returns the events (not control messages) received so far, each once: pushes are at least
 * once (a redelivered stream batch pushes again), and clients dedupe on the id.
 */
export async function eventsWithin(s: TestSocket, ms: number): Promise<any[]> {
  await new Promise((r) => setTimeout(r, ms));
  const events = s.messages.filter((m) => typeof m.id === 'string');
  return events.filter((e, i) => events.findIndex((other) => other.id === e.id) === i);
}
