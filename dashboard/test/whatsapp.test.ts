/**
 * WhatsApp's business side in the dashboard, in Chromium against the local runtime that run.mjs started (with
 * the fake Graph API server): the Templates page (a template written with its live preview, approved by the
 * sandbox's review; one rejected with its reason; sync with Meta; delete), the composer (when the 24-hour
 * window closes; after it, an approved template with its parameter fields; scheduled sends, cancelled), and
 * the reminder settings. axe checks each; screenshots at 1366×768 and 390×844 go to
 * .scratch/dashboard-screenshots/.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  API,
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
  SHOTS,
  signIn,
  tenantApi,
  type TestTenant,
} from './setup';

/** The secret the test runtime's platform Meta app signs webhooks with (test/support/global-setup.mjs). */
const APP_SECRET = 'whatsapp-app-secret-for-tests';
const SANDBOX_TEMPLATE = `visit_reminder_${RUN}`;
const WHATSAPP_TEMPLATE = `visit_followup_${RUN}`;

let browser: Browser;
let page: Page;
let tenant: TestTenant;
const phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
const pageErrors: string[] = [];

const api = (method: string, path: string, body?: unknown) => tenantApi(tenant, method, path, body);

/** Polls `read` until `done` accepts what it returns. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    assert.ok(Date.now() < deadline, `still not there: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A customer writes to the WhatsApp number, `hoursAgo` (as Meta stamps it); resolves to their conversation. */
async function whatsappInbound(from: string, name: string, text: string, hoursAgo = 0) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: `8${phoneNumberId}`,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [
                {
                  from,
                  id: `wamid.${randomUUID()}`,
                  timestamp: String(Math.floor(Date.now() / 1000) - hoursAgo * 3600),
                  type: 'text',
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signed = await fetch(`${API}/channels/whatsapp/webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Hub-Signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`,
    },
    body: raw,
  });
  assert.equal(signed.status, 200);
  const list = await eventually(
    async () => (await api('GET', '/conversations?limit=100')).body.data as any[],
    (l) => l.some((c) => c.customer.phone === `+${from}`),
  );
  return list.find((c) => c.customer.phone === `+${from}`);
}

const checkA11y = (name: string) => checkPage(page, name);
const shot = (name: string, fullPage = false) => screenshot(page, name, fullPage);

/** Runs `body` at phone size, then returns to the desk. */
async function atPhoneSize(body: () => Promise<void>) {
  await page.setViewportSize(PHONE);
  try {
    await body();
  } finally {
    await page.setViewportSize(DESK);
  }
}

/** A link of the side navigation (opened first when the layout has collapsed it). */
const nav = async (name: string) => {
  const link = page.getByRole('navigation', { name: 'Side navigation' }).getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await page.getByRole('button', { name: 'Open side navigation' }).click();
  return link;
};

/** A template's card (selectable cards are presentational list items, so found by their element). */
const templateCard = (name: string) => page.locator('li').filter({ has: page.getByText(name, { exact: true }) });

before(async () => {
  tenant = await createTestTenant({ label: 'wa', name: 'WhatsApp Salon', adminName: 'Wanda Admin' });
  const connected = await api('POST', '/channels/whatsapp', {
    phone_number_id: phoneNumberId,
    display_phone_number: '+1 555 000 1111',
    access_token: `EAAG-token-${phoneNumberId}`,
    waba_id: `8${phoneNumberId}`,
  });
  assert.equal(connected.status, 201, JSON.stringify(connected.body));
  browser = await launchChromium();
  page = await newPage(browser, { viewport: DESK, timezoneId: 'UTC', errors: pageErrors, consoleErrors: true });
  await signIn(page, tenant);
});

let step = 0;
// The page as each test left it (a failed test's last state too), and no uncaught error in the app.
afterEach(async () => {
  step += 1;
  await page.screenshot({ path: join(SHOTS, `wa-after-test-${step}.png`) }).catch(() => undefined);
  const errors = pageErrors.splice(0);
  assert.deepEqual(errors, [], 'uncaught errors in the page');
});

after(async () => {
  await browser?.close();
});

void test('templates: written with a live preview, approved by the sandbox; a rejected one with its reason; sync; delete', async () => {
  await (await nav('Templates')).click();
  await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
  await page.getByText('No templates yet').waitFor();

  await page.getByRole('button', { name: 'Create template' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create template' });
  const preview = dialog.getByRole('figure', { name: 'Live preview' });
  await dialog.getByRole('button', { name: /^Channel/ }).click();
  await dialog.getByRole('option', { name: /^Sandbox/ }).click();
  await dialog.getByLabel('Name').fill(SANDBOX_TEMPLATE);
  await dialog.getByLabel('Language').fill('en');
  await chooseOption(dialog, 'Header kind', 'Text');
  await dialog.getByLabel('Header text').fill('Your visit');
  await dialog.getByLabel('Body').fill('Hi {{1}}, see you on {{2}} for your {{3}}.');
  // Each parameter gets its example field; until filled, the preview shows the parameter itself.
  await preview.getByText('{{2}}', { exact: true }).waitFor();
  await dialog.getByLabel('Example for {{1}}').fill('Maria');
  await dialog.getByLabel('Example for {{2}}').fill('Tuesday 10:00');
  await dialog.getByLabel('Example for {{3}}').fill('haircut');
  await dialog.getByLabel('Footer (optional)').fill('Tap a button to answer');
  for (const [i, text] of ['Confirm', 'Cancel', 'Reschedule'].entries()) {
    await dialog.getByRole('button', { name: 'Add quick reply' }).click();
    await dialog.getByLabel(`Quick reply ${i + 1}`).fill(text);
  }
  await dialog.getByRole('button', { name: 'Add link' }).click();
  await dialog.getByLabel('Link 4 text').fill('Directions');
  await dialog.getByLabel('Link 4 URL').fill('https://salon.example/visits/{{1}}');
  await dialog.getByLabel('Link 4 example').fill('https://salon.example/visits/42');
  // The preview follows every field: header, body with its examples, footer and the four buttons.
  assert.equal(
    (await preview.locator('.template-body').innerText()).trim(),
    'Hi Maria, see you on Tuesday 10:00 for your haircut.',
  );
  await preview.getByText('Your visit', { exact: true }).waitFor();
  await preview.getByText('Tap a button to answer').waitFor();
  assert.deepEqual(
    (await preview.getByRole('list', { name: 'Buttons' }).getByRole('listitem').allInnerTexts()).map((t) =>
      t.split('\n')[0]!.trim(),
    ),
    ['Confirm', 'Cancel', 'Reschedule', 'Directions'],
  );
  assert.equal(
    (await preview.locator('.template-url').innerText()).trim(),
    'https://salon.example/visits/42',
    'a link shows its example URL whole',
  );
  await checkA11y('create template');
  await shot('wa-01-template-create-desk');
  await dialog.getByRole('button', { name: 'Submit for review' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByText(`${SANDBOX_TEMPLATE} (en) is submitted for review.`).waitFor();
  // The sandbox's review approves it within seconds; the page shows the verdict by itself.
  await templateCard(SANDBOX_TEMPLATE).getByText('Approved', { exact: true }).waitFor({ timeout: 30_000 });

  // A name that asks to be rejected is, with its reason in words.
  const rejectName = `please_reject_${RUN}`;
  await page.getByRole('button', { name: 'Create template' }).first().click();
  await dialog.getByRole('button', { name: /^Channel/ }).click();
  await dialog.getByRole('option', { name: /^Sandbox/ }).click();
  await dialog.getByLabel('Name').fill(rejectName);
  await dialog.getByLabel('Body').fill('A plain text.');
  await dialog.getByRole('button', { name: 'Submit for review' }).click();
  await dialog.waitFor({ state: 'detached' });
  await templateCard(rejectName)
    .getByText('Rejected: the format is not valid', { exact: true })
    .waitFor({ timeout: 30_000 });
  await checkA11y('templates');
  await shot('wa-02-templates-desk', true);
  await atPhoneSize(async () => {
    await templateCard(SANDBOX_TEMPLATE).getByText('Approved', { exact: true }).waitFor();
    await shot('wa-03-templates-phone');
  });

  // Delete the rejected one: gone here and in the API.
  await page.getByRole('radio', { name: `Select ${rejectName} (en)` }).check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete template' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByText(`${rejectName} (en) is deleted.`).waitFor();
  await templateCard(rejectName).waitFor({ state: 'detached' });
  const listed = (await api('GET', '/templates?limit=100')).body.data as { name: string }[];
  assert.deepEqual(
    listed.map((t) => t.name),
    [SANDBOX_TEMPLATE],
  );

  // Sync reads the WhatsApp number's account at Meta (none there yet): nothing changes, and it says so.
  await page.getByRole('button', { name: 'Sync with Meta' }).click();
  await page.getByText(/^Synced with Meta: /).waitFor();
});

void test('composer: when the window closes; after it, an approved template with its parameter fields goes', async () => {
  const created = await api('POST', '/templates', {
    channel: 'whatsapp',
    channel_account_id: phoneNumberId,
    name: WHATSAPP_TEMPLATE,
    language: 'en',
    category: 'utility',
    body: { text: 'Hi {{1}}, how was your {{2}}?', examples: ['Maria', 'visit'] },
    buttons: [{ type: 'quick_reply', text: 'Great' }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await eventually(
    async () => (await api('GET', `/templates/${created.body.id}`)).body,
    (t) => t.status === 'approved',
  );
  // Flora wrote just now: her window is open and the composer says when it closes.
  const open = await whatsappInbound('4915100000701', 'Flora Fresh', 'Hello, are you open today?');
  await page.goto(`${BASE}/inbox/${open.id}`);
  await page.getByRole('heading', { name: 'Flora Fresh', level: 2 }).waitFor();
  assert.match(
    await page.getByTestId('service-window').innerText(),
    /^The 24-hour window closes in (23|24) hours \(.+\); after it, only approved templates can be sent\.$/,
  );
  assert.equal(await page.getByRole('group', { name: 'Send a template' }).count(), 0);

  // Carla wrote 25 hours ago: only templates go, and the composer offers this number's approved ones.
  const closed = await whatsappInbound('4915100000702', 'Carla Closed', 'Thanks for yesterday', 25);
  await page.goto(`${BASE}/inbox/${closed.id}`);
  await page.getByRole('heading', { name: 'Carla Closed', level: 2 }).waitFor();
  await page.getByText(/^The 24-hour window has closed \(/).waitFor();
  const picker = page.getByRole('group', { name: 'Send a template' });
  await picker.getByRole('button', { name: /^Template/ }).click();
  // The sandbox's template is not this number's: only the WhatsApp one is offered.
  assert.equal(await picker.getByRole('option', { name: new RegExp(SANDBOX_TEMPLATE) }).count(), 0);
  await picker.getByRole('option', { name: new RegExp(`^${WHATSAPP_TEMPLATE} \\(en\\)`) }).click();
  const send = picker.getByRole('button', { name: 'Send template' });
  assert.equal(await send.isDisabled(), true, 'waits for its parameters');
  await picker.getByLabel('Body parameter {{1}}').fill('Carla');
  await picker.getByLabel('Body parameter {{2}}').fill('colour');
  const preview = picker.getByRole('figure', { name: `Preview of ${WHATSAPP_TEMPLATE}` });
  assert.equal((await preview.locator('.template-body').innerText()).trim(), 'Hi Carla, how was your colour?');
  await checkA11y('composer with a template picker');
  await shot('wa-04-composer-template-desk');
  await atPhoneSize(async () => {
    await picker.getByLabel('Body parameter {{1}}').waitFor();
    await shot('wa-05-composer-template-phone');
  });
  await send.click();
  await page.getByTestId('message').filter({ hasText: 'Hi Carla, how was your colour?' }).waitFor();
  const messages = (await api('GET', `/conversations/${closed.id}/messages`)).body.data as any[];
  const sent = messages.find((m) => m.direction === 'outbound');
  assert.equal(sent.type, 'template');
  assert.equal(sent.content.template.name, WHATSAPP_TEMPLATE);
  assert.deepEqual(sent.content.template.parameters.body, ['Carla', 'colour']);
});

void test('composer: a message scheduled for later is listed, then cancelled', async () => {
  const inbound = await api('POST', '/channels/sandbox/inbound', {
    from: '+4915100000703',
    text: 'Can you remind me tomorrow?',
    name: 'Sam Schedule',
  });
  assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
  const conversationId = inbound.body.conversation.id as string;
  await page.goto(`${BASE}/inbox/${conversationId}`);
  await page.getByRole('heading', { name: 'Sam Schedule', level: 2 }).waitFor();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('See you tomorrow at 10!');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const when = page.getByRole('group', { name: 'Schedule the message' });
  // It starts a few minutes ahead; a time in the past is refused at the field.
  const start = await when.getByLabel('At').inputValue();
  assert.match(start, /^\d\d:\d\d$/);
  const today = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  await when.getByLabel('Send on').fill(today);
  await when.getByLabel('At').fill('00:00');
  await when.getByText('Choose a time in the future.').waitFor();
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = `${tomorrow.getUTCFullYear()}/${String(tomorrow.getUTCMonth() + 1).padStart(2, '0')}/${String(tomorrow.getUTCDate()).padStart(2, '0')}`;
  await when.getByLabel('Send on').fill(day);
  await when.getByLabel('At').fill('09:30');
  await when.getByRole('button', { name: 'Schedule send' }).click();
  // The flash (with its full stop) comes with the send's answer, which also clears the box; the list below
  // can show the message earlier, from the realtime change.
  await page.getByText(/^Scheduled for .+\.$/).waitFor();
  const scheduled = page.getByRole('group', { name: 'Scheduled messages' }).getByTestId('scheduled-message');
  await scheduled.filter({ hasText: 'See you tomorrow at 10!' }).waitFor();
  assert.equal(await box.inputValue(), '');
  const stored = await eventually(
    async () =>
      ((await api('GET', `/conversations/${conversationId}/messages`)).body.data as any[]).filter(
        (m) => m.direction === 'outbound',
      ),
    (l) => l.length === 1,
  );
  assert.equal(stored[0].status, 'scheduled');
  assert.equal(stored[0].scheduled_at, `${day.replace(/\//g, '-')}T09:30:00.000Z`);
  await checkA11y('composer with a scheduled message');
  await shot('wa-06-composer-scheduled-desk');

  await scheduled.getByRole('button', { name: /^Cancel the message scheduled for/ }).click();
  await page.getByText('The scheduled message is canceled.').waitFor();
  await scheduled.waitFor({ state: 'detached' });
  const after = (await api('GET', `/conversations/${conversationId}/messages`)).body.data as any[];
  assert.equal(after.find((m) => m.id === stored[0].id).status, 'canceled');
});

void test('settings: the reminder policy (times before the start, the template per language) is saved', async () => {
  await (await nav('Reminders')).click();
  await page.getByRole('heading', { name: 'Reminders', level: 1 }).waitFor();
  await page.getByText('Never set: reminders are off.').waitFor();
  await page.getByLabel('Send booking reminders').check();
  // A tenant that never set it starts from a day and two hours before.
  assert.equal(await page.getByLabel('Reminder 1', { exact: true }).inputValue(), '1');
  assert.equal(await page.getByLabel('Reminder 2', { exact: true }).inputValue(), '2');
  await page.getByLabel('Reminder 2', { exact: true }).fill('3');
  // A time out of bounds, or one listed twice, is named at its field.
  await page.getByRole('button', { name: 'Add a reminder time' }).click();
  await page.getByLabel('Reminder 3', { exact: true }).fill('9');
  await chooseOption(page.locator('body'), 'Reminder 3 unit', 'days before');
  await page.getByText('Between 5 minutes and 7 days.', { exact: true }).waitFor();
  await chooseOption(page.locator('body'), 'Reminder 3 unit', 'hours before');
  await page.getByLabel('Reminder 3', { exact: true }).fill('3');
  await page.getByText('The same time is listed above.', { exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true);
  await page.getByRole('button', { name: 'Remove reminder 3' }).click();
  // Only approved templates are offered: the sandbox's and the WhatsApp number's are both in English, so
  // once one is chosen the other is not offered for that language.
  await page.getByRole('button', { name: 'Add a template' }).click();
  await page.getByRole('option', { name: new RegExp(`^${SANDBOX_TEMPLATE} \\(en\\)`) }).click();
  await page.getByRole('button', { name: 'Add a template' }).click();
  assert.equal(await page.getByRole('option', { name: new RegExp(WHATSAPP_TEMPLATE) }).count(), 0);
  await page.keyboard.press('Escape');
  await checkA11y('reminder settings');
  await shot('wa-07-reminders-desk', true);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('The reminder settings are saved.').waitFor();
  const saved = (await api('GET', '/reminder-policy')).body;
  assert.equal(saved.enabled, true);
  assert.deepEqual(saved.offsets_minutes, [1440, 180]);
  assert.deepEqual(saved.templates, [{ name: SANDBOX_TEMPLATE, language: 'en' }]);
  assert.equal(saved.default_language, 'en');

  // Read again, the page shows what is saved, in the units a person would use.
  await page.reload();
  await page.getByText(/^Last changed /).waitFor();
  assert.equal(await page.getByLabel('Reminder 1', { exact: true }).inputValue(), '1');
  assert.equal(await page.getByLabel('Reminder 2', { exact: true }).inputValue(), '3');
  assert.equal(await page.getByLabel('Reminder 3', { exact: true }).count(), 0);
  await page.getByRole('button', { name: 'Template 1' }).getByText(`${SANDBOX_TEMPLATE} (en)`).waitFor();
  await atPhoneSize(async () => {
    await page.getByLabel('Reminder 1', { exact: true }).waitFor();
    await shot('wa-08-reminders-phone', true);
  });
});

/** A PNG of one colour, as a customer's photo (PNG's chunks: length, type, data, CRC). */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width * 3 }, (_, i) => rgb[i % 3]!))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

void test('files: a customer’s image inline; a document attached, uploaded and sent; a file over the limit refused', async () => {
  const inbound = await api('POST', '/channels/sandbox/inbound', {
    from: '+4915100000704',
    name: 'Pia Photo',
    media: {
      type: 'image',
      mime_type: 'image/png',
      data: solidPng(160, 100, [214, 120, 96]).toString('base64'),
      caption: 'the rash on my arm',
    },
  });
  assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
  const conversationId = inbound.body.conversation.id as string;
  await page.goto(`${BASE}/inbox/${conversationId}`);
  await page.getByRole('heading', { name: 'Pia Photo', level: 2 }).waitFor();
  // The image is shown from its download URL (loaded: the page's policy lets the media store in), with its caption.
  const image = page.getByTestId('message-media').getByRole('img', { name: 'the rash on my arm' });
  await image.waitFor();
  await page.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="message-media"] img');
      return !!img && img.complete && img.naturalWidth === 160;
    },
    undefined,
    { timeout: 10_000 },
  );
  await page.getByTestId('message').getByText('the rash on my arm', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('message').getByText('[image]').count(), 0, 'no placeholder beside the image');

  // A document: Attach, a caption, Send file; it is uploaded to its presigned URL and sent by its id.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  await page
    .getByLabel('File to attach')
    .setInputFiles({ name: 'aftercare.pdf', mimeType: 'application/pdf', buffer: pdf });
  const attached = page.getByRole('group', { name: 'File to send' });
  await attached.getByText(`aftercare.pdf (${pdf.length} B)`).waitFor();
  await attached.getByLabel('Caption (optional)').fill('How to care for it');
  await checkA11y('composer with a file to send');
  await shot('wa-09-composer-file-desk');
  await attached.getByRole('button', { name: 'Send file' }).click();
  await page.getByText('aftercare.pdf is sent.').waitFor();
  const documentLink = page.getByTestId('message-media').getByRole('link', { name: /^aftercare\.pdf/ });
  await documentLink.waitFor();
  const messages = (await api('GET', `/conversations/${conversationId}/messages`)).body.data as any[];
  const sent = messages.find((m) => m.direction === 'outbound');
  assert.equal(sent.type, 'document');
  assert.equal(sent.media.status, 'stored');
  assert.equal(sent.media.filename, 'aftercare.pdf');
  assert.equal(sent.media.caption, 'How to care for it');
  // What was uploaded is what the message's URL gives back.
  const downloaded = Buffer.from(await (await fetch(sent.media.download_url)).arrayBuffer());
  assert.deepEqual(downloaded, pdf);

  // An image over WhatsApp's 5 MB is refused, the reason at the file.
  await page
    .getByLabel('File to attach')
    .setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024) });
  await attached.getByRole('button', { name: 'Send file' }).click();
  await attached.getByText(/5 MB/).first().waitFor();
  await shot('wa-10-composer-file-refused-desk');
  await attached.getByRole('button', { name: 'Remove' }).click();
  await attached.waitFor({ state: 'detached' });
  await atPhoneSize(async () => {
    await image.waitFor();
    await shot('wa-11-conversation-files-phone');
  });
});
