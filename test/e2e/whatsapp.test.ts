import { createHmac, randomUUID } from 'node:crypto';
import {
  WHATSAPP_APP_SECRET,
  authOf,
  call,
  connectWhatsApp,
  createTenant,
  eventsOf,
  eventually,
  type TestTenant,
} from '../support/api';
import { testRuntime } from '../support/runtime';

/** Fixtures in Meta's documented webhook format (entry[].changes[].value.messages / .statuses). */
const APP_SECRET = WHATSAPP_APP_SECRET;
let t: TestTenant;
let phoneNumberId: string;

const sign = (raw: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
const webhook = (value: Record<string, unknown>, pnid = phoneNumberId) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA_ID',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: pnid },
            ...value,
          },
        },
      ],
    },
  ],
});
const textMessage = (from: string, text: string, wamid = `wamid.${randomUUID()}`) => ({
  contacts: [{ profile: { name: 'Carla' }, wa_id: from }],
  messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
});
const statusUpdate = (wamid: string, status: string, timestamp: number, errors?: unknown[]) => ({
  statuses: [
    { id: wamid, status, timestamp: String(timestamp), recipient_id: '4915112345678', ...(errors ? { errors } : {}) },
  ],
});
async function post(payload: unknown, signature?: string) {
  const raw = JSON.stringify(payload);
  return call('POST', '/channels/whatsapp/webhook', {
    rawBody: raw,
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature ?? sign(raw) },
  });
}
const graphRequests = async () => (await fetch(`${testRuntime().graphUrl}/__requests`)).json() as Promise<any[]>;

const connect = connectWhatsApp;

beforeAll(async () => {
  t = await createTenant();
  // A leading 7: the fake Graph server gives numbers starting 40, 42 and 50 special behaviour.
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  const res = await connect(t, phoneNumberId);
  expect(JSON.stringify(res.body)).not.toMatch(/EAAG|app-secret|verify-/);
});

describe('WhatsApp connection', () => {
  it('never returns the secrets, and a number belongs to one tenant', async () => {
    const list = await call('GET', '/channels', authOf(t));
    expect(list.body.data).toEqual(
      expect.arrayContaining([
        { channel: 'sandbox' },
        expect.objectContaining({ channel: 'whatsapp', phone_number_id: phoneNumberId }),
      ]),
    );
    expect(list.text).not.toMatch(/EAAG|app-secret|verify-/);
    const other = await createTenant();
    const squat = await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: {
        phone_number_id: phoneNumberId,
        access_token: 'stolen-or-guessed',
        app_secret: 'y',
        verify_token: 'zzzzzzzz',
      },
    });
    expect(squat.status).toBe(422);
    expect(squat.body.code).toBe('whatsapp_credentials_invalid');
    const taken = await call('POST', '/channels/whatsapp', {
      ...authOf(other),
      body: {
        phone_number_id: phoneNumberId,
        access_token: `EAAG-token-${phoneNumberId}`,
        app_secret: 'y',
        verify_token: 'zzzzzzzz',
      },
    });
    expect(taken.status).toBe(409);
  });

  it("answers Meta's verification handshake only for a configured verify token", async () => {
    const ok = await call(
      'GET',
      `/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=verify-${phoneNumberId}-token&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    expect(ok.headers.get('content-type')).toContain('text/plain');
    const bad = await call(
      'GET',
      '/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1',
    );
    expect(bad.status).toBe(403);
  });
});

describe('WhatsApp inbound webhook', () => {
  it('accepts a correctly signed message and routes it to the tenant by phone_number_id', async () => {
    const res = await post(webhook(textMessage('4915112345678', 'Hola, quiero reservar')));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 1 });
    const list = await call('GET', '/conversations?channel=whatsapp', authOf(t));
    expect(list.body.data[0]).toMatchObject({
      channel: 'whatsapp',
      channel_account_id: phoneNumberId,
      customer: { phone: '+4915112345678', name: 'Carla' },
    });
  });

  it('refuses a bad signature with 401 and stores nothing', async () => {
    const before = (await eventsOf(t, 'conversation.message.received')).length;
    const payload = webhook(textMessage('4915112345678', 'forged'));
    expect((await post(payload, sign(JSON.stringify(payload), 'wrong-secret'))).status).toBe(401);
    expect((await post(payload, 'sha256=00')).status).toBe(401);
    const raw = JSON.stringify(payload);
    const missing = await call('POST', '/channels/whatsapp/webhook', {
      rawBody: raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(missing.status).toBe(401);
    expect((await eventsOf(t, 'conversation.message.received')).length).toBe(before);
  });

  it('checks each number against its own app secret, also in mixed batches', async () => {
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
    expect((await post(theirs)).status).toBe(401); // signed with our secret, not theirs
    expect((await post(theirs, sign(JSON.stringify(theirs), 'other-app-secret'))).status).toBe(200);
    const mixed = {
      object: 'whatsapp_business_account',
      entry: [...webhook(textMessage('4915177777778', 'a')).entry, ...theirs.entry],
    };
    expect((await post(mixed)).status).toBe(401);
    expect((await post(mixed, sign(JSON.stringify(mixed), 'other-app-secret'))).status).toBe(401);
  });

  it("never lets one tenant touch another tenant's messages with a forged receipt", async () => {
    const conv = (await call('GET', '/conversations?channel=whatsapp', authOf(t))).body.data[0];
    const sent = await call('POST', `/conversations/${conv.id}/messages`, {
      ...authOf(t),
      body: { text: 'our message' },
    });
    const ours = await eventually(
      async () =>
        (await call('GET', `/conversations/${conv.id}/messages`, authOf(t))).body.data.find(
          (m: { id: string }) => m.id === sent.body.id,
        ),
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
      statusUpdate(ours.provider_message_id, 'failed', Math.floor(Date.now() / 1000), [{ code: 1, title: 'forged' }]),
      attackerNumber,
    );
    const res = await post(forged, sign(JSON.stringify(forged), 'attacker-secret'));
    expect(res.body.receipts).toBe(0);
    const after = (await call('GET', `/conversations/${conv.id}/messages`, authOf(t))).body.data.find(
      (m: { id: string }) => m.id === sent.body.id,
    );
    expect(after.status).toBe('sent');
  });

  it('refuses malformed payloads with 422, before any lookup', async () => {
    for (const payload of [
      { entry: [{ changes: 'x' }] },
      { entry: [{ changes: [null] }] },
      webhook(textMessage('49151', 'x'), '9'.repeat(3000)),
    ]) {
      expect((await post(payload)).status).toBe(422);
    }
    const many = {
      object: 'whatsapp_business_account',
      entry: Array.from({ length: 11 }, (_, i) => webhook({}, `${900000 + i}`).entry[0]),
    };
    const tooMany = await post(many);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe('too_many_numbers');
  });

  it('ignores numbers nobody connected', async () => {
    const res = await post(webhook(textMessage('4915112345678', 'hi'), '999000999000'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 0, ignored: 1 });
  });

  it('ignores duplicate deliveries of the same wamid', async () => {
    const wamid = `wamid.${randomUUID()}`;
    const payload = webhook(textMessage('4915199999999', 'only once', wamid));
    expect((await post(payload)).body.received).toBe(1);
    expect((await post(payload)).body).toMatchObject({ received: 0, duplicates: 1 });
    const received = (await eventsOf(t, 'conversation.message.received')).filter(
      (e) => e.data.message.provider_message_id === wamid,
    );
    expect(received).toHaveLength(1);
  });
});

describe('WhatsApp outbound and receipts', () => {
  async function conversationWith(phone: string) {
    await post(webhook(textMessage(phone, 'I need help')));
    const list = await call('GET', `/conversations?channel=whatsapp`, authOf(t));
    return list.body.data.find((c: { customer: { phone: string } }) => c.customer.phone === `+${phone}`);
  }
  const messageById = async (convId: string, id: string) =>
    (await call('GET', `/conversations/${convId}/messages`, authOf(t))).body.data.find(
      (m: { id: string }) => m.id === id,
    );

  it("calls the Graph API with the number's token, then applies receipts without ever moving backwards", async () => {
    const conv = await conversationWith('4915100000001');
    const sent = await call('POST', `/conversations/${conv.id}/messages`, {
      ...authOf(t),
      body: { text: 'We can see you on Friday.' },
    });
    expect(sent.status).toBe(202);
    const message = await eventually(
      () => messageById(conv.id, sent.body.id),
      (m) => m?.status === 'sent',
    );
    expect(message.provider_message_id).toMatch(/^wamid\./);
    const request = (await graphRequests()).find((r) => r.body?.text?.body === 'We can see you on Friday.');
    expect(request).toMatchObject({
      phone_number_id: phoneNumberId,
      authorization: `Bearer EAAG-token-${phoneNumberId}`,
      problems: [],
    });
    expect(request.body).toMatchObject({ messaging_product: 'whatsapp', to: '4915100000001', type: 'text' });

    const now = Math.floor(Date.now() / 1000);
    expect((await post(webhook(statusUpdate(message.provider_message_id, 'read', now + 2)))).body.receipts).toBe(1);
    // Late, out-of-order receipts are ignored.
    expect((await post(webhook(statusUpdate(message.provider_message_id, 'delivered', now + 1)))).body.receipts).toBe(
      0,
    );
    expect(
      (
        await post(
          webhook(
            statusUpdate(message.provider_message_id, 'failed', now + 3, [
              { code: 131047, title: 'Re-engagement message' },
            ]),
          ),
        )
      ).body.receipts,
    ).toBe(0);
    const final = await messageById(conv.id, sent.body.id);
    expect(final.status).toBe('read');
    expect(final.read_at).toBe(new Date((now + 2) * 1000).toISOString());
    expect(final.delivered_at).toBe(final.read_at);
    // A status's event rides on the message's write and is stored by the dispatcher a moment later.
    const events = await eventually(
      async () =>
        (await eventsOf(t, 'conversation.*')).filter((e) => e.data.message?.id === sent.body.id).map((e) => e.type),
      (types) => types.length >= 2,
    );
    expect(events.sort()).toEqual(['conversation.message.read', 'conversation.message.sent']);
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
  async function sendThrough(prefix: string, customer: string, text: string) {
    const tenant = await createTenant();
    const number = `${prefix}${Math.floor(Math.random() * 1e9)}`;
    await connect(tenant, number);
    await post(webhook(textMessage(customer, 'hi'), number));
    const conv = (await call('GET', '/conversations', authOf(tenant))).body.data[0];
    const sent = await call('POST', `/conversations/${conv.id}/messages`, { ...authOf(tenant), body: { text } });
    const settled = await eventually(
      async () =>
        (await call('GET', `/conversations/${conv.id}/messages`, authOf(tenant))).body.data.find(
          (m: { id: string }) => m.id === sent.body.id,
        ),
      (m) => m?.status === 'sent' || m?.status === 'failed',
    );
    const attempts = (await graphRequests()).filter((r) => r.body?.text?.body === text).length;
    return { tenant, message: settled, attempts };
  }

  it('retries Graph 5xx and 429, and fails the message on a permanent 4xx', async () => {
    const flaky = await sendThrough('50', '4915100000003', 'after two 500s');
    expect(flaky.message.status).toBe('sent');
    expect(flaky.attempts).toBe(3);
    const limited = await sendThrough('42', '4915100000005', 'after a 429');
    expect(limited.message.status).toBe('sent');
    expect(limited.attempts).toBe(2);
    const broken = await sendThrough('40', '4915100000004', 'undeliverable');
    expect(broken.message.status).toBe('failed');
    expect(broken.message.error).toMatchObject({ code: 'graph_131026' });
    expect(broken.attempts).toBe(1);
    expect(await eventsOf(broken.tenant, 'conversation.message.failed')).toHaveLength(1);
  });

  it('retries from the queue a send whose first attempt failed, and sends it once', async () => {
    // The first attempt (the dispatcher's asynchronous invocation) meets three 503s and fails; Lambda's
    // destination record puts it on the ChannelOutbound queue, whose delivery makes the fourth call.
    const outage = await sendThrough('53', '4915100000006', 'after an outage');
    expect(outage.message.status).toBe('sent');
    expect(outage.attempts).toBe(4);
    const sentEvents = await eventually(
      () => eventsOf(outage.tenant, 'conversation.message.sent'),
      (found) => found.length > 0,
    );
    expect(sentEvents).toHaveLength(1);
  });
});
