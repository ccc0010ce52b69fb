/**
 * The inbox as agents use it, in Chromium against the local runtime that run.mjs started: three panes on a
 * desk (the list, the thread with its composer in view, the side panel), the composer's keys (Enter sends,
 * Shift+Enter breaks the line, `/` finds saved replies and Enter inserts the highlighted one), moods in
 * words, and on a phone the list, then the thread full screen, then back. axe checks both sizes;
 * screenshots go to .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  BASE,
  checkA11y as checkPage,
  conversationCard,
  createTestTenant,
  DESK,
  launchChromium,
  newPage,
  PHONE,
  screenshot,
  signIn,
  tenantApi,
  type TestTenant,
  waitForValue,
} from './setup';

let browser: Browser;
let page: Page;
let tenant: TestTenant;
const pageErrors: string[] = [];

const api = (method: string, path: string, body?: unknown) => tenantApi(tenant, method, path, body);
const checkA11y = (name: string) => checkPage(page, name);
const shot = (name: string) => screenshot(page, name);
const card = (name: string) => conversationCard(page, name);
const inbound = (from: string, text: string, name?: string) =>
  api('POST', '/channels/sandbox/inbound', { from, text, ...(name ? { name } : {}) });

before(async () => {
  tenant = await createTestTenant({
    label: 'inbox',
    name: 'Inbox Salon',
    adminName: 'Ines Inbox',
    timezone: 'Europe/Berlin',
  });
  // Ulrich writes first: he has waited longest (and may be handed off as unhappy), so he leads the list.
  await inbound(
    '+4915120000002',
    'This is terrible, I waited an hour and nobody came. I am very angry.',
    'Ulrich Upset',
  );
  assert.equal((await inbound('+4915120000001', 'Hi, can I book a haircut for Friday?', 'Hanna Happy')).status, 201);
  await api('POST', '/saved-replies', { shortcut: 'hours', title: 'Opening hours', text: 'We open at 9.' });
  await api('POST', '/saved-replies', { shortcut: 'thanks', title: 'Thank you', text: 'Thank you for writing!' });
  browser = await launchChromium();
  page = await newPage(browser, { viewport: DESK, timezoneId: 'Europe/Berlin', errors: pageErrors });
  await signIn(page, tenant);
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
  await waitForValue(box, '');
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
  const me = users.body.data.find((u: { email: string }) => u.email === tenant.admin.email);
  const conversations = await api('GET', '/conversations?limit=100');
  const ulrich = conversations.body.data.find(
    (c: { customer: { name: string } }) => c.customer.name === 'Ulrich Upset',
  );
  assert.equal((await api('PATCH', `/conversations/${ulrich.id}`, { assignee_id: me.id })).status, 200);
  await page.goto(`${BASE}/inbox`);
  await page.waitForFunction(() => document.title.startsWith('(1) Inbox'));
});
