import { createHash, randomUUID } from 'node:crypto';
import { authOf, call, connectWhatsApp, createTenant, eventsOf, eventually, type TestTenant } from '../support/api';
import {
  graphRequests,
  graphRequestsFor,
  SEND_SETTLES_MS,
  postWhatsAppWebhook,
  settledWhatsAppSend,
  whatsAppWebhook,
} from '../support/whatsapp';
import { testRuntime } from '../support/runtime';

/**
 * Media on WhatsApp (fake Graph server) and the sandbox, kept in the local runtime's S3 emulator: a
 * customer's file copied from the Graph API and downloadable through its presigned URL, a file that is
 * gone marked failed with its event, an uploaded document sent by id, and bad media refused.
 */
let t: TestTenant;
let phoneNumberId: string;

const customer = () => `4916${Math.floor(Math.random() * 1e9)}`.slice(0, 13);
const graph = (path: string, init?: RequestInit) => fetch(`${testRuntime().graphUrl}${path}`, init);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Bytes that differ on every run, so a match cannot come from an earlier test. */
const fileBytes = (n: number) => new Uint8Array(Buffer.concat([Buffer.from(randomUUID()), Buffer.alloc(n, 7)]));

/** A customer's media message as Meta's webhook carries it (type, then `{id, mime_type, sha256, caption}`). */
async function customerSends(from: string, type: string, part: Record<string, unknown>) {
  const wamid = `wamid.${randomUUID()}`;
  const res = await postWhatsAppWebhook(
    whatsAppWebhook(phoneNumberId, {
      contacts: [{ profile: { name: 'Carla' }, wa_id: from }],
      messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type, [type]: part }],
    }),
  );
  expect(res.status).toBe(200);
  const conversations = await eventually(
    async () => (await call('GET', '/conversations?limit=100', authOf(t))).body.data as any[],
    (l) => l.some((c) => c.customer.phone === `+${from}`),
    30_000,
  );
  return conversations.find((c) => c.customer.phone === `+${from}`);
}

const messagesOf = async (convId: string) =>
  (await call('GET', `/conversations/${convId}/messages?limit=100`, authOf(t))).body.data as any[];
const settledMedia = (convId: string) =>
  eventually(
    async () => (await messagesOf(convId)).find((m) => m.media),
    (m) => m?.media && m.media.status !== 'pending',
    30_000,
  );

beforeAll(async () => {
  t = await createTenant();
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  await connectWhatsApp(t, phoneNumberId);
});

describe('inbound media', () => {
  it('copies a customer\u2019s image from the Graph API into the bucket, downloadable through its URL', async () => {
    const bytes = fileBytes(2048);
    const registered = (await (
      await graph('/__media', {
        method: 'POST',
        body: JSON.stringify({ data: Buffer.from(bytes).toString('base64'), mime_type: 'image/jpeg' }),
      })
    ).json()) as { id: string; sha256: string };
    const conv = await customerSends(customer(), 'image', {
      id: registered.id,
      mime_type: 'image/jpeg',
      sha256: registered.sha256,
      caption: 'the broken tap',
    });
    const message = await settledMedia(conv.id);
    expect(message).toMatchObject({
      direction: 'inbound',
      text: '[image] the broken tap',
      media: {
        type: 'image',
        mime_type: 'image/jpeg',
        size: bytes.length,
        caption: 'the broken tap',
        status: 'stored',
      },
    });
    expect(message.media.id).toMatch(/^med_/);
    expect(Date.parse(message.media.expires_at)).toBeGreaterThan(Date.now());
    const download = await fetch(message.media.download_url);
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    // Fetched with the channel's token, through the URL Graph answered for the media id.
    const requests = await graphRequests();
    expect(requests.some((r) => r.kind === 'media_lookup' && r.media_id === registered.id)).toBe(true);
    expect(requests.some((r) => r.kind === 'media_download' && r.media_id === registered.id)).toBe(true);
    // The received event carried the file as it arrived: pending, with no URL.
    const received = await eventsOf(t, 'conversation.message.received', (events) =>
      events.some((e) => e.data.message.id === message.id),
    );
    expect(received.find((e) => e.data.message.id === message.id).data.message.media).toMatchObject({
      status: 'pending',
      download_url: null,
    });
  });

  it('marks a file Meta no longer has as failed, with conversation.message.failed', async () => {
    const conv = await customerSends(customer(), 'document', {
      id: '6999999999999',
      mime_type: 'application/pdf',
      filename: 'lost.pdf',
    });
    const message = await settledMedia(conv.id);
    expect(message.media).toMatchObject({
      type: 'document',
      filename: 'lost.pdf',
      status: 'failed',
      download_url: null,
      error: { code: 'media_unavailable' },
    });
    const failed = await eventsOf(t, 'conversation.message.failed', (events) =>
      events.some((e) => e.data.message.id === message.id),
    );
    expect(failed.find((e) => e.data.message.id === message.id).data.message.media.status).toBe('failed');
  });

  it('takes a small file on the sandbox channel, stored at once', async () => {
    const bytes = fileBytes(300);
    const res = await call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: {
        from: '+4915700000001',
        media: { type: 'image', mime_type: 'image/png', data: Buffer.from(bytes).toString('base64'), caption: 'hi' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({ text: '[image] hi', media: { status: 'stored', size: bytes.length } });
    const download = await fetch(res.body.message.media.download_url);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    const gif = await call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: { from: '+4915700000001', media: { type: 'image', mime_type: 'image/gif', data: 'R0lGODlh' } },
    });
    expect(gif.status).toBe(422);
    expect(gif.body.code).toBe('unsupported_media');
  });
});

describe('outbound media', () => {
  it(
    'uploads a document, sends it by id, and WhatsApp receives it (POST /media, then the message)',
    async () => {
      const conv = await customerSends(customer(), 'text', { body: 'can you send the invoice?' });
      const bytes = fileBytes(4096);
      const upload = await call('POST', '/media/uploads', {
        ...authOf(t),
        body: { type: 'document', mime_type: 'application/pdf', size: bytes.length, filename: 'invoice.pdf' },
      });
      expect(upload.status).toBe(201);
      expect(upload.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } });
      // Sending before the file is there names the missing step.
      const early = await call('POST', `/conversations/${conv.id}/messages`, {
        ...authOf(t),
        body: { document: { media_id: upload.body.media_id } },
      });
      expect(early.status).toBe(422);
      expect(early.body.code).toBe('media_not_uploaded');
      const put = await fetch(upload.body.upload_url, { method: 'PUT', headers: upload.body.headers, body: bytes });
      expect(put.status).toBe(200);
      const { sent } = await settledWhatsAppSend(
        () =>
          call('POST', `/conversations/${conv.id}/messages`, {
            ...authOf(t),
            body: { document: { media_id: upload.body.media_id, caption: 'Your invoice' } },
          }),
        async (id) => (await messagesOf(conv.id)).find((m) => m.id === id),
        graphRequestsFor,
        (m) => m?.status === 'sent',
      );
      expect(sent.body).toMatchObject({
        type: 'document',
        media: { id: upload.body.media_id, filename: 'invoice.pdf', size: bytes.length, status: 'stored' },
      });
      const [message] = await graphRequestsFor(sent.body.id);
      expect(message.body).toMatchObject({
        type: 'document',
        document: { caption: 'Your invoice', filename: 'invoice.pdf' },
      });
      // The upload the message names (a sender that died after an upload, and was sent again, made another).
      const uploaded = (await graphRequests()).find(
        (r) => r.kind === 'media_upload' && r.media_id === message.body.document.id,
      );
      expect(uploaded).toMatchObject({
        phone_number_id: phoneNumberId,
        type: 'application/pdf',
        filename: 'invoice.pdf',
        sha256: sha256(bytes),
      });
    },
    2 * SEND_SETTLES_MS + 60_000,
  ); // the send may be settled by the outbound sweeper, and sent again

  it('refuses files too large or of the wrong type, private-address links, and other tenants\u2019 uploads', async () => {
    const tooLarge = await call('POST', '/media/uploads', {
      ...authOf(t),
      body: { type: 'image', mime_type: 'image/jpeg', size: 6 * 1024 * 1024 },
    });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body).toMatchObject({ code: 'unsupported_media', errors: [{ path: 'size' }] });
    expect(tooLarge.body.detail).toMatch(/5 MB/);
    const wrongType = await call('POST', '/media/uploads', {
      ...authOf(t),
      body: { type: 'image', mime_type: 'image/gif', size: 1000 },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body).toMatchObject({ code: 'unsupported_media', errors: [{ path: 'mime_type' }] });

    const conv = await customerSends(customer(), 'text', { body: 'hello' });
    const metadata = await call('POST', `/conversations/${conv.id}/messages`, {
      ...authOf(t),
      body: { image: { url: 'https://169.254.169.254/latest/meta-data/photo.jpg' } },
    });
    expect(metadata.status).toBe(422);
    expect(metadata.body.code).toBe('unsafe_media_url');
    const both = await call('POST', `/conversations/${conv.id}/messages`, {
      ...authOf(t),
      body: { image: { url: 'https://example.com/a.jpg', media_id: 'med_01J00000000000000000000000' } },
    });
    expect(both.status).toBe(422);

    const other = await createTenant();
    const foreign = await call('POST', '/media/uploads', {
      ...authOf(other),
      body: { type: 'image', mime_type: 'image/png', size: 10 },
    });
    expect(foreign.status).toBe(201);
    const stolen = await call('POST', `/conversations/${conv.id}/messages`, {
      ...authOf(t),
      body: { image: { media_id: foreign.body.media_id } },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.body.code).toBe('media_not_found');
  });
});
