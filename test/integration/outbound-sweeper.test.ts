import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../../functions/platform/queue';
import type { Context, SQSEvent } from 'aws-lambda';
import { QUEUES } from '../../catalog/resources';
import { db } from '../../functions/platform/db';
import { newId } from '../../functions/platform/ids';
import { claimForSending } from '../../functions/conversations/send-store';
import { getMessage, messagePut, type MessageRef } from '../../functions/conversations/message-store';
import type { Message } from '../../functions/conversations/conversation';
import { handler as sender } from '../../functions/channels/send-worker';
import { drainDeadLetters, sweepOverdueSends as sweep } from '../../functions/channels/sweep';
import { SEND_LEASE_MS } from '../../functions/channels/send-worker';
import { newEvent } from '../../functions/events/store';
import { createDelivery } from '../../functions/webhooks/store';
import { newDelivery } from '../../functions/webhooks/webhook';
import { authOf, call, connectWhatsApp, createTenant, eventsOf, eventually, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { beforeCalls, writesTo } from '../support/dynamo-faults';
import { markSent, markSentIfQueued } from '../../functions/conversations/service';
import { processInboundChunk, sendReference } from '../../functions/channels/whatsapp-inbound';
import { applyHeldReceipts } from '../../functions/channels/held-statuses';
import { inboundChunks } from '../../functions/channels/whatsapp';
import { testRuntime } from '../support/runtime';
import { holdReceipt } from '../../functions/channels/store';
import { graphRequests, postWhatsAppWebhook, statusUpdate, whatsAppWebhook } from '../support/whatsapp';

/**
 * Outbound messages never stay `queued` for ever and are never sent twice: a sender that died after the
 * channel may have accepted a message leaves it to status webhooks and the outbound sweeper (never a
 * resend); a message whose hand-off was lost is handed to the sender again; one whose retries ran out
 * before any send is recorded failed. The workers run in this process; the runtime's own sender makes
 * the sends the sweeper hands on. Queued messages are written without the dispatcher's outbox marker, as
 * if their hand-off had been lost.
 */
useRuntimeAws();
const queues = JSON.parse(readFileSync(testRuntime().opsFile, 'utf8')).queues;
process.env[QUEUES.channelOutbound.envVar] = queues.channelOutbound.url;
process.env[QUEUES.channelOutboundDlq.envVar] = queues.channelOutboundDlq.url;
process.env.WHATSAPP_GRAPH_URL = testRuntime().graphUrl;
const context = { awsRequestId: 'test', functionName: 'channel-sender' } as Context;

let t: TestTenant;
let phoneNumberId: string;
let conversationId: string;
beforeAll(async () => {
  t = await createTenant();
  // A leading 7: the fake Graph server accepts every message to it.
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  await connectWhatsApp(t, phoneNumberId);
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'whatsapp', customer: { phone: '+4915100000077' } },
  });
  expect(opened.status).toBe(201);
  conversationId = opened.body.id;
});

/** The fake Graph server's requests from this file's number with `text`. */
const graphRequestsWithText = async (text: string) =>
  (await graphRequests()).filter((r) => r.phone_number_id === phoneNumberId && r.body?.text?.body === text);

/** A queued outbound message, written `ageMs` ago, whose hand-off to the sender never happened. */
async function queuedMessage(text: string, ageMs = 0): Promise<MessageRef> {
  const at = new Date(Date.now() - ageMs).toISOString();
  const message: Message = {
    id: newId('msg'),
    tenant_id: t.tenantId,
    conversation_id: conversationId,
    direction: 'outbound',
    type: 'text',
    content: null,
    scheduled_at: null,
    text,
    status: 'queued',
    sender: { type: 'api_key', id: 'key_test' },
    channel: 'whatsapp',
    provider_message_id: null,
    error: null,
    created_at: at,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    failed_at: null,
    updated_at: at,
    analysis: null,
  };
  const { Put } = messagePut(message);
  const { outbox: _dispatched, ...item } = Put.Item as Record<string, unknown>;
  await db().send(new PutCommand({ ...Put, Item: item }));
  return { tenant_id: t.tenantId, conversation_id: conversationId, message_id: message.id };
}

/** A sender that took the message `msAgo` and died mid-send (after the channel may have accepted it). */
async function diedWhileSending(ref: MessageRef, msAgo: number) {
  const at = new Date(Date.now() - msAgo);
  expect(await claimForSending(ref, at, SEND_LEASE_MS, new Date(at.getTime() + SEND_LEASE_MS + 30_000))).toBe(
    'claimed',
  );
}

/** A WhatsApp status webhook for `wamid`, carrying the callback data the message was sent with. */
async function statusWebhook(ref: MessageRef, wamid: string, status: string) {
  const res = await postWhatsAppWebhook(
    whatsAppWebhook(
      phoneNumberId,
      statusUpdate(wamid, status, undefined, {
        recipient_id: '4915100000077',
        biz_opaque_callback_data: `${ref.tenant_id}/${ref.conversation_id}/${ref.message_id}`,
      }),
    ),
  );
  expect(res.status).toBe(200);
}

const retryRecord = (ref: MessageRef, receiveCount = 2) =>
  ({
    Records: [
      {
        messageId: 'r1',
        eventSource: 'aws:sqs',
        body: JSON.stringify(ref),
        attributes: { ApproximateReceiveCount: String(receiveCount) },
      },
    ],
  }) as unknown as SQSEvent;

const eventTypesOf = async (ref: MessageRef) =>
  (await eventsOf(t, 'conversation.*')).filter((e) => e.data.message?.id === ref.message_id).map((e) => e.type);

it('a sender that died after the channel may have accepted the message never sends it again; the sweeper marks it unknown', async () => {
  const text = `died mid-send ${Date.now()}`;
  const ref = await queuedMessage(text, 120_000);
  await diedWhileSending(ref, 60_000);

  // A retry arrives (the queue's redelivery): it must not send again.
  await sender(retryRecord(ref), context);
  expect(await graphRequestsWithText(text)).toHaveLength(0);
  expect((await getMessage(ref))?.status).not.toBe('sent');

  await sweep();
  const unknown = await eventually(
    () => getMessage(ref),
    (m) => m?.status === 'failed',
    10_000,
  );
  expect(unknown?.error?.code).toBe('outcome_unknown');
  expect(await graphRequestsWithText(text)).toHaveLength(0);
  await eventually(
    () => eventTypesOf(ref),
    (types) => types.includes('conversation.message.failed'),
  );

  // The channel had it after all: its late status report names the message, which moves on.
  await statusWebhook(ref, `wamid.late-${Date.now()}`, 'read');
  const read = await eventually(
    () => getMessage(ref),
    (m) => m?.status === 'read',
  );
  expect(read).toMatchObject({ status: 'read', error: null, failed_at: null });
  expect(read?.provider_message_id).toMatch(/^wamid\.late-/);
  await eventually(
    () => eventTypesOf(ref),
    (types) => types.includes('conversation.message.sent') && types.includes('conversation.message.read'),
  );
}, 60_000);

it('a status held before the send was recorded is applied by the retry of a sender that died right after recording it', async () => {
  const text = `recorded, then died ${Date.now()}`;
  const ref = await queuedMessage(text);
  const wamid = `wamid.held-${Date.now()}`;
  // Meta's "delivered" came before the send was recorded (so it was held), and the sender died between
  // recording the send and applying what was held.
  await holdReceipt(t.tenantId, wamid, { status: 'delivered', at: new Date().toISOString(), error: null }, new Date());
  expect(await markSentIfQueued(ref, 'whatsapp', wamid, new Date())).toBe(true);
  expect((await getMessage(ref))?.status).toBe('sent');

  // The failed invocation's retry (its destination record on the queue) finds the message sent.
  await sender(retryRecord(ref), context);
  expect(await getMessage(ref)).toMatchObject({ status: 'delivered', provider_message_id: wamid });
  expect(await graphRequestsWithText(text)).toHaveLength(0);
});

it.each([
  ['with the callback data the message was sent with', true],
  ['without it (held until the send is recorded)', false],
])(
  'a status is applied whichever of its reads and writes the send is recorded before, %s',
  async (_, withReference) => {
    // Meta's "read" may be processed while the sender records the send (Meta does not order its webhooks
    // after its answers). The sender records it, then applies what was held, as send-worker does; here it
    // does so before the status's first DynamoDB call, then before its second, and so on, and once after
    // the status was processed whole.
    const interleavings: string[] = [];
    for (let step = 1; step <= 30; step++) {
      const ref = await queuedMessage(`recorded before step ${step} ${Date.now()}`);
      await diedWhileSending(ref, 0);
      const wamid = `wamid.step-${step}-${Date.now()}`;
      const recordSend = async () => {
        await markSent(ref, 'whatsapp', wamid, new Date());
        await applyHeldReceipts(t.tenantId, wamid, new Date());
      };
      let calls = 0;
      let recorded = false;
      const stop = beforeCalls(
        () => ++calls === step,
        async () => {
          recorded = true;
          await recordSend();
        },
      );
      try {
        const status = statusUpdate(
          wamid,
          'read',
          undefined,
          withReference ? { biz_opaque_callback_data: sendReference(ref) } : {},
        );
        // The part the webhook route queues, as the inbound worker receives it.
        for (const chunk of inboundChunks(whatsAppWebhook(phoneNumberId, status)))
          await processInboundChunk(chunk, new Date());
      } finally {
        stop();
      }
      if (!recorded) await recordSend();
      interleavings.push(recorded ? `before call ${step}` : 'after');
      const message = await getMessage(ref);
      expect({ step, status: message?.status, provider_message_id: message?.provider_message_id }).toEqual({
        step,
        status: 'read',
        provider_message_id: wamid,
      });
      expect(message?.read_at).not.toBeNull();
      if (!recorded) break;
    }
    // Every call of the status's processing was met, and the loop ended with the status processed whole.
    expect(interleavings.at(-1)).toBe('after');
    expect(interleavings.length).toBeGreaterThan(3);
  },
  120_000,
);

it('a status webhook settles a send whose outcome was not recorded, by the callback data sent with it', async () => {
  const text = `settled by a status ${Date.now()}`;
  const ref = await queuedMessage(text);
  await diedWhileSending(ref, 25_000);
  const wamid = `wamid.settled-${Date.now()}`;
  await statusWebhook(ref, wamid, 'delivered');
  // The webhook's payload is processed off the request, by the inbound worker.
  const delivered = await eventually(
    () => getMessage(ref),
    (m) => m?.status === 'delivered',
  );
  expect(delivered).toMatchObject({ provider_message_id: wamid });
  expect(await graphRequestsWithText(text)).toHaveLength(0);
}, 30_000);

it('a status that names a message the sweeper records unknown at that very moment still settles it', async () => {
  const ref = await queuedMessage(`unknown meanwhile ${Date.now()}`, 120_000);
  await diedWhileSending(ref, 60_000);
  const wamid = `wamid.meanwhile-${Date.now()}`;
  // The status reads the message queued; before its write, the sweeper records the outcome unknown.
  const stop = beforeCalls(writesTo(`CONV#${conversationId}#MSG#${ref.message_id}`), () => sweep());
  try {
    expect(await markSentIfQueued(ref, 'whatsapp', wamid, new Date())).toBe(true);
  } finally {
    stop();
  }
  expect(await getMessage(ref)).toMatchObject({ status: 'sent', provider_message_id: wamid, error: null });
});

it('a queued message whose hand-off was lost is handed to the sender again and sent once', async () => {
  const text = `lost hand-off ${Date.now()}`;
  const ref = await queuedMessage(text, 60_000);
  const swept = await sweep();
  expect(swept.oldest_queued_seconds).toBeGreaterThanOrEqual(60);
  const sent = await eventually(
    () => getMessage(ref),
    (m) => m?.status !== 'queued',
    20_000,
  );
  expect(['sent', 'delivered', 'read']).toContain(sent?.status);
  expect(await graphRequestsWithText(text)).toHaveLength(1);
  // The WhatsApp send carried the message's reference, which its status reports return.
  expect((await graphRequestsWithText(text))[0].body.biz_opaque_callback_data).toBe(
    `${t.tenantId}/${conversationId}/${ref.message_id}`,
  );
}, 40_000);

it('a message dead-lettered before any send (a throttled last receive) is recorded failed, not left queued', async () => {
  const text = `dead-lettered ${Date.now()}`;
  const ref = await queuedMessage(text);
  // As Lambda's destination record of a failed first attempt carries it, after its last receive.
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queues.channelOutboundDlq.url,
      MessageBody: JSON.stringify({ requestPayload: ref }),
    }),
  );
  // The sweeper drains the dead-letter queue (the runtime's own may get there first).
  await drainDeadLetters();
  await eventually(
    () => getMessage(ref),
    (m) => m?.status !== 'queued',
    10_000,
  );
  const failed = await getMessage(ref);
  expect(failed?.status).toBe('failed');
  expect(failed?.error?.code).toBe('send_gave_up');
  expect(await graphRequestsWithText(text)).toHaveLength(0);
  await eventually(
    () => eventTypesOf(ref),
    (types) => types.includes('conversation.message.failed'),
  );
}, 30_000);

it('a sent message dead-lettered by a sender that died before applying its held statuses gets them from the sweeper', async () => {
  const text = `recorded, then died on the last try ${Date.now()}`;
  const ref = await queuedMessage(text);
  const wamid = `wamid.last-try-${Date.now()}`;
  // Meta's "read" was held; the sender, on its queue's last receive, recorded the send and died before
  // applying it, so no retry comes: its message goes to the dead-letter queue.
  await holdReceipt(t.tenantId, wamid, { status: 'read', at: new Date().toISOString(), error: null }, new Date());
  expect(await markSentIfQueued(ref, 'whatsapp', wamid, new Date())).toBe(true);
  await sqsClient().send(
    new SendMessageCommand({ QueueUrl: queues.channelOutboundDlq.url, MessageBody: JSON.stringify(ref) }),
  );
  // The sweeper drains the dead-letter queue (the runtime's own may get there first).
  await drainDeadLetters();
  const read = await eventually(
    () => getMessage(ref),
    (m) => m?.status === 'read',
    10_000,
  );
  expect(read).toMatchObject({ provider_message_id: wamid, error: null });
  expect(read?.read_at).not.toBeNull();
  expect(await graphRequestsWithText(text)).toHaveLength(0);
}, 30_000);

describe('npm run ops -- overdue', () => {
  const ops = async (...args: string[]) => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/ops.ts', ...args],
      { env: { ...process.env, LOCAL_RUNTIME_FILE: testRuntime().opsFile } },
    );
    const lines = stdout.split('\n').flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as Record<string, any>;
        return parsed && typeof parsed === 'object' && 'kind' in parsed ? [parsed] : [];
      } catch {
        return [];
      }
    });
    return { lines, stderr };
  };

  it('lists overdue webhook deliveries and queued outbound messages of every tenant, with their age', async () => {
    const created = await call('POST', '/webhooks', {
      ...authOf(t),
      body: { url: 'https://127.0.0.1/ops-overdue', events: ['booking.*'] },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body;
    // The runtime's own sweeper takes such work over every 30 s, and may get there before the command reads.
    for (let tries = 1; ; tries++) {
      const at = new Date(Date.now() - 90_000);
      const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_ops' } }, at);
      const delivery = newDelivery(event, endpoint.id, at);
      expect(await createDelivery(delivery, event)).toBe(true);
      const ref = await queuedMessage(`overdue for ops ${Date.now()}`, 120_000);
      const { lines, stderr } = await ops('overdue', '--limit', '100');
      const listedDelivery = lines.find((l) => l.kind === 'webhook_delivery' && l.id === delivery.id);
      const listedMessage = lines.find((l) => l.kind === 'outbound_message' && l.id === ref.message_id);
      if ((!listedDelivery || !listedMessage) && tries < 5) continue;
      expect(listedDelivery).toMatchObject({
        tenant_id: t.tenantId,
        webhook_id: endpoint.id,
        event_type: 'booking.created',
        why: 'its queued attempt was lost',
      });
      expect(listedDelivery?.overdue_seconds).toBeGreaterThanOrEqual(90);
      expect(listedMessage).toMatchObject({
        tenant_id: t.tenantId,
        conversation_id: conversationId,
        channel: 'whatsapp',
        why: 'its hand-off to the sender was lost',
      });
      expect(listedMessage?.queued_seconds).toBeGreaterThanOrEqual(120);
      expect(stderr).toMatch(
        /\d+ overdue webhook deliver(y|ies) \(oldest overdue \d+ s\), \d+ overdue outbound messages? \(oldest queued \d+ s\)/,
      );
      return;
    }
  }, 90_000);
});
