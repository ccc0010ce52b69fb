/**
 * Payments where agents meet them, in Chromium against the local runtime that run.mjs started (the sandbox
 * provider): the inbox side panel lists the conversation's customer's payments with status, amount and
 * booking, sends an open link again and refunds (admin); the booking form books with a deposit. At desk
 * and phone sizes, axe-checked; screenshots go to .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  BASE,
  checkA11y as checkPage,
  chooseOption,
  createTestTenant,
  DESK,
  launchChromium,
  newPage,
  PHONE,
  RUN,
  screenshot,
  signIn,
  tenantApi,
  type TestTenant,
} from './setup';

const CUSTOMER_PHONE = `+49151${String(Date.now()).slice(-8)}`;

let browser: Browser;
let page: Page;
let tenant: TestTenant;
let conversationId: string;
/** The open deposit link and the paid prepayment, made through the API before the browser opens. */
let pending: { id: string };
let paid: { id: string };
const pageErrors: string[] = [];

const api = (method: string, path: string, body?: unknown) => tenantApi(tenant, method, path, body);
const checkA11y = (name: string) => checkPage(page, name);
const shot = (name: string) => screenshot(page, name);
/** A booking of `chair` three days from now at `hour` UTC, paid with `payment`. */
const book = (chair: string, hour: number, service: string, payment: unknown, send = false) => {
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(hour, 0, 0, 0);
  return api('POST', '/bookings', {
    customer: { phone: CUSTOMER_PHONE },
    conversation_id: conversationId,
    service,
    resource_id: chair,
    timezone: 'Europe/Berlin',
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 45 * 60_000).toISOString(),
    payment,
    send_payment_link: send,
  });
};
/** The messages of the conversation that carry a payment's link. */
const linkMessages = async (paymentId: string) =>
  ((await api('GET', `/conversations/${conversationId}/messages?limit=100`)).body.data as { text: string }[]).filter(
    (m) => m.text.includes(paymentId),
  ).length;

before(async () => {
  tenant = await createTestTenant({
    label: 'payments',
    name: 'Payments Salon',
    adminName: 'Paula Payments',
    timezone: 'Europe/Berlin',
  });
  const inbound = await api('POST', '/channels/sandbox/inbound', {
    from: CUSTOMER_PHONE,
    name: 'Pia Payer',
    text: 'Can I book a colour and a cut?',
  });
  assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
  conversationId = inbound.body.conversation.id;
  const chair = `chair-${RUN}`;
  // A prepayment the customer paid on the sandbox checkout page, then a deposit still waiting.
  const prepaid = await book(chair, 9, 'Colour', { purpose: 'full', amount: 4000, currency: 'EUR' });
  assert.equal(prepaid.status, 201, JSON.stringify(prepaid.body));
  paid = prepaid.body.payment;
  const link = (await api('GET', `/payments/${paid.id}`)).body.link as string;
  const pressed = await fetch(link.replace('?', '/pay?'), { method: 'POST' });
  assert.match(await pressed.text(), /data-status="succeeded"/);
  const deposit = await book(chair, 12, 'Cut', { purpose: 'deposit', amount: 1500, currency: 'EUR' }, true);
  assert.equal(deposit.status, 201, JSON.stringify(deposit.body));
  pending = deposit.body.payment;
  assert.equal(await linkMessages(pending.id), 1);

  browser = await launchChromium();
  page = await newPage(browser, { viewport: DESK, timezoneId: 'Europe/Berlin', errors: pageErrors });
  await signIn(page, tenant);
});

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], 'uncaught errors in the page');
});

const sidePayments = () =>
  page
    .getByRole('complementary', { name: 'Conversation details' })
    .getByRole('list', { name: 'Payments of this customer' });

void test('desk: the side panel lists the customer’s payments; a link is sent again; an admin refunds part', async () => {
  await page.goto(`${BASE}/inbox/${conversationId}`);
  await page.getByRole('heading', { name: 'Pia Payer', level: 2 }).waitFor();
  const payments = sidePayments();
  const deposit = payments.getByRole('listitem', { name: /^€15\.00 deposit, pending/ });
  const prepayment = payments.getByRole('listitem', { name: /^€40\.00 full prepayment, succeeded/ });
  await deposit.waitFor();
  await prepayment.waitFor();
  // Each says what it is for: the booking's service and time.
  await deposit.getByText(/^Deposit for Cut · /).waitFor();
  await prepayment.getByText(/^Full prepayment for Colour · /).waitFor();
  // An open link can be sent again; a paid one cannot, and only a paid one can be refunded.
  assert.equal(await prepayment.getByRole('button', { name: /^Send link again/ }).count(), 0);
  assert.equal(await deposit.getByRole('button', { name: /^Refund/ }).count(), 0);
  await checkA11y('payments side panel desk');
  await page.getByRole('heading', { name: 'Payments', level: 3 }).scrollIntoViewIfNeeded();
  await shot('payments-side-panel-desk');

  await deposit.getByRole('button', { name: 'Send link again: €15.00 deposit' }).click();
  await page.getByText('The €15.00 link is sent again.').waitFor();
  assert.equal(await linkMessages(pending.id), 2, 'the link went into the conversation a second time');

  await prepayment.getByRole('button', { name: 'Refund: €40.00 full prepayment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund' });
  await dialog.getByText('Paid €40.00, refunded €0.00.', { exact: false }).waitFor();
  await dialog.getByLabel('Amount').fill('10');
  await checkA11y('refund dialog');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await dialog.waitFor({ state: 'detached' });
  await payments
    .getByRole('listitem', { name: /^€40\.00 full prepayment, partially refunded/ })
    .getByText(/€10\.00 refunded/)
    .waitFor();
  const after = (await api('GET', `/payments/${paid.id}`)).body;
  assert.deepEqual([after.status, after.amount_refunded], ['partially_refunded', 1000]);

  // The customer pays the deposit meanwhile: its payment.succeeded event refreshes the panel by itself.
  const link = (await api('GET', `/payments/${pending.id}`)).body.link as string;
  await fetch(link.replace('?', '/pay?'), { method: 'POST' });
  await payments.getByRole('listitem', { name: /^€15\.00 deposit, succeeded/ }).waitFor();
});

void test('desk: the booking form books with a deposit, checks the amount, and the booking waits for payment', async () => {
  await page.goto(`${BASE}/bookings`);
  await page.getByRole('button', { name: 'New booking' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New booking' });
  await dialog.getByRole('button', { name: /Choose a customer/ }).click();
  await dialog.getByRole('option', { name: /Pia Payer/ }).click();
  await dialog.getByLabel('Service').fill('Blow-dry');
  await dialog.getByLabel('Resource').fill(`chair-form-${RUN}`);
  await chooseOption(dialog, /^Payment/, 'Deposit');
  // No amount yet: the form says so and sends nothing.
  await dialog.getByRole('button', { name: 'Book' }).click();
  await dialog.getByText('An amount above zero, such as 20.00.').waitFor();
  await dialog.getByRole('textbox', { name: 'Deposit' }).fill('12.50');
  await dialog.getByText('An amount above zero, such as 20.00.').waitFor({ state: 'detached' });
  await checkA11y('booking form with a deposit');
  await shot('booking-deposit-desk');
  await dialog.getByRole('button', { name: 'Book' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByText(/Blow-dry booked for/).waitFor();
  const bookings = (await api('GET', `/bookings?limit=50`)).body.data as {
    service: string;
    status: string;
    payment: { purpose: string; amount: number; currency: string } | null;
  }[];
  const made = bookings.find((b) => b.service === 'Blow-dry');
  assert.equal(made?.status, 'pending_payment');
  assert.deepEqual(made?.payment && { ...made.payment, id: undefined }, {
    id: undefined,
    purpose: 'deposit',
    amount: 1250,
    currency: 'EUR',
  });
});

void test('phone: the payments under the conversation, and the booking form’s deposit fields', async () => {
  await page.setViewportSize(PHONE);
  try {
    await page.goto(`${BASE}/inbox/${conversationId}`);
    await page.getByRole('heading', { name: 'Pia Payer', level: 2 }).waitFor();
    const payments = sidePayments();
    await payments.getByRole('listitem', { name: /^€15\.00 deposit, succeeded/ }).waitFor();
    await payments.scrollIntoViewIfNeeded();
    const box = await payments.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `within the screen: ${JSON.stringify(box)}`);
    await checkA11y('payments side panel phone');
    await shot('payments-side-panel-phone');

    await page.goto(`${BASE}/bookings`);
    await page.getByRole('button', { name: 'New booking' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New booking' });
    await chooseOption(dialog, /^Payment/, 'Full prepayment');
    await dialog.getByRole('textbox', { name: 'Price' }).fill('60');
    await dialog.getByRole('textbox', { name: 'Currency' }).scrollIntoViewIfNeeded();
    const currency = await dialog.getByRole('textbox', { name: 'Currency' }).boundingBox();
    assert.ok(currency && currency.x + currency.width <= PHONE.width, `currency in view: ${JSON.stringify(currency)}`);
    await checkA11y('booking form phone');
    await shot('booking-deposit-phone');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  } finally {
    await page.setViewportSize(DESK);
  }
});
