/**
 * Realtime events over WebSockets (docs/realtime.md): a ticket from `POST /realtime/tickets` opens a
 * socket that receives each committed event as the same envelope as webhooks and `GET /events`. The
 * subscription reconnects by itself with a growing pause, and after each (re)connection fetches what it
 * missed from `GET /events?after=…`, so the callback sees every event once, in id order per batch.
 * Works in browsers and in Node (the global WebSocket of Node 22+, or the `ws` package).
 */
import type { CreateWebhookParams, Event } from './types.js';

/** An event type or a pattern (`conversation.*`), as subscriptions take them. */
export type EventFilter = CreateWebhookParams['events'][number];

/** The WHATWG WebSocket interface, as browsers, Node 22+ and the `ws` package offer it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: (event: { code?: number }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type RealtimeStatus = 'connecting' | 'resuming' | 'live' | 'reconnecting' | 'closed';

/** A control message of the socket: no `id`, a type that starts with `realtime.`. */
export interface RealtimeControl {
  type: `realtime.${string}`;
  [field: string]: unknown;
}

export interface RealtimeSubscribeOptions {
  /** Event types and patterns (`conversation.*`); every type the caller may see when omitted. */
  types?: EventFilter[];
  /** Only the events of this conversation. */
  conversationId?: string;
  /** Called once per event, in id order within each resume and as pushed live. */
  onEvent: (event: Event) => void | Promise<void>;
  /** The last event id this caller had seen before: the first connection resumes after it. */
  after?: string;
  onStatus?: (status: RealtimeStatus) => void;
  /**
   * Control messages other than `realtime.ready`: `realtime.note` (a conversation's team notes changed;
   * not an event, so not resumed: read the notes again when live again), `realtime.pong`, …
   */
  onControl?: (message: RealtimeControl) => void;
  /**
   * More was missed than `maxResumeEvents` (a long time offline): the events since are not replayed;
   * reload whatever state you keep (the subscription goes on live).
   */
  onResync?: () => void;
  /** Another WebSocket implementation (for example `ws`'s, on Node 20). */
  WebSocket?: WebSocketConstructor;
  /** How often the socket is pinged to stay open (API Gateway closes sockets idle for 10 minutes). Default 5 minutes. */
  pingIntervalMs?: number;
  /**
   * Pauses before reconnecting: after a connection that was live, between half and all of `initialDelayMs`
   * (default 1 s); each failed attempt since doubles it, up to `maxDelayMs` (default 30 s), which no pause
   * exceeds. A connection that goes live starts the count again.
   */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * A socket not greeted with `realtime.ready` within this is closed and replaced, so a lost greeting (or a
   * handshake that never completes) cannot leave the subscription waiting for good. Default 15 s.
   */
  readyTimeoutMs?: number;
  /** The most events one resume replays (default 1,000); beyond it `onResync` is called instead. */
  maxResumeEvents?: number;
}

/** What the subscription needs of a client: tickets and the event list. */
export interface RealtimeBackend {
  createTicket(body: { types?: EventFilter[]; conversation_id?: string }): Promise<{ url: string }>;
  listEvents(query: { after: string; limit: number; cursor?: string }): Promise<{
    data: Event[];
    pagination: { has_more: boolean; next_cursor: string | null };
  }>;
}

/**
 * Resumes look back this far before the last event seen: events are pushed at least once and not always
 * in id order, so one committed just before the last seen may still have been on its way. Ids already
 * delivered are dropped.
 */
const RESUME_OVERLAP_MS = 30_000;
const ULID_DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** How many delivered ids are remembered to drop duplicates. */
const SEEN_IDS = 5_000;

/** The smallest event id of the time `ms` (ULIDs start with their millisecond). */
function idAt(ms: number): string {
  let time = '';
  for (let t = Math.max(0, Math.floor(ms)), i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ULID_DIGITS[t % 32] + time;
  return `evt_${time}${'0'.repeat(16)}`;
}
function timeOf(id: string): number {
  let ms = 0;
  for (const c of id.slice(4, 14)) ms = ms * 32 + ULID_DIGITS.indexOf(c);
  return ms;
}
/** The default pauses between reconnections, and how long a new socket may wait for its greeting. */
export const REALTIME_RECONNECT_DEFAULTS = { initialDelayMs: 1_000, maxDelayMs: 30_000, readyTimeoutMs: 15_000 } as const;

/**
 * The pause before a reconnection when `retries` pauses were already waited since the subscription was
 * last live: the initial delay doubled per earlier pause, capped at the maximum, then `random` (0 to 1)
 * picks between half and all of it, so clients dropped together do not all come back at once.
 */
export function reconnectDelayMs(
  retries: number,
  options: { initialDelayMs?: number; maxDelayMs?: number } = {},
  random: number = Math.random(),
): number {
  const initial = options.initialDelayMs ?? REALTIME_RECONNECT_DEFAULTS.initialDelayMs;
  const max = options.maxDelayMs ?? REALTIME_RECONNECT_DEFAULTS.maxDelayMs;
  const ceiling = Math.min(max, initial * 2 ** Math.min(retries, 30));
  return ceiling * (0.5 + Math.min(Math.max(random, 0), 1) / 2);
}

const isEventId = (id: unknown): id is string => typeof id === 'string' && /^evt_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);

function matches(event: Event, types: EventFilter[] | undefined, conversationId: string | undefined): boolean {
  const typeOk =
    !types?.length ||
    types.some((p) => p === '*' || (p.endsWith('.*') ? event.type.startsWith(p.slice(0, -1)) : event.type === p));
  if (!typeOk) return false;
  if (!conversationId) return true;
  const data = event.data as { conversation_id?: string; conversation?: { id?: string } };
  return (data.conversation_id ?? data.conversation?.id) === conversationId;
}

async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global) return global;
  // Node 20 has no global WebSocket: the `ws` package (an optional peer dependency) has the same interface.
  const name = 'ws';
  const mod = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as { WebSocket: WebSocketConstructor };
  return mod.WebSocket;
}

/**
 * One realtime subscription: connects at once, reconnects until `close()`. `lastEventId` is the newest
 * event delivered (keep it to resume a later subscription with `after`).
 */
export class RealtimeSubscription {
  lastEventId: string | undefined;
  private status: RealtimeStatus = 'connecting';
  private socket: WebSocketLike | undefined;
  private closed = false;
  /** Pauses waited since the subscription was last live: the next one is twice as long (up to the maximum). */
  private retries = 0;
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readyTimer: ReturnType<typeof setTimeout> | undefined;
  private types: EventFilter[] | undefined;
  private conversationId: string | undefined;
  /** Delivery is serial: live events wait while a resume runs, then are delivered after it. */
  private delivering: Promise<void> = Promise.resolve();
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly backend: RealtimeBackend,
    private readonly options: RealtimeSubscribeOptions,
  ) {
    this.types = options.types;
    this.conversationId = options.conversationId;
    this.lastEventId = options.after;
    void this.connect();
  }

  /** Resolves when the subscription is live (connected and caught up); at once if it already is. */
  ready(): Promise<void> {
    if (this.status === 'live') return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  get currentStatus(): RealtimeStatus {
    return this.status;
  }

  /** Changes the filter on the open socket (and for every reconnection). */
  subscribe(filter: { types?: EventFilter[]; conversationId?: string }): void {
    this.types = filter.types;
    this.conversationId = filter.conversationId;
    this.send({ action: 'subscribe', types: filter.types ?? [], ...(filter.conversationId ? { conversation_id: filter.conversationId } : {}) });
  }

  /**
   * Connects at once if the subscription is waiting to reconnect (the network is back, the tab is shown
   * again), instead of at the end of its pause; does nothing while it is connected or connecting.
   */
  reconnectNow(): void {
    if (this.closed || !this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    void this.connect();
  }

  /** Stops for good: closes the socket and cancels any reconnection. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.readyTimer);
    clearInterval(this.pingTimer);
    this.socket?.close(1000, 'Closed by the client');
    this.setStatus('closed');
  }

  private setStatus(status: RealtimeStatus) {
    if (this.status === status) return;
    this.status = status;
    if (status === 'live') for (const wake of this.readyWaiters.splice(0)) wake();
    this.options.onStatus?.(status);
  }

  private send(message: object) {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    this.setStatus(this.status === 'connecting' ? 'connecting' : 'reconnecting');
    let socket: WebSocketLike;
    try {
      const WebSocketImpl = this.options.WebSocket ?? (await defaultWebSocket());
      const ticket = await this.backend.createTicket({
        ...(this.types?.length ? { types: this.types } : {}),
        ...(this.conversationId ? { conversation_id: this.conversationId } : {}),
      });
      if (this.closed) return;
      socket = new WebSocketImpl(ticket.url);
    } catch {
      return this.retryLater();
    }
    this.socket = socket;
    // Where this connection resumes: fixed now, before anything pushed on it moves lastEventId.
    const resumeFrom = this.lastEventId;
    let greeted = false;
    clearTimeout(this.readyTimer);
    this.readyTimer = setTimeout(() => {
      if (!greeted && this.socket === socket) socket.close(4001, 'No greeting');
    }, this.options.readyTimeoutMs ?? REALTIME_RECONNECT_DEFAULTS.readyTimeoutMs);
    socket.addEventListener('message', (message) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(typeof message.data === 'string' ? message.data : String(message.data));
      } catch {
        return;
      }
      const body = parsed as { id?: unknown; type?: unknown };
      if (body.type === 'realtime.ready') {
        // A greeting sent twice (a retried push) resumes once.
        if (greeted) return;
        greeted = true;
        clearTimeout(this.readyTimer);
        this.startPing();
        this.enqueue(() => this.resume(socket, resumeFrom));
        return;
      }
      if (isEventId(body.id)) this.enqueue(() => this.deliver([parsed as Event]));
      else if (typeof body.type === 'string' && body.type.startsWith('realtime.'))
        this.options.onControl?.(parsed as RealtimeControl);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      clearTimeout(this.readyTimer);
      clearInterval(this.pingTimer);
      this.retryLater();
    });
    socket.addEventListener('error', () => undefined);
  }

  private enqueue(work: () => Promise<void>) {
    this.delivering = this.delivering.then(work).catch(() => undefined);
  }

  private startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ action: 'ping' }), this.options.pingIntervalMs ?? 300_000);
  }

  /**
   * Waits before the next connection: about `initialDelayMs` after a live connection dropped (or the first
   * one failed), twice as long after each further failure, never over `maxDelayMs`.
   */
  private retryLater() {
    if (this.closed || this.retryTimer) return;
    this.setStatus('reconnecting');
    const delay = reconnectDelayMs(this.retries++, this.options.reconnect);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
  }

  /**
   * After `realtime.ready`: what was committed since the last event seen, then live, unless the socket
   * closed meanwhile or the list failed (then the socket is closed: the next one resumes instead, and the
   * pauses keep growing until one goes live).
   */
  private async resume(socket: WebSocketLike, from: string | undefined): Promise<void> {
    if (this.socket !== socket) return;
    if (from) {
      this.setStatus('resuming');
      const max = this.options.maxResumeEvents ?? 1_000;
      const missed: Event[] = [];
      let cursor: string | undefined;
      let tooMany = false;
      try {
        const after = idAt(timeOf(from) - RESUME_OVERLAP_MS);
        do {
          const page = await this.backend.listEvents({ after, limit: 100, ...(cursor ? { cursor } : {}) });
          missed.push(...page.data);
          cursor = page.pagination.has_more ? (page.pagination.next_cursor ?? undefined) : undefined;
          if (missed.length > max) tooMany = true;
        } while (cursor && !tooMany);
      } catch {
        // The list failed: drop this socket and try again, rather than go live with a gap.
        socket.close(4000, 'Resume failed');
        return;
      }
      if (tooMany) this.options.onResync?.();
      else await this.deliver(missed.sort((a, b) => (a.id < b.id ? -1 : 1)));
    }
    if (this.socket !== socket || this.closed) return;
    this.retries = 0;
    this.setStatus('live');
  }

  private async deliver(events: Event[]) {
    for (const event of events) {
      if (this.seen.has(event.id) || !matches(event, this.types, this.conversationId)) continue;
      this.seen.add(event.id);
      this.seenOrder.push(event.id);
      if (this.seenOrder.length > SEEN_IDS) this.seen.delete(this.seenOrder.shift() ?? '');
      if (!this.lastEventId || event.id > this.lastEventId) this.lastEventId = event.id;
      try {
        await this.options.onEvent(event);
      } catch {
        // A failing callback must not stop the stream.
      }
    }
  }
}
