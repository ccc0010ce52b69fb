/**
 * `listen`: the tenant's events forwarded to a local URL, signed as webhook deliveries are, so a webhook
 * handler can be built on a laptop against the local runtime or a deployed API with no public URL and no
 * endpoint to register.
 *
 * Events come from the realtime API (a ticket from `POST /realtime/tickets`, then a WebSocket that pushes
 * the same envelopes as `GET /events`), resuming from `GET /events` after every (re)connection. A
 * deployment without the realtime route (404) is followed through `GET /events` alone. Every event is
 * forwarded once (deduplicated on its id), oldest first, re-signed (Standard Webhooks) with a secret of
 * the listener's own.
 */
import { NotFoundError } from './core/errors.js';
import type { MessagingClient } from './client.js';
import { signWebhook } from './webhooks.js';
import type { WebhookEvent } from './types.js';

export interface ListenOptions {
  /** The local URL each event is POSTed to, e.g. `http://localhost:4000/hook`. */
  forwardTo: string;
  /** Event types or patterns (`booking.*`, `*`); default every event. */
  events?: readonly string[];
  /** The `whsec_…` secret deliveries are signed with; default `listenSecret(apiKey)`. */
  secret: string;
  /** How often `GET /events` is read when there is no realtime API, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** One line per forwarded event (default: console.log). */
  log?: (line: string) => void;
  /** Stops listening. */
  signal?: AbortSignal;
}

export interface ListenReady {
  /** `realtime` (WebSocket) or `events` (following `GET /events`). */
  source: 'realtime' | 'events';
}

interface RealtimeTicket {
  ticket: string;
  url: string;
  expires_at?: string;
}

/** How far back each `GET /events` read reaches past the newest event seen: events are listed a moment late. */
const OVERLAP_MS = 10_000;
const SEEN_LIMIT = 5_000;
const FORWARD_TIMEOUT_MS = 10_000;

/**
 * A stable secret for an API key: the same key gives the same `whsec_` secret on every run, so a local
 * handler keeps its configuration across restarts; it reveals nothing about the key (an HMAC of it).
 */
export async function listenSecret(apiKey: string): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', new TextEncoder().encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, new TextEncoder().encode('messaging-platform listen v1')));
  return `whsec_${btoa(String.fromCharCode(...mac))}`;
}

/** Whether an event type is one of the patterns (exact types, `*`, `prefix.*`). */
export function matchesEventPatterns(type: string, patterns: readonly string[] | undefined): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}

/**
 * Forwards events until `signal` aborts. Resolves `ready` once it follows the tenant's events (events
 * committed after that are forwarded), and `done` when it stops.
 */
export function listen(client: MessagingClient, options: ListenOptions): { ready: Promise<ListenReady>; done: Promise<void> } {
  const log = options.log ?? ((line: string) => console.log(line));
  const seen = new Set<string>();
  const startedAt = Date.now();
  let newest = startedAt;
  let first = true;
  let markReady: (value: ListenReady) => void = () => undefined;
  const ready = new Promise<ListenReady>((resolve) => (markReady = resolve));
  let chain = Promise.resolve();

  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
  };

  /** Queues an event for forwarding, in arrival order, once. */
  const accept = (event: WebhookEvent) => {
    if (!event?.id || seen.has(event.id)) return;
    remember(event.id);
    newest = Math.max(newest, Date.parse(event.created_at) || 0);
    if (!matchesEventPatterns(event.type, options.events)) return;
    chain = chain.then(() => forward(event, options, log));
  };

  /** Reads the events since the newest seen (with an overlap), oldest first. */
  const resume = async () => {
    const since = new Date(Math.min(newest, Date.now()) - OVERLAP_MS).toISOString();
    const type = options.events?.length === 1 ? options.events[0] : undefined;
    const found: WebhookEvent[] = [];
    for await (const event of client.events.list({ since, limit: 100, ...(type ? { type } : {}) } as never)) found.push(event as WebhookEvent);
    found.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
    for (const event of found) {
      // On the first read, what was committed before the listener started is history, not news.
      if (first && Date.parse(event.created_at) < startedAt) remember(event.id);
      else accept(event);
    }
    first = false;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  const done = (async () => {
    while (!options.signal?.aborted) {
      let ticket: RealtimeTicket | undefined;
      try {
        ticket = await client.request<RealtimeTicket>('POST', '/realtime/tickets', { body: {} });
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      const WebSocketCtor = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
      if (!ticket || !WebSocketCtor) {
        await resume();
        markReady({ source: 'events' });
        while (!options.signal?.aborted) {
          await sleep(options.pollIntervalMs ?? 1000);
          if (!options.signal?.aborted) await resume().catch((error: unknown) => log(`events: ${String(error)}`));
        }
        break;
      }
      await followRealtime(WebSocketCtor, ticket, accept, resume, () => markReady({ source: 'realtime' }), options.signal);
      if (!options.signal?.aborted) await sleep(1000); // reconnect with a new ticket
    }
    await chain;
  })();
  return { ready, done };
}

/** One WebSocket connection: resumes from GET /events once open, then takes pushed envelopes until it closes. */
function followRealtime(
  WebSocketCtor: typeof WebSocket,
  ticket: RealtimeTicket,
  accept: (event: WebhookEvent) => void,
  resume: () => Promise<void>,
  opened: () => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const url = /[?&]ticket=/.test(ticket.url) ? ticket.url : `${ticket.url}${ticket.url.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket.ticket)}`;
  return new Promise<void>((resolve) => {
    const socket = new WebSocketCtor(url);
    const close = () => socket.close();
    signal?.addEventListener('abort', close, { once: true });
    socket.addEventListener('open', () => {
      // Whatever happened while disconnected comes from the list; pushes that overlap it are deduplicated.
      void resume().then(opened, () => opened());
    });
    socket.addEventListener('message', (message: MessageEvent) => {
      let event: WebhookEvent | undefined;
      try {
        event = JSON.parse(String(message.data)) as WebhookEvent;
      } catch {
        return;
      }
      // Control messages (`realtime.*`) say how the connection stands; they are not events.
      if (typeof event?.type === 'string' && !event.type.startsWith('realtime.')) accept(event);
    });
    const finish = () => {
      signal?.removeEventListener('abort', close);
      resolve();
    };
    socket.addEventListener('close', finish);
    socket.addEventListener('error', () => socket.close());
  });
}

/** POSTs one event to the local URL, signed, and prints it with the answer in one line. */
async function forward(event: WebhookEvent, options: ListenOptions, log: (line: string) => void): Promise<void> {
  const body = JSON.stringify(event);
  const headers = await signWebhook(body, options.secret, { id: event.id });
  const started = Date.now();
  let outcome: string;
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': headers['webhook-signature'], ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    outcome = `${response.status} ${response.statusText}`.trim();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    outcome = `failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
  }
  log(`${event.created_at}  ${event.type}  ${event.id}  -> POST ${options.forwardTo} ${outcome} (${Date.now() - started} ms)`);
}
