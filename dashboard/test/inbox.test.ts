/**
 * The inbox as agents use it, in Chromium against the local runtime that run.mjs started: three panes on a
 * desk (the list, the thread with its composer in view, the side panel), the composer's keys (Enter sends,
 * Shift+Enter breaks the line, `/` finds saved replies and Enter inserts the highlighted one), moods in
 * words, and on a phone the list, then the thread full screen, then back. axe checks both sizes;
 * screenshots go to .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testRuntime } from '../../test/support/runtime';

const SHOTS = fileURLToPath(new URL('../../.scratch/dashboard-screenshots/', import.meta.url));
const { url: BASE, platformToken } = testRuntime();
const API = `${BASE}/api/v1`;
const PASSWORD = 'a long inbox test passphrase';
const run = Date.now().toString(36);
const ADMIN = `inbox-${run}@dashboard.example`;
const DESK = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let context: BrowserContext;
let page: Page;
let tenant: { id: string; apiKey: string };
const pageErrors: string[] = [];

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(tenant ? { Authorization: `Bearer ${tenant.apiKey}`, 'X-Tenant-ID': tenant.id } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function checkA11y(name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(bad, [], `accessibility violations on ${name}`);
}

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const card = (name: string) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name}`) });
const inbound = (from: string, text: string, name?: string) =>
  api('POST', '/channels/sandbox/inbound', { from, text, ...(name ? { name } : {}) });

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const created = await fetch(`${API}/platform/tenants`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${platformToken}` },
    body: JSON.stringify({
      name: `Inbox Salon ${run}`,
      plan: 'pro',
      timezone: 'Europe/Berlin',
      admin: { email: ADMIN, password: PASSWORD, name: 'Ines Inbox' },
    }),
  });
  const body = await created.json();
  assert.equal(created.status, 201, JSON.stringify(body));
  tenant = { id: body.tenant.id, apiKey: body.api_key.key };
  // Ulrich writes first: he has waited longest (and may be handed off as unhappy), so he leads the list.
  await inbound(
    '+4915120000002',
    'This is terrible, I waited an hour and nobody came. I am very angry.',
    'Ulrich Upset',
  );
  assert.equal((await inbound('+4915120000001', 'Hi, can I book a haircut for Friday?', 'Hanna Happy')).status, 201);
  await api('POST', '/saved-replies', { shortcut: 'hours', title: 'Opening hours', text: 'We open at 9.' });
  await api('POST', '/saved-replies', { shortcut: 'thanks', title: 'Thank you', text: 'Thank you for writing!' });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  context = await browser.newContext({
    viewport: DESK,
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
    reducedMotion: 'reduce',
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${BASE}/sign-in`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Inbox/, level: 1 }).waitFor();
});

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], 'uncaught errors in the page');
});

void test('desk: the list, the thread and the side panel side by side; moods in words; the composer in view', async () => {
  await card('Hanna Happy').waitFor();
  // The list shows the newest message itself, and how many wait for a reply.
  await card('Hanna Happy').getByText('Hi, can I book a haircut for Friday?').waitFor();
  await card('Hanna Happy').getByLabel('1 unanswered').waitFor();
  // The analysis runs in the background: the upset customer's mood shows as a word, its score in the tooltip.
  const upset = card('Ulrich Upset').getByTestId('sentiment');
  for (let tries = 0; (await upset.count()) === 0; tries++) {
    assert.ok(tries < 30, 'the mood shows once the message is analysed');
    await page.getByRole('button', { name: 'Refresh conversations' }).click();
    await page.waitForTimeout(1000);
  }
  assert.equal((await upset.innerText()).trim(), 'upset');
  assert.match((await upset.getAttribute('title')) ?? '', /^Sentiment score -0\.\d\d/);
  // Handoffs and long waits first: Ulrich is above Hanna.
  const names = await page.getByRole('list', { name: 'Conversations' }).getByRole('link').allInnerTexts();
  assert.ok(names[0]?.startsWith('Ulrich Upset'), `first: ${names[0]}`);
  await checkA11y('inbox desk');
  await shot('inbox-desk');

  await card('Hanna Happy').click();
  await page.getByRole('heading', { name: 'Hanna Happy', level: 2 }).waitFor();
  const thread = page.getByRole('region', { name: 'Hanna Happy' });
  const side = page.getByRole('complementary', { name: 'Conversation details' });
  const list = page.getByRole('list', { name: 'Conversations' });
  const [listBox, threadBox, sideBox] = await Promise.all([
    list.boundingBox(),
    thread.boundingBox(),
    side.boundingBox(),
  ]);
  assert.ok(listBox && threadBox && sideBox, 'three panes shown');
  assert.ok(listBox.x + listBox.width <= threadBox.x && threadBox.x + threadBox.width <= sideBox.x, 'side by side');
  await thread.getByRole('separator', { name: 'Today' }).waitFor();
  await side.getByRole('heading', { name: 'Customer' }).waitFor();
  await side.getByRole('heading', { name: 'AI analysis' }).waitFor();
  // The composer is in the window without scrolling.
  const composer = page.getByRole('textbox', { name: 'Message' });
  const at = await composer.boundingBox();
  assert.ok(at && at.y + at.height <= DESK.height, `composer at ${JSON.stringify(at)}`);
  await checkA11y('conversation desk');
  await shot('conversation-desk');
});

void test('composer: Shift+Enter breaks the line, Enter sends, / lists saved replies and Enter inserts the highlighted one', async () => {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.pressSequentially('First line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  assert.equal(await box.inputValue(), 'First line\nsecond line');
  await box.press('Enter');
  const sent = page.getByTestId('message').filter({ hasText: 'First line' });
  await sent.waitFor();
  assert.equal(await sent.locator('.message-text').innerText(), 'First line\nsecond line');
  assert.equal(await box.inputValue(), '');
  // Answered: the card's count is gone and its preview is the reply.
  await card('Hanna Happy')
    .getByText(/^You: First line/)
    .waitFor();
  assert.equal(
    await card('Hanna Happy')
      .getByLabel(/unanswered/)
      .count(),
    0,
  );

  await box.pressSequentially('/');
  const choices = page.getByRole('listbox', { name: 'Saved replies starting with /' });
  await choices.getByRole('option', { name: '/hours Opening hours', selected: true }).waitFor();
  await box.press('ArrowDown');
  await choices.getByRole('option', { name: '/thanks Thank you', selected: true }).waitFor();
  await shot('composer-slash-desk');
  await box.press('Enter');
  await page.waitForFunction(() => document.querySelector('textarea')?.value === 'Thank you for writing!');
  // Inserted, not sent.
  assert.equal(await page.getByTestId('message').filter({ hasText: 'Thank you for writing!' }).count(), 0);
  await box.press('Enter');
  await page.getByTestId('message').filter({ hasText: 'Thank you for writing!' }).waitFor();
});

void test('phone: the list, then the conversation full screen, then back; cards, not tables', async () => {
  await page.setViewportSize(PHONE);
  try {
    await page.goto(`${BASE}/inbox`);
    await card('Hanna Happy').waitFor();
    assert.equal(await page.getByRole('table').count(), 0);
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).count(), 0);
    await checkA11y('inbox phone');
    await shot('inbox-phone');
    await card('Ulrich Upset').click();
    await page.getByRole('heading', { name: 'Ulrich Upset', level: 2 }).waitFor();
    assert.equal(await page.getByRole('list', { name: 'Conversations' }).isVisible(), false);
    const box = page.getByRole('textbox', { name: 'Message' });
    const at = await box.boundingBox();
    assert.ok(at && at.y + at.height <= PHONE.height, `composer at ${JSON.stringify(at)}`);
    await page.getByTestId('message').getByText('This is terrible, I waited an hour').waitFor();
    await checkA11y('conversation phone');
    await shot('conversation-phone');
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await card('Ulrich Upset').waitFor();
    assert.equal(new URL(page.url()).pathname, '/inbox');
  } finally {
    await page.setViewportSize(DESK);
  }
});

void test('the tab title counts my conversations waiting for a reply', async () => {
  const users = await api('GET', '/users');
  const me = users.body.data.find((u: { email: string }) => u.email === ADMIN);
  const conversations = await api('GET', '/conversations?limit=100');
  const ulrich = conversations.body.data.find(
    (c: { customer: { name: string } }) => c.customer.name === 'Ulrich Upset',
  );
  assert.equal((await api('PATCH', `/conversations/${ulrich.id}`, { assignee_id: me.id })).status, 200);
  await page.goto(`${BASE}/inbox`);
  await page.waitForFunction(() => document.title.startsWith('(1) Inbox'));
});
