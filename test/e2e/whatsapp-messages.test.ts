import { createHmac, randomUUID } from 'node:crypto';
import {
  WHATSAPP_APP_SECRET,
  authOf,
  call,
  connectWhatsApp,
  createTenant,
  eventsOf,
  eventually,
  serverClockSkewMs,
  type TestTenant,
} from '../support/api';
import { graphRequestsFor, PAYLOAD_SETTLES_MS, SEND_SETTLES_MS, settledWhatsAppSend } from '../support/whatsapp';

/**
 * Message kinds on WhatsApp (fake Graph server): templates, media, interactive messages, the 24-hour window
 * and its fallback template, scheduled sends, and Meta's failures with their reasons.
 */
let t: TestTenant;
let phoneNumberId: string;
const TEMPLATE = 'visit_followup';

async function inbound(from: string, text: string, hoursAgo = 0) {
  const payload = {
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
              contacts: [{ profile: { name: 'Carla' }, wa_id: from }],
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
  };
  const raw = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', WHATSAPP_APP_SECRET).update(raw).digest('hex')}`;
  await call('POST', '/channels/whatsapp/webhook', {
    rawBody: raw,
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
  });
  const list = await eventually(
    async () => (await call('GET', '/conversations?limit=100', authOf(t))).body.data as any[],
    (l) => l.some((c) => c.customer.phone === `+${from}`),
    PAYLOAD_SETTLES_MS,
  );
  return list.find((c) => c.customer.phone === `+${from}`);
}
// A test waits for an inbound message to be stored (PAYLOAD_SETTLES_MS), then up to three sends, each of
// which may be settled by the outbound sweeper (SEND_SETTLES_MS, 260 s under the chaos mode), and one of
// them sent again (settledSend).
const SENDS_TEST_MS = PAYLOAD_SETTLES_MS + 4 * SEND_SETTLES_MS + 60_000;
const customer = () => `4915${Math.floor(Math.random() * 1e9)}`.slice(0, 13);
const send = (convId: string, body: unknown) =>
  call('POST', `/conversations/${convId}/messages`, { ...authOf(t), body });
const messageOf = async (convId: string, id: string) =>
  ((await call('GET', `/conversations/${convId}/messages?limit=100`, authOf(t))).body.data as any[]).find(
    (m) => m.id === id,
  );
// The messages list is eventually consistent: a message is read until it shows as `done` accepts.
const messageUntil = (convId: string, id: string, done: (m: any) => boolean) =>
  eventually(() => messageOf(convId, id), done, SEND_SETTLES_MS);
/** Sends `body()` and waits for the message to settle, sending it again should nothing reach Graph. */
const settledSend = (convId: string, body: () => Record<string, unknown>) =>
  settledWhatsAppSend(
    () => send(convId, body()),
    (id) => messageOf(convId, id),
    graphRequestsFor,
  );
const fallback = { name: TEMPLATE, language: 'en', parameters: { body: ['Carla'] } };

beforeAll(async () => {
  t = await createTenant();
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  await connectWhatsApp(t, phoneNumberId);
  const created = await call('POST', '/templates', {
    ...authOf(t),
    body: {
      channel: 'whatsapp',
      name: TEMPLATE,
      language: 'en',
      category: 'utility',
      body: { text: 'Hi {{1}}, how was your visit?', examples: ['Maria'] },
      buttons: [{ type: 'quick_reply', text: 'Great' }],
    },
  });
  expect(created).toMatchObject({ status: 201 });
  // Meta's review comes as a webhook payload: under chaos, a part that failed comes back after the inbound
  // queue's visibility timeout (PAYLOAD_SETTLES_MS).
  await eventually(
    async () => (await call('GET', `/templates/${created.body.id}`, authOf(t))).body,
    (tpl) => tpl.status === 'approved',
    PAYLOAD_SETTLES_MS,
  );
}, PAYLOAD_SETTLES_MS + 60_000);

describe('the 24-hour window', () => {
  it(
    'refuses a text after it, naming the fix, and sends the fallback template instead',
    async () => {
      const conv = await inbound(customer(), 'hello from yesterday', 25);
      expect(Date.parse(conv.window_expires_at)).toBeLessThan(Date.now());
      const refused = await send(conv.id, { text: 'Are you still there?' });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('outside_service_window');
      expect(refused.body.detail).toMatch(/fallback_template/);

      const { sent, message: done } = await settledSend(conv.id, () => ({
        text: 'Are you still there?',
        fallback_template: fallback,
      }));
      expect(sent.body).toMatchObject({
        type: 'template',
        content: { template: { name: TEMPLATE, language: 'en', parameters: { body: ['Carla'] } } },
      });
      expect(sent.body.text).toContain('Hi Carla, how was your visit?');
      expect(done).toMatchObject({ status: 'sent' });
      const request = (await graphRequestsFor(sent.body.id)).find((r) => r.body?.type === 'template');
      expect(request.body.template).toMatchObject({
        name: TEMPLATE,
        language: { code: 'en' },
        components: expect.arrayContaining([{ type: 'body', parameters: [{ type: 'text', text: 'Carla' }] }]),
      });
    },
    SENDS_TEST_MS,
  );

  it(
    'sends templates any time, and refuses unknown or unapproved ones and wrong parameters',
    async () => {
      const conv = await inbound(customer(), 'old message', 30);
      expect((await send(conv.id, { template: fallback })).status).toBe(202);
      const unknown = await send(conv.id, { template: { name: 'no_such_template', language: 'en' } });
      expect(unknown.status).toBe(422);
      expect(unknown.body.code).toBe('template_not_found');
      const wrong = await send(conv.id, { template: { ...fallback, parameters: { body: [] } } });
      expect(wrong.status).toBe(422);
      expect(wrong.body.code).toBe('invalid_template_parameters');
      expect(wrong.body.errors[0]).toMatchObject({ path: 'template.parameters.body' });
      const pending = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'whatsapp', name: 'not_yet', language: 'en', category: 'utility', body: { text: 'Soon.' } },
      });
      const early = await send(conv.id, { template: { name: 'not_yet', language: 'en' } });
      // Meta's review in the fake takes a moment: the template is pending or, at worst, just approved.
      if (early.status === 422) expect(early.body.code).toBe('template_not_approved');
      else expect(pending.status).toBe(201);
    },
    SENDS_TEST_MS,
  );
});

describe('message kinds', () => {
  it(
    'sends media, reply buttons and lists in WhatsApp\u2019s shapes',
    async () => {
      const conv = await inbound(customer(), 'please send the menu');
      expect(Date.parse(conv.window_expires_at)).toBeGreaterThan(Date.now());
      const doc = await settledSend(conv.id, () => ({
        document: { url: 'https://127.0.0.1:8443/files/menu.pdf', caption: 'Our menu', filename: 'menu.pdf' },
      }));
      expect(doc.sent.body).toMatchObject({ type: 'document', text: '[document menu.pdf] Our menu' });
      const buttons = await settledSend(conv.id, () => ({
        interactive: {
          type: 'button',
          body: 'Does Tuesday 10:00 suit you?',
          buttons: [
            { id: 'yes', title: 'Yes' },
            { id: 'no', title: 'No' },
          ],
        },
      }));
      const list = await settledSend(conv.id, () => ({
        interactive: {
          type: 'list',
          body: 'Pick a time',
          button: 'Times',
          sections: [{ title: 'Tuesday', rows: [{ id: 'slot_1', title: '10:00', description: 'with Ana' }] }],
        },
      }));
      for (const m of [doc, buttons, list]) expect(m.message).toMatchObject({ status: 'sent' });
      const of = async (m: typeof doc) => (await graphRequestsFor(m.sent.body.id))[0]?.body;
      expect(await of(doc)).toMatchObject({
        type: 'document',
        document: { link: 'https://127.0.0.1:8443/files/menu.pdf', caption: 'Our menu', filename: 'menu.pdf' },
      });
      expect((await of(buttons)).interactive).toMatchObject({
        type: 'button',
        action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }, expect.anything()] },
      });
      expect((await of(list)).interactive.action).toMatchObject({
        button: 'Times',
        sections: [{ title: 'Tuesday', rows: [{ id: 'slot_1', title: '10:00', description: 'with Ana' }] }],
      });
    },
    SENDS_TEST_MS,
  );

  it(
    'refuses what breaks WhatsApp\u2019s limits, naming the limit, and media URLs that are not safe',
    async () => {
      const conv = await inbound(customer(), 'hi');
      const four = await send(conv.id, {
        interactive: {
          type: 'button',
          body: 'Pick one',
          buttons: ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id })),
        },
      });
      expect(four.status).toBe(422);
      expect(four.body.errors).toContainEqual({
        path: 'interactive.buttons',
        message: expect.stringMatching(/at most 3/),
      });
      const rows = await send(conv.id, {
        interactive: {
          type: 'list',
          body: 'Pick one',
          button: 'Open',
          sections: [{ rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` })) }],
        },
      });
      expect(rows.status).toBe(422);
      expect(JSON.stringify(rows.body.errors)).toMatch(/at most 10 rows/);
      const caption = await send(conv.id, {
        image: { url: 'https://127.0.0.1:8443/a.jpg', caption: 'x'.repeat(1025) },
      });
      expect(caption.status).toBe(422);
      expect(caption.body.errors).toContainEqual({ path: 'image.caption', message: expect.stringMatching(/1024/) });
      const two = await send(conv.id, { text: 'a', image: { url: 'https://127.0.0.1:8443/a.jpg' } });
      expect(two.status).toBe(422);
      const metadata = await send(conv.id, { image: { url: 'https://169.254.169.254/latest/meta-data/x.jpg' } });
      expect(metadata.status).toBe(422);
      expect(metadata.body.code).toBe('unsafe_media_url');
      const plain = await send(conv.id, { image: { url: 'http://127.0.0.1/a.jpg' } });
      expect(plain.status).toBe(422);
    },
    SENDS_TEST_MS,
  );

  it(
    'turns Meta\u2019s re-engagement error into a failed message with a reason',
    async () => {
      const conv = await inbound(`491799${Math.floor(Math.random() * 1e7)}`, 'hi');
      const { sent, message: failed } = await settledSend(conv.id, () => ({ text: 'Hello!' }));
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatchObject({
        code: 'graph_131047',
        message: expect.stringMatching(/Re-engagement required/),
      });
      const events = await eventsOf(t, 'conversation.message.failed', (l) =>
        l.some((e) => e.data.message.id === sent.body.id),
      );
      expect(events.filter((e) => e.data.message.id === sent.body.id)).toHaveLength(1);
    },
    SENDS_TEST_MS,
  );
});

describe('scheduled messages', () => {
  it(
    'go at their time, once; a cancelled one never goes',
    async () => {
      const conv = await inbound(customer(), 'remind me later');
      const other = await send(conv.id, { text: 'Never mind', send_at: new Date(Date.now() + 60_000).toISOString() });
      const cancel = await call('DELETE', `/conversations/${conv.id}/messages/${other.body.id}`, authOf(t));
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe('canceled');
      expect((await call('DELETE', `/conversations/${conv.id}/messages/${other.body.id}`, authOf(t))).status).toBe(409);

      let at = '';
      const { sent: scheduled, message: sent } = await settledSend(conv.id, () => {
        // In the future by the API's clock too, which the chaos mode may set ahead of this one.
        at = new Date(Date.now() + 2000 + serverClockSkewMs()).toISOString();
        return { text: 'Your reminder', send_at: at };
      });
      expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduled_at: at });
      expect(sent.status).toBe('sent');
      expect(Date.parse(sent.sent_at)).toBeGreaterThanOrEqual(Date.parse(at) - 2 * serverClockSkewMs());
      await new Promise((r) => setTimeout(r, 2500));
      expect(await graphRequestsFor(scheduled.body.id)).toHaveLength(1);
      expect((await messageUntil(conv.id, other.body.id, (m) => m?.status === 'canceled')).status).toBe('canceled');
    },
    SENDS_TEST_MS,
  );

  it(
    'outside the window at their time: fall back to the template, or fail with their event',
    async () => {
      const conv = await inbound(customer(), 'long ago', 26);
      const soon = () => new Date(Date.now() + 1500 + serverClockSkewMs()).toISOString();
      const failing = await settledSend(conv.id, () => ({ text: 'Too late', send_at: soon() }));
      expect(failing.message).toMatchObject({ status: 'failed', error: { code: 'outside_service_window' } });
      const falling = await settledSend(conv.id, () => ({
        text: 'Too late too',
        send_at: soon(),
        fallback_template: fallback,
      }));
      expect(falling.message).toMatchObject({ status: 'sent', type: 'template' });
      const failedId = failing.sent.body.id;
      const events = await eventsOf(t, 'conversation.message.failed', (l) =>
        l.some((e) => e.data.message.id === failedId),
      );
      expect(events.find((e) => e.data.message.id === failedId).data.message.error.message).toMatch(
        /fallback_template/,
      );
    },
    SENDS_TEST_MS,
  );
});
