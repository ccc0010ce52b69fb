// The realtime subscription's reconnection schedule, with a scripted WebSocket and the test runner's mock
// clock (the drop-and-resume path against the real runtime is in realtime.test.ts): pauses double from
// about a second per failed attempt and never exceed the maximum, a live connection starts them again, a
// socket that is never greeted is replaced, and reconnectNow() skips the pause.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import {
  REALTIME_RECONNECT_DEFAULTS,
  RealtimeSubscription,
  reconnectDelayMs,
  type RealtimeBackend,
  type RealtimeStatus,
  type WebSocketLike,
} from '../src/index.js';

type Listener = (event: { code?: number; data: unknown }) => void;

/** A socket the test opens, greets, refuses or drops, as a server would. */
class ScriptedSocket implements WebSocketLike {
  static opened: ScriptedSocket[] = [];
  readyState = 0;
  closedWith: number | undefined;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {
    ScriptedSocket.opened.push(this);
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener as Listener]);
  }
  send(): void {}
  close(code?: number): void {
    this.closedWith = code;
    this.emit('close', { code, data: undefined });
  }
  greet(): void {
    this.readyState = 1;
    this.emit('open', { data: undefined });
    this.emit('message', { data: JSON.stringify({ type: 'realtime.ready', connection_id: this.url }) });
  }
  /** The server ends the socket (a refused handshake, an idle timeout, a drop). */
  end(code = 1001): void {
    this.readyState = 3;
    this.emit('close', { code, data: undefined });
  }
  private emit(type: string, event: { code?: number; data: unknown }) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** Lets the subscription's promises (ticket, resume) settle. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

let tickets = 0;
let failResume = false;
const backend: RealtimeBackend = {
  createTicket: () => Promise.resolve({ url: `ws://scripted/${++tickets}` }),
  listEvents: () =>
    failResume
      ? Promise.reject(new Error('the list failed'))
      : Promise.resolve({ data: [], pagination: { has_more: false, next_cursor: null } }),
};

const subscriptions: RealtimeSubscription[] = [];
function subscribe(options: { after?: string; readyTimeoutMs?: number } = {}) {
  const statuses: RealtimeStatus[] = [];
  const subscription = new RealtimeSubscription(backend, {
    ...options,
    onEvent: () => undefined,
    onStatus: (status) => void statuses.push(status),
    WebSocket: ScriptedSocket,
  });
  subscriptions.push(subscription);
  return { subscription, statuses };
}

/** The newest socket, once the subscription has asked for its ticket and opened it. */
async function nextSocket(): Promise<ScriptedSocket> {
  await settle();
  const socket = ScriptedSocket.opened.at(-1);
  assert.ok(socket);
  return socket;
}

/**
 * The pause after a failure is within [ceiling / 2, ceiling]: nothing is opened before half of it, and a
 * socket is opened by its end.
 */
async function expectPause(ceilingMs: number) {
  const before = ScriptedSocket.opened.length;
  mock.timers.tick(ceilingMs / 2 - 1);
  await settle();
  assert.equal(ScriptedSocket.opened.length, before, `nothing opened before ${ceilingMs / 2} ms`);
  mock.timers.tick(ceilingMs / 2 + 1);
  await settle();
  assert.equal(ScriptedSocket.opened.length, before + 1, `a socket opened within ${ceilingMs} ms`);
}

beforeEach(() => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  ScriptedSocket.opened = [];
  failResume = false;
});
afterEach(() => {
  for (const s of subscriptions.splice(0)) s.close();
  mock.timers.reset();
});

describe('realtime reconnection', () => {
  it('reconnectDelayMs: between half and all of the initial delay doubled per earlier pause, never over the maximum', () => {
    const { initialDelayMs, maxDelayMs } = REALTIME_RECONNECT_DEFAULTS;
    assert.deepEqual([initialDelayMs, maxDelayMs], [1_000, 30_000]);
    for (const [retries, ceiling] of [[0, 1_000], [1, 2_000], [2, 4_000], [4, 16_000], [5, 30_000], [40, 30_000]] as const) {
      assert.equal(reconnectDelayMs(retries, {}, 0), ceiling / 2);
      assert.equal(reconnectDelayMs(retries, {}, 1), ceiling);
    }
    assert.equal(reconnectDelayMs(3, { initialDelayMs: 100, maxDelayMs: 500 }, 1), 500);
  });

  it('pauses 1, 2, 4, 8, 16 s, then 30 s at most, one step per failed attempt', async () => {
    subscribe();
    (await nextSocket()).end(1006);
    for (const ceiling of [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]) {
      await expectPause(ceiling);
      (await nextSocket()).end(1006);
    }
  });

  it('a connection that went live starts the pauses again from about a second', async () => {
    const { subscription, statuses } = subscribe({ after: 'evt_01KA0000000000000000000000' });
    for (const ceiling of [1_000, 2_000, 4_000]) {
      (await nextSocket()).end(1006);
      await expectPause(ceiling);
    }
    (await nextSocket()).greet();
    await settle();
    assert.equal(subscription.currentStatus, 'live');
    (await nextSocket()).end(1001);
    assert.equal(statuses.at(-1), 'reconnecting');
    await expectPause(1_000);
  });

  it('a greeted socket whose resume fails is a failed attempt: the pauses keep growing', async () => {
    subscribe({ after: 'evt_01KA0000000000000000000000' });
    failResume = true;
    (await nextSocket()).end(1006);
    await expectPause(1_000);
    const greeted = await nextSocket();
    greeted.greet();
    await settle();
    assert.equal(greeted.closedWith, 4000, 'closed, rather than live with a gap');
    await expectPause(2_000);
  });

  it('a socket never greeted is closed after readyTimeoutMs and replaced', async () => {
    const { subscription } = subscribe({ readyTimeoutMs: 5_000 });
    const silent = await nextSocket();
    mock.timers.tick(4_999);
    await settle();
    assert.equal(silent.closedWith, undefined);
    mock.timers.tick(1);
    await settle();
    assert.equal(silent.closedWith, 4001);
    await expectPause(1_000);
    (await nextSocket()).greet();
    await settle();
    assert.equal(subscription.currentStatus, 'live');
  });

  it('reconnectNow() connects at once during a pause, and does nothing while connected', async () => {
    const { subscription } = subscribe();
    (await nextSocket()).greet();
    await settle();
    subscription.reconnectNow();
    await settle();
    assert.equal(ScriptedSocket.opened.length, 1);
    (await nextSocket()).end(1006);
    subscription.reconnectNow();
    await settle();
    assert.equal(ScriptedSocket.opened.length, 2);
  });
});
