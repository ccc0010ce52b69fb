/**
 * The inbox kept fresh by realtime events, in Chromium against the local runtime that run.mjs started: at
 * desk and phone sizes a customer's message appears in the open inbox without a reload, and the idle tab
 * asks the API for nothing; a team note shows without the old 15-second poll; signing out closes the
 * socket at once. (Resuming after a drop through `GET /events?after=` is tested against the runtime in
 * test/e2e/realtime.test.ts and in the SDK suites.) Screenshots go to .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { testRuntime } from '../../test/support/runtime';

const SHOTS = fileURLToPath(new URL('../../.scratch/dashboard-screenshots/', import.meta.url));
const { url: BASE, platformToken } = testRuntime();
const API = `${BASE}/api/v1`;
const PASSWORD = 'a long realtime test passphrase';
const run = Date.now().toString(36);
const ADMIN = `realtime-${run}@dashboard.example`;
const SIZES = { desk: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;
/** Longer than two of the inbox's fallback polls (10 s): a polling tab would ask at least twice. */
const IDLE_MS = 25_000;

let browser: Browser;
let tenant: { id: string; apiKey: string };
const pageErrors: string[] = [];

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tenant.apiKey}`, 'X-Tenant-ID': tenant.id },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let phone = 4915130000000;
async function inbound(text: string, name: string) {
  const res = await api('POST', '/channels/sandbox/inbound', { from: `+${++phone}`, text, name });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { conversation: { id: string }; message: { id: string } };
}

/** A signed-in tab on the inbox, with every API request it makes and its realtime greetings recorded. */
interface Tab {
  page: Page;
  requests: { method: string; path: string; at: number }[];
  /** Connection ids of `realtime.ready`, in order: one per (re)connection. */
  greetings: string[];
  /** When each event or note signal was pushed to the tab. */
  pushes: number[];
  socketClosed: () => boolean;
}

async function openInbox(size: { width: number; height: number }): Promise<Tab> {
  const context = await browser.newContext({ viewport: size, locale: 'en-GB', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const tab: Tab = { page, requests: [], greetings: [], pushes: [], socketClosed: () => false };
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/'))
      tab.requests.push({ method: request.method(), path: url.pathname + url.search, at: Date.now() });
  });
  page.on('websocket', (socket) => {
    let closed = false;
    socket.on('close', () => (closed = true));
    tab.socketClosed = () => closed;
    socket.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { id?: string; type?: string; connection_id?: string };
      if (message.type === 'realtime.ready' && message.connection_id) tab.greetings.push(message.connection_id);
      if (message.id || message.type === 'realtime.note') tab.pushes.push(Date.now());
    });
  });
  await page.goto(`${BASE}/sign-in`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Inbox/, level: 1 }).waitFor();
  await page.getByRole('list', { name: 'Conversations' }).waitFor();
  await until(() => tab.greetings.length === 1, 'the tab opened its realtime socket');
  return tab;
}

async function until(done: () => boolean, what: string, ms = 20_000) {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 100)))
    assert.ok(Date.now() - started < ms, `${what} (within ${ms / 1000} s)`);
}

const card = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name}`) });
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
/** The list reads: GET /conversations… and the users the inbox names assignees with. */
const isListRead = (r: { method: string; path: string }) =>
  r.method === 'GET' && /^\/api\/v1\/(conversations|users|customers|bookings)(\?|$)/.test(r.path);

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const created = await fetch(`${API}/platform/tenants`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${platformToken}` },
    body: JSON.stringify({
      name: `Realtime Salon ${run}`,
      plan: 'pro',
      admin: { email: ADMIN, password: PASSWORD, name: 'Rita Realtime' },
    }),
  });
  const body = await created.json();
  assert.equal(created.status, 201, JSON.stringify(body));
  tenant = { id: body.tenant.id, apiKey: body.api_key.key };
  await inbound('Hello, are you open on Sunday?', 'Olga Open');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
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
