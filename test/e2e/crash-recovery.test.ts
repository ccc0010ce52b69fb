import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { fetchAsClient } from '../support/api';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';
import { spawnRuntime } from '../support/runtime-process.mjs';
import { startFakeGraph } from '../support/fake-graph.mjs';
import { signWhatsApp, whatsAppWebhook } from '../support/whatsapp';

/**
 * Recovery after a crash, in about a minute, with nothing sent twice: a `kill -9` of the whole local
 * runtime (its in-memory queues and pending invocations die with it) in the middle of traffic, then a
 * restart on the same DATA_DIR, with the sweepers' defaults (as in AWS, where they run every minute):
 * - webhook deliveries in the middle of their retries all succeed once the receiver is healthy again;
 * - outbound sandbox messages caught on their way to the sender are sent;
 * - WhatsApp messages whose sender died after Graph accepted them are never sent again: one is settled
 *   by its status webhook (which names it by its callback data), the other ends `failed` with
 *   `outcome_unknown`, for a person to check.
 * Every one reaches its final state within a generous bound after the restart.
 */
const FINAL_WITHIN_MS = 90_000;
const dataDir = mkdtempSync(join(tmpdir(), 'crash-recovery-'));
const platformToken = `pt_crash_${Math.random().toString(36).slice(2)}`;
const APP_SECRET = 'crash-platform-app-secret';
let running: ChildProcess | undefined;
let graph: Awaited<ReturnType<typeof startFakeGraph>> | undefined;
afterAll(() => {
  if (running?.pid && running.exitCode === null) process.kill(-running.pid, 'SIGKILL');
  graph?.server.closeAllConnections();
  graph?.server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(
  base: string,
  method: string,
  path: string,
  opts: { token: string; tenant?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
) {
  const res = await fetchAsClient(`${base}/api/v1${path}`, () => ({
    method,
    headers: {
      Authorization: `Bearer ${opts.token}`,
      ...(opts.tenant ? { 'X-Tenant-ID': opts.tenant } : {}),
      ...(opts.body || opts.rawBody ? { 'Content-Type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.rawBody ?? (opts.body ? JSON.stringify(opts.body) : undefined),
  }));
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

async function until<T>(
  fn: () => Promise<T>,
  done: (v: T) => boolean,
  ms: number,
  describe: (v: T) => unknown = (v) => v,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${ms} ms; last value: ${JSON.stringify(describe(value)).slice(0, 1500)}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Meta's signed webhook POST for one number: inbound messages or statuses. */
function whatsAppWebhookTo(base: string, phoneNumberId: string, value: Record<string, unknown>) {
  const raw = JSON.stringify(whatsAppWebhook(phoneNumberId, value));
  return api(base, 'POST', '/channels/whatsapp/webhook', {
    token: 'none',
    rawBody: raw,
    headers: { 'X-Hub-Signature-256': signWhatsApp(raw, APP_SECRET) },
  });
}

it('after a kill -9 mid-traffic, every delivery and outbound message reaches its final state within 90 s, none sent twice', async () => {
  const receiver = await startReceiver(() => ({ status: 500, body: 'down' }));
  graph = await startFakeGraph();
  // The platform's Meta app, as the fake Graph server checks tokens and app subscriptions against it.
  await fetch(`${graph.url}/__config`, {
    method: 'POST',
    body: JSON.stringify({ appSecret: APP_SECRET, appId: '1234567890' }),
  });
  const env = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    PLATFORM_TOKEN: platformToken,
    NODE_EXTRA_CA_CERTS: testRuntime().tls.ca,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WHATSAPP_GRAPH_URL: graph.url,
    // The platform's Meta app, whose secret signs every webhook.
    WHATSAPP_APP_ID: '1234567890',
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'crash-verify-token',
    // Two quick failures, then a longer wait: the kill lands between the second and the third attempt.
    WEBHOOK_RETRY_DELAYS: '1,8,8,8,8',
    WEBHOOK_TIMEOUT_MS: '1500',
    LOG_LEVEL: 'error',
    LOCAL_RUNTIME_FILE: join(dataDir, 'runtime.json'),
    // Under the chaos mode the crash is the fault under test: an invocation timed out or aged out as well
    // would leave its work to the sweepers' one-minute defaults, past FINAL_WITHIN_MS.
    ...(process.env.CHAOS
      ? { CHAOS_FAULTS: [process.env.CHAOS_FAULTS, 'invokeAgeOut=0,timeout=0'].filter(Boolean).join(',') }
      : {}),
  };
  const graphRequests = async () => (await fetch(`${graph!.url}/__requests`)).json() as Promise<any[]>;
  try {
    const first = await spawnRuntime(env, { detached: true });
    running = first.child;
    const base = first.info.url;
    const created = await api(base, 'POST', '/platform/tenants', {
      token: platformToken,
      body: {
        name: 'Crash Co',
        plan: 'pro',
        admin: { email: 'crash@example.com', password: 'correct horse battery staple' },
      },
    });
    expect(created.status).toBe(201);
    const auth = { token: created.body.api_key.key as string, tenant: created.body.tenant.id as string };
    const endpoint = await api(base, 'POST', '/webhooks', {
      ...auth,
      body: { url: receiver.url(), events: ['conversation.created'] },
    });
    expect(endpoint.status).toBe(201);
    const sandboxConversations: string[] = [];
    for (const n of [1, 2, 3]) {
      const inbound = await api(base, 'POST', '/channels/sandbox/inbound', {
        ...auth,
        body: { from: `+49151600070${n}`, text: 'hello' },
      });
      expect(inbound.status).toBe(201);
      sandboxConversations.push(inbound.body.conversation.id);
    }
    const deliveries = `/webhooks/${endpoint.body.id}/deliveries`;
    await until(
      () => api(base, 'GET', deliveries, auth),
      (r) => r.body?.data?.length === 3 && r.body.data.every((d: any) => d.attempts.length === 2),
      30_000,
    );

    // A WhatsApp number whose Graph API takes messages but never answers, and two customers on it.
    const phoneNumberId = `59${Math.floor(Math.random() * 1e9)}`;
    const connected = await api(base, 'POST', '/channels/whatsapp', {
      ...auth,
      body: {
        phone_number_id: phoneNumberId,
        access_token: `EAAG-token-${phoneNumberId}`,
        waba_id: `8${phoneNumberId}`,
      },
    });
    expect(connected).toMatchObject({ status: 201 });
    const customers = ['4915112340001', '4915112340002'];
    for (const from of customers) {
      const res = await whatsAppWebhookTo(base, phoneNumberId, {
        contacts: [{ profile: { name: 'Carla' }, wa_id: from }],
        messages: [
          {
            from,
            id: `wamid.in-${from}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'hi' },
          },
        ],
      });
      expect(res.status).toBe(200);
    }
    const whatsAppConversations = await until(
      () => api(base, 'GET', '/conversations?channel=whatsapp', auth),
      (r) => r.body?.data?.length === 2,
      20_000,
    );
    const whatsAppMessages: string[] = [];
    for (const conversation of whatsAppConversations.body.data) {
      const sent = await api(base, 'POST', `/conversations/${conversation.id}/messages`, {
        ...auth,
        body: { text: `are you there, ${conversation.id}?` },
      });
      expect(sent.status).toBe(202);
      whatsAppMessages.push(sent.body.id);
    }
    // Graph has both messages, and the sender waits for an answer that never comes.
    await until(
      graphRequests,
      (requests) => requests.filter((r) => r.phone_number_id === phoneNumberId).length === 2,
      20_000,
    );
    // Outbound sandbox messages in flight as the crash comes.
    const sandboxMessages = await Promise.all(
      sandboxConversations.map(async (id) => {
        const sent = await api(base, 'POST', `/conversations/${id}/messages`, {
          ...auth,
          body: { text: 'one moment' },
        });
        expect(sent.status).toBe(202);
        return { conversation: id, message: sent.body.id as string };
      }),
    );

    // A crash: the runtime, DynamoDB Local, the in-memory queues and invocations all die at once.
    process.kill(-(first.child.pid as number), 'SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    receiver.setBehaviour(() => ({ status: 204 }));

    const second = await spawnRuntime(env, { detached: true });
    running = second.child;
    const restarted = Date.now();
    const base2 = second.info.url;
    const messageOf = async (conversationId: string, id: string) =>
      (await api(base2, 'GET', `/conversations/${conversationId}/messages?limit=100`, auth)).body?.data?.find(
        (m: any) => m.id === id,
      );

    // WhatsApp reports the first message delivered: its status names the message by the callback data.
    const [settledRequest] = (await graphRequests()).filter((r) => r.phone_number_id === phoneNumberId);
    // The reference is `<tenant>/<conversation>/<message>`.
    const [, conversationId, messageId] = String(settledRequest.body.biz_opaque_callback_data).split('/');
    expect(whatsAppMessages).toContain(messageId);
    const reported = await whatsAppWebhookTo(base2, phoneNumberId, {
      statuses: [
        {
          id: 'wamid.accepted-before-the-crash',
          status: 'delivered',
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: settledRequest.body.to ?? '4915112340001',
          biz_opaque_callback_data: settledRequest.body.biz_opaque_callback_data,
        },
      ],
    });
    expect(reported.status).toBe(200);
    const otherId = whatsAppMessages.find((id) => id !== messageId)!;
    const otherConversation = whatsAppConversations.body.data.find((c: any) => c.id !== conversationId).id;

    const final = await until(
      async () => ({
        deliveries: (await api(base2, 'GET', deliveries, auth)).body?.data ?? [],
        settled: await messageOf(conversationId!, messageId!),
        unknown: await messageOf(otherConversation, otherId),
        sandbox: await Promise.all(sandboxMessages.map((m) => messageOf(m.conversation, m.message))),
      }),
      (s) =>
        // Three sandbox conversations and two WhatsApp ones.
        s.deliveries.length === 5 &&
        s.deliveries.every((d: any) => d.status === 'succeeded') &&
        s.settled?.status === 'delivered' &&
        s.unknown?.status === 'failed' &&
        s.sandbox.every((m) => m && m.status !== 'queued'),
      FINAL_WITHIN_MS,
      (s) => ({
        deliveries: s.deliveries.map((d: any) => d.status),
        settled: s.settled?.status,
        unknown: [s.unknown?.status, s.unknown?.error],
        sandbox: s.sandbox.map((m) => m?.status),
      }),
    );
    const recoveredInMs = Date.now() - restarted;
    expect(recoveredInMs).toBeLessThanOrEqual(FINAL_WITHIN_MS);
    for (const d of final.deliveries) expect(d.attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
    // The sandbox conversations' three were mid-retry at the crash.
    expect(final.deliveries.filter((d: any) => d.attempts.length >= 3).length).toBeGreaterThanOrEqual(3);
    expect(final.settled.provider_message_id).toBe('wamid.accepted-before-the-crash');
    expect(final.unknown.error.code).toBe('outcome_unknown');
    for (const m of final.sandbox) expect(['sent', 'delivered', 'read']).toContain(m.status);
    // Nothing went to Graph again: one request per WhatsApp message, before the crash.
    expect((await graphRequests()).filter((r) => r.phone_number_id === phoneNumberId)).toHaveLength(2);

    process.kill(-(second.child.pid as number), 'SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  } finally {
    await receiver.close();
  }
}, 300_000);
