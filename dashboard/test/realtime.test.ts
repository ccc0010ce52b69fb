/**
 * The inbox kept fresh by realtime events, in Chromium against the local runtime that run.mjs started: at
 * desk and phone sizes a customer's message appears in the open inbox without a reload, and the idle tab
 * asks the API for nothing; a team note shows without the old 15-second poll; a socket the server drops
 * is replaced by a new one that resumes through `GET /events?after=`, and what was sent meanwhile shows
 * exactly once, without a reload; signing out closes the socket at once. Screenshots go to
 * .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { REALTIME_RECONNECT_DEFAULTS } from '../../sdks/typescript/src/index';
import type { Browser, Page, Request } from 'playwright-core';
import { testRuntime } from '../../test/support/runtime';
import {
  conversationCard as card,
  createTestTenant,
  DESK,
  launchChromium,
  newPage,
  PHONE,
  screenshot as shot,
  signIn,
  tenantApi,
  type TestTenant,
} from './setup';

const { realtimeUrl } = testRuntime();
const SIZES = { desk: DESK, phone: PHONE } as const;
/** Longer than two of the inbox's fallback polls (10 s): a polling tab would ask at least twice. */
const IDLE_MS = 25_000;
/**
 * How long a dropped tab may take to open its next socket, by the subscription's documented bounds: no
 * pause exceeds the maximum (30 s), and a socket not greeted is given up after 15 s; plus a margin for a
 * busy machine. (A tab that was live waits about a second.)
 */
const RECONNECT_BOUND_MS = REALTIME_RECONNECT_DEFAULTS.maxDelayMs + REALTIME_RECONNECT_DEFAULTS.readyTimeoutMs + 15_000;

let browser: Browser;
let tenant: TestTenant;
const pageErrors: string[] = [];

const api = (method: string, path: string, body?: unknown) => tenantApi(tenant, method, path, body);

let phone = 4915130000000;
/** A customer's message through the sandbox channel (a new customer unless `from` names one). */
async function inbound(text: string, name: string, from = `+${++phone}`) {
  const res = await api('POST', '/channels/sandbox/inbound', { from, text, name });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...(res.body as { conversation: { id: string }; message: { id: string } }), from };
}

/** A signed-in tab on the inbox, with every API request it makes and its realtime greetings recorded. */
interface Tab {
  page: Page;
  requests: { method: string; path: string; at: number }[];
  /** Connection ids of `realtime.ready`, in order: one per (re)connection. */
  greetings: string[];
  /** When each event or note signal was pushed to the tab. */
  pushes: number[];
  /** The message ids of the events pushed on the tab's sockets. */
  pushedIds: string[];
  /** What each resume through GET /events?after= listed. */
  resumes: Promise<{ id: string; data: { message?: { id: string } } }[]>[];
  socketClosed: () => boolean;
}

async function openInbox(size: { width: number; height: number }): Promise<Tab> {
  const page = await newPage(browser, { viewport: size, errors: pageErrors });
  const tab: Tab = {
    page,
    requests: [],
    greetings: [],
    pushes: [],
    pushedIds: [],
    resumes: [],
    socketClosed: () => false,
  };
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/'))
      tab.requests.push({ method: request.method(), path: url.pathname + url.search, at: Date.now() });
  });
  // What each resume listed: the dashboard's GET /events?after=… (it reads /events for nothing else).
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/v1/events' && url.searchParams.has('after'))
      tab.resumes.push(
        response
          .json()
          .then((body: { data: { id: string; data: { message?: { id: string } } }[] }) => body.data)
          .catch(() => []),
      );
  });
  page.on('websocket', (socket) => {
    let closed = false;
    socket.on('close', () => (closed = true));
    tab.socketClosed = () => closed;
    socket.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload)) as {
        id?: string;
        type?: string;
        connection_id?: string;
        data?: { message?: { id: string } };
      };
      if (message.type === 'realtime.ready' && message.connection_id) tab.greetings.push(message.connection_id);
      if (message.id || message.type === 'realtime.note') tab.pushes.push(Date.now());
      if (message.data?.message?.id) tab.pushedIds.push(message.data.message.id);
    });
  });
  await signIn(page, tenant);
  await page.getByRole('list', { name: 'Conversations' }).waitFor();
  await until(() => tab.greetings.length > 0, 'the tab opened its realtime socket');
  return tab;
}

async function until(done: () => boolean, what: string, ms = 20_000) {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 100)))
    assert.ok(Date.now() - started < ms, `${what} (within ${ms / 1000} s)`);
}

/** The list reads: GET /conversations… and the users the inbox names assignees with. */
const isListRead = (r: { method: string; path: string }) =>
  r.method === 'GET' && /^\/api\/v1\/(conversations|users|customers|bookings)(\?|$)/.test(r.path);

before(async () => {
  tenant = await createTestTenant({ label: 'realtime', name: 'Realtime Salon', adminName: 'Rita Realtime' });
  await inbound('Hello, are you open on Sunday?', 'Olga Open');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], 'uncaught errors in the page');
});

for (const [sizeName, size] of Object.entries(SIZES)) {
  void test(`${sizeName}: an inbound message appears in the open inbox without a reload, and the idle tab polls nothing`, async () => {
    const tab = await openInbox(size);
    const { page, requests } = tab;
    try {
      await card(page, 'Olga Open').waitFor();
      // A marker a reload would lose.
      await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
      const name = `Pia Push ${sizeName}`;
      await inbound(`A table for two tonight? (${sizeName})`, name);
      await card(page, name).getByText(`A table for two tonight? (${sizeName})`).waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce), true);
      await shot(page, `realtime-inbox-${sizeName}`);

      // Idle: nothing is asked of the API on a timer, not even the list (a polling tab re-reads it every
      // 10 s). The message's analysis may still push a conversation.updated, whose refresh follows it.
      const idleFrom = requests.length;
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const unprompted = requests
        .slice(idleFrom)
        .filter((r) => !tab.pushes.some((pushed) => pushed <= r.at && r.at - pushed < 2_000));
      assert.deepEqual(unprompted.filter(isListRead), [], 'no list re-read on a timer while idle');
      assert.deepEqual(unprompted, [], `no API request but those a pushed event prompted in ${IDLE_MS / 1000} s idle`);
    } finally {
      await page.context().close();
    }
  });
}

void test('a team note written elsewhere shows in the open conversation without its old 15-second poll', async () => {
  const { page } = await openInbox(SIZES.desk);
  try {
    const { conversation } = await inbound('Can you note my allergy?', 'Nina Note');
    await card(page, 'Nina Note').click();
    const notes = page.getByRole('list', { name: 'Team notes' });
    await page.getByRole('heading', { name: 'Nina Note', level: 2 }).waitFor();
    const written = await api('POST', `/conversations/${conversation.id}/notes`, { text: 'Allergic to latex' });
    assert.equal(written.status, 201);
    // Pushed: well before a 15-second poll would have found it.
    await notes.getByText('Allergic to latex').waitFor({ timeout: 10_000 });
    await shot(page, 'realtime-note-desk');
  } finally {
    await page.context().close();
  }
});

for (const [sizeName, size] of Object.entries(SIZES)) {
  void test(`${sizeName}: a socket the server drops is replaced and resumed through GET /events, showing what was sent meanwhile exactly once`, async () => {
    const tab = await openInbox(size);
    const { page } = tab;
    try {
      // A marker a reload would lose.
      await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
      // The tab has an event pushed to it: the point its resume starts from.
      const regular = `Rolf Regular ${sizeName}`;
      const first = await inbound(`Before the drop (${sizeName})`, regular);
      await until(() => tab.pushedIds.includes(first.message.id), 'the message is pushed to the tab');
      await card(page, regular).getByText(`Before the drop (${sizeName})`).waitFor();

      // The tab's next ticket is held until what follows is committed, so it happens while there is no socket.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let ticketsAsked = 0;
      await page.route('**/api/v1/realtime/tickets', async (route) => {
        ticketsAsked++;
        await held;
        // The tab may have given the request up meanwhile (and asks again).
        await route.continue().catch(() => undefined);
      });
      // The server drops the socket, as API Gateway does after two hours. Connection ids are base64 (they
      // may hold a `/`): the management API takes them URL-encoded.
      const management = realtimeUrl.replace(/^ws/, 'http');
      const dropped = await fetch(`${management}/@connections/${encodeURIComponent(tab.greetings[0] ?? '')}`, {
        method: 'DELETE',
      });
      assert.equal(dropped.status, 204, 'the tab’s socket was open');
      await until(() => tab.socketClosed(), 'the dropped socket is closed');
      await until(() => ticketsAsked > 0, 'the tab asks for a new ticket', RECONNECT_BOUND_MS);

      // Meanwhile a new customer writes, and the first one writes again.
      const missedText = `Sent while you were away (${sizeName})`;
      const missed = await inbound(missedText, `Mia Missed ${sizeName}`);
      const againText = `And once more (${sizeName})`;
      const again = await inbound(againText, regular, first.from);
      release();
      // (A greeting may come twice on one socket: the ids are counted.)
      await until(() => new Set(tab.greetings).size === 2, 'the tab opens a new socket', RECONNECT_BOUND_MS);
      await card(page, `Mia Missed ${sizeName}`).getByText(missedText).waitFor({ timeout: 30_000 });
      await card(page, regular).getByText(againText).waitFor({ timeout: 30_000 });

      // The new socket resumed from the last event seen: GET /events?after=… listed both messages.
      await until(() => tab.resumes.length > 0, 'the tab resumes through GET /events?after=', 30_000);
      const resumed = (await Promise.all(tab.resumes)).flat().map((event) => event.data.message?.id);
      assert.ok(resumed.includes(missed.message.id), 'the new customer’s message is in the resume');
      assert.ok(resumed.includes(again.message.id), 'the second message is in the resume');
      assert.equal(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce), true);

      // Exactly once: one card each, and one bubble in each thread.
      assert.equal(await card(page, `Mia Missed ${sizeName}`).count(), 1);
      assert.equal(await card(page, regular).count(), 1);
      await shot(page, `realtime-resumed-${sizeName}`);
      for (const [name, text] of [
        [`Mia Missed ${sizeName}`, missedText],
        [regular, againText],
      ] as const) {
        await card(page, name).click();
        const bubbles = page.getByTestId('message').filter({ hasText: text });
        await bubbles.first().waitFor();
        assert.equal(await bubbles.count(), 1, `${text}: one bubble`);
        if (text === missedText) await shot(page, `realtime-resumed-thread-${sizeName}`);
        if (sizeName === 'phone') await page.getByRole('button', { name: 'Back to conversations' }).click();
      }
    } finally {
      await page.context().close();
    }
  });
}

void test('signing out closes the tab’s socket at once', async () => {
  const tab = await openInbox(SIZES.desk);
  const { page } = tab;
  try {
    assert.equal(tab.socketClosed(), false);
    await page.getByRole('button', { name: /Rita Realtime/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    // At once: not after the pages' 30-second linger.
    await until(() => tab.socketClosed(), 'the socket is closed', 5_000);
  } finally {
    await page.context().close();
  }
});
