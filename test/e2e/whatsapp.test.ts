import { randomUUID } from 'node:crypto';
import {
  authOf,
  bookFor,
  call,
  connectWhatsApp,
  createTenant,
  eventsOf,
  eventually,
  settlesTo,
  type TestTenant,
} from '../support/api';
import { testRuntime } from '../support/runtime';
import {
  graphRequests,
  graphRequestsFor,
  PAYLOAD_SETTLES_MS,
  SEND_SETTLES_MS,
  settledWhatsAppSend,
  postWhatsAppWebhook as post,
  signWhatsApp as sign,
  statusUpdate,
  textMessage,
  whatsAppWebhook,
} from '../support/whatsapp';

// Timeouts cover the waits under the chaos mode: a payload part that failed comes back after the queue's
// visibility timeout (PAYLOAD_SETTLES_MS, 210 s).

/** Fixtures in Meta's documented webhook format (entry[].changes[].value.messages / .statuses). */
let t: TestTenant;
let phoneNumberId: string;

const webhook = (value: Record<string, unknown>, pnid = phoneNumberId) => whatsAppWebhook(pnid, value);
const messagesOf = async (tenant: TestTenant, convId: string) =>
  (await call('GET', `/conversations/${convId}/messages?limit=100`, authOf(tenant))).body.data as any[];
/** The tenant's conversations, once the inbound worker has stored what the webhook queued. */
const conversationsOf = async (tenant: TestTenant) =>
  (await call('GET', '/conversations?limit=100', authOf(tenant))).body.data as any[];
/**
 * Posts a message from a sentinel customer and waits until it is stored: the payloads posted before it
 * have been taken off the queue by then or are being worked on, so a short wait settles them. The
 * sentinel's own payload may fail once and come back after the queue's visibility timeout.
 */
async function settled(tenant: TestTenant, pnid = phoneNumberId) {
  const sentinel = `4915${Math.floor(Math.random() * 1e9)}`.slice(0, 13);
  await post(webhook(textMessage(sentinel, `sentinel ${sentinel}`), pnid));
  await eventually(
    () => conversationsOf(tenant),
    (list) => list.some((c) => c.customer.phone === `+${sentinel}`),
    PAYLOAD_SETTLES_MS,
  );
  await new Promise((r) => setTimeout(r, 1000));
  return `sentinel ${sentinel}`;
}

const connect = connectWhatsApp;

/** A test that waits for a send that long, twice (a send again after an unknown outcome). */
const SEND_TEST_MS = 2 * SEND_SETTLES_MS + 45_000;

beforeAll(async () => {
  // The hourly request limit is not what this file tests: its waits of minutes (a send settled by the sweeper,
  // a payload's second processing) poll lists, all on this one tenant.
  t = await createTenant('enterprise', { rate_limit_per_hour: 100_000 });
  // A leading 7: the fake Graph server gives numbers starting 40–53 special behaviour.
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  const res = await connect(t, phoneNumberId);
  expect(JSON.stringify(res.body)).not.toMatch(/EAAG|app-secret|verify-/);
});

describe('WhatsApp connection', () => {
  it('never returns the secrets, checks the token with Meta, and a number belongs to one tenant', async () => {
    const list = await call('GET', '/channels', authOf(t));
    expect(list.body.data).toEqual(
      expect.arrayContaining([
        { channel: 'sandbox' },
        expect.objectContaining({ channel: 'whatsapp', phone_number_id: phoneNumberId, status: 'active' }),
      ]),
    );
    expect(list.text).not.toMatch(/EAAG|app-secret|verify-/);
    // The platform's app is subscribed to the account's webhooks.
    const subscribed = (await (await fetch(`${testRuntime().graphUrl}/__subscribed_apps`)).json()) as any[];
    expect(subscribed.map((s) => s.waba_id)).toContain(`8${phoneNumberId}`);
    const other = await createTenant();
    const squat = await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: { phone_number_id: phoneNumberId, access_token: 'stolen-or-guessed' },
    });
    expect(squat.status).toBe(422);
    expect(squat.body.code).toBe('whatsapp_token_unsuitable');
    const short = await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: { phone_number_id: '7000000001', access_token: 'EAAG-short-lived' },
    });
    expect(short.status).toBe(422);
    expect(short.body.detail).toMatch(/expires within days/);
    const taken = await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: { phone_number_id: phoneNumberId, access_token: `EAAG-token-${phoneNumberId}` },
    });
    expect(taken.status).toBe(409);
  });

  it('connects a number through Embedded Signup: the code becomes a token and the app is subscribed', async () => {
    const tenant = await createTenant();
    // The tests configure the platform's app but no signup configuration: the dashboard offers the token form.
    const config = await call('GET', '/channels/whatsapp/embedded-signup', authOf(tenant));
    expect(config.body).toEqual({ available: false, app_id: null, config_id: null, graph_version: 'v26.0' });
    const number = `7${Math.floor(Math.random() * 1e9)}`;
    const bad = await call('POST', '/channels/whatsapp/embedded-signup', {
      ...authOf(tenant),
      body: { code: 'not-a-code', waba_id: '123', phone_number_id: number },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('whatsapp_signup_code_invalid');
    const res = await call('POST', '/channels/whatsapp/embedded-signup', {
      ...authOf(tenant),
      body: { code: `signup-${number}`, waba_id: '424242', phone_number_id: number },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      phone_number_id: number,
      status: 'active',
      webhook_path: '/api/v1/channels/whatsapp/webhook',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/EAAG/);
    const subscribed = (await (await fetch(`${testRuntime().graphUrl}/__subscribed_apps`)).json()) as any[];
    expect(subscribed).toContainEqual({ waba_id: '424242', token: `EAAG-token-${number}` });
    // Its customers' messages reach it, signed by the platform's app.
    await post(webhook(textMessage('4915166666666', 'hola'), number));
    await eventually(
      () => conversationsOf(tenant),
      (list) => list.length === 1,
    );
  });

  it("answers Meta's verification handshake for the platform's verify token, or a tenant's own app's", async () => {
    const ok = await call(
      'GET',
      '/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=platform-verify-token-for-tests&hub.challenge=1158201444',
    );
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    expect(ok.headers.get('content-type')).toContain('text/plain');
    const own = await createTenant();
    const ownNumber = `7${Math.floor(Math.random() * 1e9)}`;
    const connected = await call('POST', '/channels/whatsapp', {
      ...authOf(own),
      body: {
        phone_number_id: ownNumber,
        access_token: `EAAG-token-${ownNumber}`,
        app_secret: 'own-app-secret',
        verify_token: `verify-${ownNumber}-token`,
      },
    });
    expect(connected.status).toBe(201);
    const theirs = await call(
      'GET',
      `/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=verify-${ownNumber}-token&hub.challenge=7`,
    );
    expect(theirs.text).toBe('7');
    const bad = await call(
      'GET',
      '/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1',
    );
    expect(bad.status).toBe(403);
  });
});

describe('WhatsApp inbound webhook', () => {
  it('answers 200 at once and routes the message to the tenant by phone_number_id in the background', async () => {
    const res = await post(webhook(textMessage('4915112345678', 'Hola, quiero reservar')));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ queued: 1 });
    const [conv] = await eventually(
      () => conversationsOf(t),
      (list) => list.some((c) => c.channel === 'whatsapp'),
    );
    expect(conv).toMatchObject({
      channel: 'whatsapp',
      channel_account_id: phoneNumberId,
      customer: { phone: '+4915112345678', name: 'Carla' },
    });
  });

  it('refuses a bad signature with 401 and stores nothing', async () => {
    const forged = `forged ${randomUUID()}`;
    const payload = webhook(textMessage('4915112345678', forged));
    expect((await post(payload, sign(JSON.stringify(payload), 'wrong-secret'))).status).toBe(401);
    expect((await post(payload, 'sha256=00')).status).toBe(401);
    const raw = JSON.stringify(payload);
    const missing = await call('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(missing.status).toBe(401);
    const sentinel = await settled(t);
    // The events list is eventually consistent: read it once it shows the sentinel's message, which was
    // posted after the forged ones.
    const received = await eventsOf(t, 'conversation.message.received', (events) =>
      events.some((e) => e.data.message.text === sentinel),
    );
    expect(received.filter((e) => e.data.message.text === forged)).toEqual([]);
  }, 270_000);

  it("checks a tenant's own app's signature for its own numbers", async () => {
    const other = await createTenant();
    const otherNumber = `7${Math.floor(Math.random() * 1e9)}`;
    await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: {
        phone_number_id: otherNumber,
        access_token: `EAAG-token-${otherNumber}`,
        app_secret: 'other-app-secret',
        verify_token: `verify-${otherNumber}-x`,
      },
    });
    const theirs = webhook(textMessage('4915177777777', 'for the other tenant'), otherNumber);
    expect((await post(theirs, sign(JSON.stringify(theirs), 'wrong-secret'))).status).toBe(401);
    expect((await post(theirs, sign(JSON.stringify(theirs), 'other-app-secret'))).status).toBe(200);
    await eventually(
      () => conversationsOf(other),
      (list) => list.length === 1,
    );
    // A template review names no number, only Meta's template id, which could be anyone's: under a
    // tenant's own app's signature it is not taken (the platform app's reviews are, whatsapp-templates).
    const review = {
      id: 'WABA_ID',
      changes: [
        {
          field: 'message_template_status_update',
          value: { event: 'APPROVED', message_template_id: 1_000_000_000_001, reason: 'NONE' },
        },
      ],
    };
    const withReview = { ...theirs, entry: [...theirs.entry, review] };
    const answered = await post(withReview, sign(JSON.stringify(withReview), 'other-app-secret'));
    expect(answered).toMatchObject({ status: 200, body: { queued: 1 } });
  });

  it(
    'always answers a signed payload with 200, however odd: skipped items are counted, the rest is kept',
    async () => {
      const long = 'x'.repeat(5000);
      const many = Array.from({ length: 70 }, (_, i) => ({
        from: '4915100000777',
        id: `wamid.bulk-${randomUUID()}-${i}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body: `${i} ${'y'.repeat(4000)}` },
      }));
      const payloads = [
        { entry: [{ changes: 'x' }] },
        { entry: [{ changes: [null] }] },
        webhook(textMessage('49151', 'x'), '9'.repeat(3000)),
        {
          object: 'whatsapp_business_account',
          entry: Array.from({ length: 11 }, (_, i) => webhook({}, `${900000 + i}`).entry[0]),
        },
        webhook(textMessage('4915100000778', long)),
        // Over 256 KB: Meta batches up to a few MB.
        webhook({ contacts: [{ wa_id: '4915100000777', profile: { name: 'Bulk' } }], messages: many }),
      ];
      expect(JSON.stringify(payloads[5]).length).toBeGreaterThan(256 * 1024);
      for (const payload of payloads) expect((await post(payload)).status).toBe(200);
      const stored = await eventually(
        async () => {
          const conv = (await conversationsOf(t)).find((c) => c.customer.phone === '+4915100000777');
          return conv ? messagesOf(t, conv.id) : [];
        },
        (list) => list.length === 70,
        PAYLOAD_SETTLES_MS,
      );
      expect(new Set(stored.map((m) => m.provider_message_id)).size).toBe(70);
      const truncated = await eventually(
        async () => {
          const conv = (await conversationsOf(t)).find((c) => c.customer.phone === '+4915100000778');
          return conv ? messagesOf(t, conv.id) : [];
        },
        (list) => list.length === 1,
      );
      expect(truncated[0].text).toHaveLength(4096);
    },
    PAYLOAD_SETTLES_MS + 60_000,
  );

  it('ignores numbers nobody connected', async () => {
    const res = await post(webhook(textMessage('4915112345678', 'hi'), '999000999000'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ queued: 1 });
  });

  it('ignores duplicate deliveries of the same wamid', async () => {
    const wamid = `wamid.${randomUUID()}`;
    const payload = webhook(textMessage('4915199999999', 'only once', wamid));
    expect((await post(payload)).status).toBe(200);
    expect((await post(payload)).status).toBe(200);
    await settled(t);
    // Read by id (strongly consistent): the list of conversations only finds it.
    const conv = await eventually(
      async () => (await conversationsOf(t)).find((c) => c.customer.phone === '+4915199999999'),
      (c) => c !== undefined,
    );
    const got = await call('GET', `/conversations/${conv.id}`, authOf(t));
    expect(got.body.messages.filter((m: any) => m.provider_message_id === wamid)).toHaveLength(1);
    const received = await eventsOf(t, 'conversation.message.received', (events) =>
      events.some((e) => e.data.message.provider_message_id === wamid),
    );
    expect(received.filter((e) => e.data.message.provider_message_id === wamid)).toHaveLength(1);
  }, 270_000);

  it(
    "acts on a customer's taps on a reminder's quick replies: Confirm confirms their booking, Cancel cancels it",
    async () => {
      const phone = '4915100000781';
      const now = Math.floor(Date.now() / 1000);
      const tapOn = (text: string, payload: string) =>
        webhook({
          contacts: [{ wa_id: phone, profile: { name: 'Lena' } }],
          messages: [
            {
              from: phone,
              id: `wamid.${randomUUID()}`,
              timestamp: String(now),
              type: 'button',
              button: { text, payload },
            },
          ],
        });
      await post(webhook(textMessage(phone, 'I booked for this afternoon')));
      const conv = await eventually(
        async () => (await conversationsOf(t)).find((c) => c.customer.phone === `+${phone}`),
        (c) => c !== undefined,
        PAYLOAD_SETTLES_MS,
      );
      const booking = await bookFor(t, conv, 3 * 3_600_000);
      const bookingOf = async () => (await call('GET', `/bookings/${booking.id}`, authOf(t))).body;
      await post(tapOn('Confirm', `reminder:${booking.id}:confirm`));
      expect((await eventually(bookingOf, (b) => b.status === 'confirmed', PAYLOAD_SETTLES_MS)).status).toBe(
        'confirmed',
      );
      await post(tapOn('Cancel', `reminder:${booking.id}:cancel`));
      const cancelled = await eventually(bookingOf, (b) => b.status === 'cancelled', PAYLOAD_SETTLES_MS);
      expect(cancelled.cancellation.by).toEqual({ type: 'customer', id: conv.customer.id });
      const answersOf = async () =>
        (await eventsOf(t, 'booking.reminder.answered'))
          .filter((e) => e.data.booking.id === booking.id)
          .map((e) => e.data.answer as string);
      const answers = await eventually(answersOf, (list) => list.length >= 2, PAYLOAD_SETTLES_MS);
      expect(answers.sort()).toEqual(['cancel', 'confirm']);
    },
    3 * PAYLOAD_SETTLES_MS,
  );

  it('keeps button replies, captions and locations; reactions attach to their message and reopen nothing', async () => {
    const phone = '4915100000779';
    const now = Math.floor(Date.now() / 1000);
    const from = (type: string, extra: Record<string, unknown>, id = `wamid.${randomUUID()}`) => ({
      contacts: [{ wa_id: phone, profile: { name: 'Rita' } }],
      messages: [{ from: phone, id, timestamp: String(now), type, ...extra }],
    });
    const first = `wamid.${randomUUID()}`;
    await post(webhook(from('text', { text: { body: 'hello' } }, first)));
    await post(webhook(from('button', { button: { text: 'Confirm', payload: 'confirm' } })));
    await post(webhook(from('image', { image: { id: 'media-1', caption: 'the rash' } })));
    await post(webhook(from('location', { location: { latitude: 52.52, longitude: 13.4, name: 'Salon' } })));
    const conv = await eventually(
      async () => (await conversationsOf(t)).find((c) => c.customer.phone === `+${phone}`),
      (c) => c !== undefined,
    );
    const texts = await eventually(
      async () => (await messagesOf(t, conv.id)).map((m) => m.text),
      (list) => list.length === 4,
    );
    expect(texts.sort()).toEqual(['Confirm', '[image] the rash', '[location] Salon (52.52, 13.4)', 'hello'].sort());
    expect(
      (await call('PATCH', `/conversations/${conv.id}`, { ...authOf(t), body: { status: 'resolved' } })).status,
    ).toBe(200);
    await post(webhook(from('reaction', { reaction: { message_id: first, emoji: '\u{1F44D}' } })));
    await post(webhook(from('unsupported', { errors: [{ code: 131051 }] })));
    const reacted = await eventually(
      async () => (await messagesOf(t, conv.id)).find((m) => m.provider_message_id === first),
      (m) => m?.reaction !== null,
    );
    expect(reacted.reaction).toMatchObject({ emoji: '\u{1F44D}' });
    await settled(t);
    expect((await call('GET', `/conversations/${conv.id}`, authOf(t))).body.status).toBe('resolved');
    expect((await messagesOf(t, conv.id)).length).toBe(4);
    expect((await conversationsOf(t)).filter((c) => c.customer.phone === `+${phone}`)).toHaveLength(1);
  }, 270_000);

  it('runs the service window from the message\u2019s own time, so a late webhook opens no window', async () => {
    const phone = '4915100000780';
    const wrote = Math.floor(Date.now() / 1000) - 25 * 3600;
    await post(
      webhook({
        contacts: [{ wa_id: phone, profile: { name: 'Late' } }],
        messages: [
          { from: phone, id: `wamid.${randomUUID()}`, timestamp: String(wrote), type: 'text', text: { body: 'old' } },
        ],
      }),
    );
    const conv = await eventually(
      async () => (await conversationsOf(t)).find((c) => c.customer.phone === `+${phone}`),
      (c) => c !== undefined,
    );
    expect(conv.last_inbound_at).toBe(new Date(wrote * 1000).toISOString());
    const send = await call('POST', `/conversations/${conv.id}/messages`, { ...authOf(t), body: { text: 'hi' } });
    expect(send.status).toBe(422);
    expect(send.body.code).toBe('outside_service_window');
  });
});

describe('WhatsApp outbound and receipts', () => {
  async function conversationWith(tenant: TestTenant, phone: string, pnid = phoneNumberId) {
    await post(webhook(textMessage(phone, 'I need help'), pnid));
    return eventually(
      async () => (await conversationsOf(tenant)).find((c) => c.customer.phone === `+${phone}`),
      (c) => c !== undefined,
    );
  }
  const messageById = async (tenant: TestTenant, convId: string, id: string) =>
    (await messagesOf(tenant, convId)).find((m) => m.id === id);

  it(
    "calls the Graph API with the number's token, then applies receipts without ever moving backwards",
    async () => {
      const conv = await conversationWith(t, '4915100000001');
      const { sent, message } = await settledWhatsAppSend(
        () =>
          call('POST', `/conversations/${conv.id}/messages`, {
            ...authOf(t),
            body: { text: 'We can see you on Friday.' },
          }),
        (id) => messageById(t, conv.id, id),
        graphRequestsFor,
        (m) => m?.status === 'sent',
      );
      expect(message.provider_message_id).toMatch(/^wamid\./);
      const [request] = await graphRequestsFor(sent.body.id);
      expect(request).toMatchObject({
        phone_number_id: phoneNumberId,
        authorization: `Bearer EAAG-token-${phoneNumberId}`,
        problems: [],
      });
      expect(request.body).toMatchObject({
        messaging_product: 'whatsapp',
        to: '4915100000001',
        type: 'text',
        biz_opaque_callback_data: `${t.tenantId}/${conv.id}/${sent.body.id}`,
      });

      const now = Math.floor(Date.now() / 1000);
      await post(webhook(statusUpdate(message.provider_message_id, 'read', now + 2)));
      await eventually(
        () => messageById(t, conv.id, sent.body.id),
        (m) => m?.status === 'read',
      );
      // Late, out-of-order receipts are ignored.
      await post(webhook(statusUpdate(message.provider_message_id, 'delivered', now + 1)));
      await post(
        webhook(
          statusUpdate(message.provider_message_id, 'failed', now + 3, {
            errors: [{ code: 131047, title: 'Re-engagement message' }],
          }),
        ),
      );
      await settled(t);
      const final = await messageById(t, conv.id, sent.body.id);
      expect(final.status).toBe('read');
      expect(final.read_at).toBe(new Date((now + 2) * 1000).toISOString());
      expect(final.delivered_at).toBe(final.read_at);
      const events = await eventually(
        async () =>
          (await eventsOf(t, 'conversation.*')).filter((e) => e.data.message?.id === sent.body.id).map((e) => e.type),
        (types) => types.length >= 2,
      );
      expect(events.sort()).toEqual(['conversation.message.read', 'conversation.message.sent']);
    },
    SEND_TEST_MS + PAYLOAD_SETTLES_MS + 60_000,
  );

  it(
    "never lets one tenant touch another tenant's messages with a forged receipt",
    async () => {
      const conv = await conversationWith(t, '4915100000011');
      const { sent, message: ours } = await settledWhatsAppSend(
        () => call('POST', `/conversations/${conv.id}/messages`, { ...authOf(t), body: { text: 'ours' } }),
        (id) => messageById(t, conv.id, id),
        graphRequestsFor,
        (m) => m?.status === 'sent',
      );
      const attacker = await createTenant();
      const attackerNumber = `7${Math.floor(Math.random() * 1e9)}`;
      await call('POST', '/channels/whatsapp', {
        ...authOf(attacker),
        body: {
          phone_number_id: attackerNumber,
          access_token: `EAAG-token-${attackerNumber}`,
          app_secret: 'attacker-secret',
          verify_token: `verify-${attackerNumber}-x`,
        },
      });
      const forged = webhook(
        statusUpdate(ours.provider_message_id, 'failed', undefined, { errors: [{ code: 1, title: 'forged' }] }),
        attackerNumber,
      );
      expect((await post(forged, sign(JSON.stringify(forged), 'attacker-secret'))).status).toBe(200);
      await settled(t);
      expect((await messageById(t, conv.id, sent.body.id)).status).toBe('sent');
    },
    SEND_TEST_MS + PAYLOAD_SETTLES_MS + 30_000,
  );

  it('keeps the window of the business number and the customer across conversations', async () => {
    const phone = '4915100000013';
    const first = await conversationWith(t, phone);
    expect(
      (await call('PATCH', `/conversations/${first.id}`, { ...authOf(t), body: { status: 'resolved' } })).status,
    ).toBe(200);
    // A resolved conversation can still be answered while Meta's window is open.
    const late = await call('POST', `/conversations/${first.id}/messages`, {
      ...authOf(t),
      body: { text: 'One more thing' },
    });
    expect(late.status).toBe(202);
    // So can a new one the business opens for the same customer on the same number.
    await eventually(
      async () => (await call('GET', `/conversations?customer_id=${first.customer.id}`, authOf(t))).body.data,
      (list: any[]) => list.length > 0,
    );
    const opened = await call('POST', '/conversations', {
      ...authOf(t),
      body: {
        channel: 'whatsapp',
        customer: { id: first.customer.id },
        message: { text: 'Your booking is confirmed' },
      },
    });
    expect(opened.status).toBe(201);
    expect(opened.body.last_inbound_at).toBe(first.last_inbound_at);
    expect(opened.body.messages).toHaveLength(1);
  });

  it('refuses free text outside the 24-hour customer-service window', async () => {
    const res = await call('POST', '/conversations', {
      ...authOf(t),
      body: { channel: 'whatsapp', customer: { phone: '+4915100000002' }, message: { text: 'Special offer!' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('outside_service_window');
    const opened = await call('POST', '/conversations', {
      ...authOf(t),
      body: { channel: 'whatsapp', customer: { phone: '+4915100000002' } },
    });
    expect(opened.status).toBe(201);
    const send = await call('POST', `/conversations/${opened.body.id}/messages`, {
      ...authOf(t),
      body: { text: 'hello?' },
    });
    expect(send.status).toBe(422);
    expect(send.body.code).toBe('outside_service_window');
  });

  /** A tenant whose number makes the fake Graph server behave as its prefix says, with one conversation. */
  async function sendThrough(prefix: string, customer: string, text: string, until = ['sent', 'failed']) {
    const tenant = await createTenant();
    const number = `${prefix}${Math.floor(Math.random() * 1e9)}`;
    await connect(tenant, number);
    const conv = await conversationWith(tenant, customer, number);
    const callsOf = async () => (await graphRequests()).filter((r) => r.body?.text?.body === text);
    const attemptsOf = async () => (await callsOf()).length;
    const { message } = await settledWhatsAppSend(
      () => call('POST', `/conversations/${conv.id}/messages`, { ...authOf(tenant), body: { text } }),
      (id) => messageById(tenant, conv.id, id),
      callsOf,
      (m) => until.includes(m?.status),
    );
    return { tenant, number, conv, message, attempts: await attemptsOf() };
  }

  it(
    'decides by Meta\u2019s error code: throttling sent as HTTP 400 is retried, permanent codes fail at once',
    async () => {
      const [flaky, throughput, pair, invalid] = await Promise.all([
        sendThrough('50', '4915100000003', 'after two 500s'),
        sendThrough('42', '4915100000005', 'after a 130429'),
        sendThrough('41', '4915100000007', 'after a 131056'),
        sendThrough('44', '4915100000008', 'an invalid parameter'),
      ]);
      expect(flaky.message.status).toBe('sent');
      expect(flaky.attempts).toBe(3);
      expect(throughput.message.status).toBe('sent');
      expect(throughput.attempts).toBe(2);
      expect(pair.message.status).toBe('sent');
      expect(pair.attempts).toBe(2);
      expect(invalid.message.status).toBe('failed');
      expect(invalid.message.error).toMatchObject({ code: 'graph_100' });
      expect(invalid.attempts).toBe(1);
      // The event list is eventually consistent: read until the event shows, then there is exactly one for
      // the message. (A first try that never reached Graph failed too, with an event of its own, when the chaos
      // mode's timeouts made the helper send again, as a person would.)
      const ofMessage = (events: any[]) => events.filter((e) => e.data.message.id === invalid.message.id);
      const failed = await eventsOf(invalid.tenant, 'conversation.message.failed', (e) => ofMessage(e).length > 0);
      expect(ofMessage(failed)).toHaveLength(1);
    },
    SEND_TEST_MS,
  );

  it(
    'fails a message that Meta accepted and later reported undeliverable (131026), from the status',
    async () => {
      const undeliverable = await sendThrough('40', '4915100000004', 'undeliverable', ['failed']);
      expect(undeliverable.message.error).toMatchObject({ code: 'whatsapp_131026' });
      expect(undeliverable.message.provider_message_id).toMatch(/^wamid\./);
      expect(undeliverable.attempts).toBe(1);
    },
    SEND_TEST_MS,
  );

  it(
    'flags the channel when Meta refuses its token (190): one event, and no further calls',
    async () => {
      let expired = await sendThrough('49', '4915100000009', 'token expired', ['failed']);
      // A sender that died after Graph refused the token (the chaos mode's timeouts) leaves the outcome
      // unknown, and no status webhook follows a refused send: the client sends again.
      for (let retry = 0; retry < 2 && expired.message.error?.code === 'outcome_unknown'; retry++)
        expired = await sendThrough('49', '4915100000009', 'token expired', ['failed']);
      expect(expired.message.error).toMatchObject({ code: 'channel_needs_reauthorization' });
      const channels = (await call('GET', '/channels', authOf(expired.tenant))).body.data;
      expect(channels.find((c: any) => c.phone_number_id === expired.number).status).toBe('needs_reauthorization');
      const events = await eventually(
        () => eventsOf(expired.tenant, 'channel.reauthorization_required'),
        (list) => list.length > 0,
      );
      expect(events[0].data.channel).toMatchObject({
        phone_number_id: expired.number,
        status: 'needs_reauthorization',
      });
      const again = await call('POST', `/conversations/${expired.conv.id}/messages`, {
        ...authOf(expired.tenant),
        body: { text: 'token expired, second try' },
      });
      await eventually(
        () => messageById(expired.tenant, expired.conv.id, again.body.id),
        (m) => m?.status === 'failed',
        SEND_SETTLES_MS,
      );
      expect((await graphRequests()).filter((r) => r.body?.text?.body === 'token expired, second try')).toHaveLength(0);
      expect(await eventsOf(expired.tenant, 'channel.reauthorization_required')).toHaveLength(1);
    },
    2 * SEND_TEST_MS,
  );

  it(
    'applies statuses that arrive before the send is recorded, out of order',
    async () => {
      const early = await sendThrough('45', '4915100000010', 'statuses first', ['read']);
      expect(early.message.read_at).not.toBeNull();
      expect(early.message.delivered_at).not.toBeNull();
      expect(early.attempts).toBe(1);
    },
    SEND_TEST_MS,
  );

  it(
    'never resends a timed-out send: its outcome is settled from the status webhook',
    async () => {
      const slow = await sendThrough('46', '4915100000012', 'a slow Graph', ['delivered']);
      expect(slow.message.provider_message_id).toMatch(/^wamid\./);
      expect(slow.attempts).toBe(1);
    },
    SEND_TEST_MS,
  );

  it(
    'retries from the queue a send whose first attempt failed, and sends it once',
    async () => {
      // The first attempt (the dispatcher's asynchronous invocation) meets three 503s and fails; Lambda's
      // destination record puts it on the ChannelOutbound queue, whose delivery makes the fourth call.
      const outage = await sendThrough('53', '4915100000006', 'after an outage');
      expect(outage.message).toMatchObject({ status: 'sent' });
      expect(outage.attempts).toBe(4);
      const sentEvents = await eventually(
        () => eventsOf(outage.tenant, 'conversation.message.sent'),
        (found) => found.length > 0,
      );
      expect(sentEvents).toHaveLength(1);
    },
    SEND_TEST_MS,
  );
});

describe('WhatsApp users known by their business-scoped user id (username users)', () => {
  const newUserId = () => `US.${String(Math.floor(Math.random() * 1e10)).padStart(10, '1')}${Date.now()}`;
  /** A message as Meta sends it: `from` and `wa_id` only when the user shows their phone number. */
  const fromUser = (text: string, ids: { userId: string; phone?: string; username?: string }) => ({
    contacts: [
      {
        user_id: ids.userId,
        ...(ids.phone ? { wa_id: ids.phone } : {}),
        profile: { name: 'Carla', ...(ids.username ? { username: ids.username } : {}) },
      },
    ],
    messages: [
      {
        from_user_id: ids.userId,
        ...(ids.phone ? { from: ids.phone } : {}),
        id: `wamid.${randomUUID()}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body: text },
      },
    ],
  });
  const conversationOf = (userId: string) =>
    eventually(
      async () => (await conversationsOf(t)).filter((c) => c.customer.whatsapp_user_id === userId),
      (list) => list.length > 0,
    );
  const inboundTexts = async (convId: string) =>
    (await messagesOf(t, convId)).filter((m) => m.direction === 'inbound').map((m) => m.text);
  const customerByPhone = async (phone: string) =>
    (await call('GET', `/customers?phone=${encodeURIComponent(phone)}`, authOf(t))).body.data as any[];
  /** Replies with `text`: the reply once settled, and Graph's request for it. */
  async function reply(convId: string, text: string) {
    const { sent, message } = await settledWhatsAppSend(
      () => call('POST', `/conversations/${convId}/messages`, { ...authOf(t), body: { text } }),
      async (id) => (await messagesOf(t, convId)).find((m) => m.id === id),
      graphRequestsFor,
    );
    return { message, request: (await graphRequestsFor(sent.body.id))[0] };
  }

  it(
    'opens a conversation for a message with no phone number, answers it by the BSUID, and links the phone when it comes',
    async () => {
      const userId = newUserId();
      const phone = `4917${Math.floor(Math.random() * 1e9)}`;
      expect((await post(webhook(fromUser('hi, no number here', { userId, username: 'carla.g' })))).status).toBe(200);
      const [conv] = await conversationOf(userId);
      expect(conv.customer).toMatchObject({ phone: null, whatsapp_user_id: userId, whatsapp_username: 'carla.g' });
      expect(conv.channel_account_id).toBe(phoneNumberId);

      const { message, request } = await reply(conv.id, `Hello ${userId}`);
      expect(request.problems).toEqual([]);
      expect(request.body.recipient).toBe(userId);
      expect(request.body.to).toBeUndefined();
      expect(message.status).toBe('sent');
      // Booked by customer id, with no phone number to name them by.
      const booking = await call('POST', '/bookings', {
        ...authOf(t),
        body: {
          customer: { id: conv.customer.id },
          conversation_id: conv.id,
          service: 'Cut',
          timezone: 'Europe/Berlin',
          start_at: '2031-02-03T09:00:00.000Z',
          end_at: '2031-02-03T10:00:00.000Z',
        },
      });
      expect(booking.status).toBe(201);
      expect(booking.body.customer).toMatchObject({ id: conv.customer.id, phone: null, whatsapp_user_id: userId });

      // The user shows their number later: the same customer, the same conversation.
      await post(webhook(fromUser('now with my number', { userId, phone })));
      await eventually(
        () => inboundTexts(conv.id),
        (texts) => texts.includes('now with my number'),
      );
      expect(await conversationOf(userId)).toHaveLength(1);
      const [customer] = await customerByPhone(`+${phone}`);
      expect(customer).toMatchObject({
        id: conv.customer.id,
        phone: `+${phone}`,
        whatsapp_user_id: userId,
        whatsapp_username: 'carla.g',
      });
      // The conversation's copy of the customer learns the phone number, and replies go to it (it wins).
      await eventually(
        async () => (await conversationOf(userId))[0].customer.phone,
        (p) => p === `+${phone}`,
      );
      expect((await reply(conv.id, `By phone ${userId}`)).request.body.to).toBe(phone);
      // The booking's copy too: at once if the bookings index showed it, else within seconds (docs/architecture.md).
      await eventually(
        async () => (await call('GET', `/bookings/${booking.body.id}`, authOf(t))).body.customer,
        (c) => c.phone === `+${phone}` && c.whatsapp_user_id === userId,
      );
    },
    2 * SEND_TEST_MS,
  );

  it('keeps a phone customer\u2019s conversation when they are seen by BSUID, with or without the number', async () => {
    const userId = newUserId();
    const phone = `4917${Math.floor(Math.random() * 1e9)}`;
    await post(webhook(textMessage(phone, 'first, by phone')));
    const conv = await eventually(
      async () => (await conversationsOf(t)).find((c) => c.customer.phone === `+${phone}`),
      (c) => c !== undefined,
    );
    await post(webhook(fromUser('second, both', { userId, phone })));
    await eventually(
      () => inboundTexts(conv.id),
      (texts) => texts.includes('second, both'),
    );
    // The number withheld now: the BSUID finds the customer, and the conversation opened by phone.
    await post(webhook(fromUser('third, BSUID only', { userId })));
    await eventually(
      () => inboundTexts(conv.id),
      (texts) => texts.includes('third, BSUID only'),
    );
    const mine = (await conversationsOf(t)).filter((c) => c.customer.id === conv.customer.id);
    expect(mine).toHaveLength(1);
    expect((await customerByPhone(`+${phone}`))[0]).toMatchObject({ id: conv.customer.id, whatsapp_user_id: userId });
    // Resolved, the next BSUID-only message opens the customer's next conversation, under the same customer.
    const resolved = await call('PATCH', `/conversations/${conv.id}`, { ...authOf(t), body: { status: 'resolved' } });
    expect(resolved.status).toBe(200);
    await post(webhook(fromUser('fourth, a new matter', { userId })));
    const next = await eventually(
      async () => (await conversationsOf(t)).filter((c) => c.customer.id === conv.customer.id && c.id !== conv.id),
      (list) => list.length === 1,
    );
    // A list: it may show the conversation a moment before its message.
    await settlesTo(() => inboundTexts(next[0].id), ['fourth, a new matter']);
  });

  it('keeps the phone customer when the phone and the BSUID belong to two: the BSUID moves to them', async () => {
    const userId = newUserId();
    const phone = `4917${Math.floor(Math.random() * 1e9)}`;
    await post(webhook(fromUser('as a username user', { userId })));
    const [byUserId] = await conversationOf(userId);
    await post(webhook(textMessage(phone, 'as a phone user')));
    const byPhone = await eventually(
      async () => (await conversationsOf(t)).find((c) => c.customer.phone === `+${phone}`),
      (c) => c !== undefined,
    );
    expect(byPhone.customer.id).not.toBe(byUserId.customer.id);
    await post(webhook(fromUser('both at last', { userId, phone })));
    await eventually(
      () => inboundTexts(byPhone.id),
      (texts) => texts.includes('both at last'),
    );
    expect((await customerByPhone(`+${phone}`))[0]).toMatchObject({
      id: byPhone.customer.id,
      whatsapp_user_id: userId,
    });
    const previous = await call('GET', `/customers/${byUserId.customer.id}`, authOf(t));
    expect(previous.body).toMatchObject({ phone: null, whatsapp_user_id: null });
    // From now on the BSUID alone finds the phone customer's conversation; the other keeps its history.
    await post(webhook(fromUser('BSUID only again', { userId })));
    await eventually(
      () => inboundTexts(byPhone.id),
      (texts) => texts.includes('BSUID only again'),
    );
    await settlesTo(() => inboundTexts(byUserId.id), ['as a username user']);
  });
});

describe('Graph API versions', () => {
  it('uses the configured version, and the fake refuses a retired one as Meta does', async () => {
    const { graphCall, GraphError: Err } = await import('../../functions/channels/whatsapp');
    const saved = { url: process.env.WHATSAPP_GRAPH_URL, version: process.env.WHATSAPP_GRAPH_VERSION };
    process.env.WHATSAPP_GRAPH_URL = testRuntime().graphUrl;
    try {
      process.env.WHATSAPP_GRAPH_VERSION = 'v20.0';
      const error = await graphCall('GET', phoneNumberId, { accessToken: `EAAG-token-${phoneNumberId}` }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Err);
      expect((error as InstanceType<typeof Err>).metaCode).toBe(2635);
      delete process.env.WHATSAPP_GRAPH_VERSION;
      const ok = await graphCall<{ id: string }>('GET', phoneNumberId, { accessToken: `EAAG-token-${phoneNumberId}` });
      expect(ok.id).toBe(phoneNumberId);
    } finally {
      process.env.WHATSAPP_GRAPH_URL = saved.url;
      if (saved.version) process.env.WHATSAPP_GRAPH_VERSION = saved.version;
    }
  });
});
