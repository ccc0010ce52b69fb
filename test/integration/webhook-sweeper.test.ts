import { readFileSync } from 'node:fs';
import type { Context, SQSEvent } from 'aws-lambda';
import { QUEUES } from '../../spec/resources';
import { newEvent } from '../../functions/events/store';
import { handler as deliver } from '../../functions/webhooks/delivery-worker';
import { handler as sweep } from '../../functions/webhooks/sweep-worker';
import { createDelivery, getDelivery } from '../../functions/webhooks/store';
import { newDelivery } from '../../functions/webhooks/webhook';
import { authOf, call, createTenant, eventually } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';

/**
 * In AWS, SendMessage to the retry queue can fail after the attempt was recorded. The delivery must not
 * be stranded: it stays pending with its next attempt due, and the sweeper queues it again. The worker
 * runs in this process (so its queue can be broken); the runtime's own workers take over after the sweep.
 */
useRuntimeAws();
const queues = JSON.parse(readFileSync(testRuntime().opsFile, 'utf8')).queues;
const context = { awsRequestId: 'test', functionName: 'webhook-delivery' } as Context;

it('a retry whose SendMessage failed is re-queued by the sweeper and then succeeds', async () => {
  const t = await createTenant();
  // The event is hand-made, so not one the contract describes.
  const r = await startReceiver(() => ({ status: 500 }), { contract: false });
  try {
    const endpoint = (await call('POST', '/webhooks', { ...authOf(t), body: { url: r.url(), events: ['booking.*'] } }))
      .body;
    const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_sweep' } }, new Date());
    const delivery = newDelivery(event, endpoint.id, new Date());
    expect(await createDelivery(delivery, event)).toBe(true);

    Object.assign(process.env, {
      WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    process.env[QUEUES.webhookDelivery.envVar] = `${queues.webhookDelivery.url}-missing`;
    const message = {
      tenant_id: t.tenantId,
      delivery_id: delivery.id,
      webhook_id: endpoint.id,
      cycle: 1,
      failures: 0,
      payload: event,
    };
    const record = { messageId: 'm1', body: JSON.stringify(message), attributes: { ApproximateReceiveCount: '1' } };
    // The attempt is made and recorded, but its retry cannot be queued: the record (here, the whole batch) fails.
    await expect(deliver({ Records: [record] } as unknown as SQSEvent, context)).rejects.toThrow(/All records failed/);
    const stranded = await getDelivery(t.tenantId, delivery.id);
    expect(stranded).toMatchObject({ status: 'pending', cycle_attempts: 1 });
    expect(Date.parse(stranded?.next_attempt_at ?? '')).toBeGreaterThan(Date.parse(stranded?.attempts[0]?.at ?? ''));

    r.setBehaviour(() => ({ status: 200 }));
    process.env[QUEUES.webhookDelivery.envVar] = queues.webhookDelivery.url;
    // Long enough that no healthy delivery of another test file (1 s retries) counts as overdue.
    process.env.WEBHOOK_SWEEP_GRACE_SECONDS = '6';
    const swept = await eventually(
      () => sweep(),
      (out) => out.requeued >= 1,
      20_000,
    );
    expect(swept.dead_lettered).toBe(0);
    const done = await eventually(
      () => getDelivery(t.tenantId, delivery.id),
      (d) => d?.status === 'succeeded',
      20_000,
    );
    // (This process does not trust the receiver's test CA, so its own attempt failed either way.)
    expect(done?.attempts).toHaveLength(2);
    expect(done?.attempts[0]?.error).not.toBeNull();
    expect(done?.attempts[1]).toMatchObject({ status_code: 200, error: null });
    // Finished deliveries leave the sweeper's index: another sweep finds nothing of it to do.
    expect((await getDelivery(t.tenantId, delivery.id))?.next_attempt_at).toBeNull();
  } finally {
    await r.close();
  }
}, 60_000);
