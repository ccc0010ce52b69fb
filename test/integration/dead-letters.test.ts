import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QUEUES } from '../../catalog/resources';
import { newEvent } from '../../functions/events/store';
import { sqsClient } from '../../functions/platform/queue';
import { createDelivery } from '../../functions/webhooks/store';
import { newDelivery } from '../../functions/webhooks/webhook';
import { authOf, call, createTenant, eventually, settlesTo } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { testRuntime } from '../support/runtime';

useRuntimeAws();

/**
 * A message that keeps crashing the delivery worker is moved to the DLQ by the queue's redrive policy
 * (no reason attached). The runtime's DLQ consumer must record it in the failed view all the same.
 */
it('records a redriven (crashed) delivery in the failed view, with a reason', async () => {
  const t = await createTenant();
  const endpoint = (
    await call('POST', '/webhooks', {
      ...authOf(t),
      body: { url: 'https://localhost:9999/hook', events: ['webhook.test'], is_active: false },
    })
  ).body;
  const event = newEvent(t.tenantId, 'webhook.test', { n: 1 }, new Date());
  const delivery = newDelivery(event, endpoint.id, new Date());
  const id = delivery.id;
  await createDelivery(delivery, event);
  const dlqUrl = JSON.parse(await (await import('node:fs/promises')).readFile(testRuntime().opsFile, 'utf8')).queues
    .webhookDeliveryDlq.url as string;
  expect(dlqUrl).toContain(QUEUES.webhookDeliveryDlq.id);
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: dlqUrl,
      MessageBody: JSON.stringify({ tenant_id: t.tenantId, delivery_id: id, cycle: 1, failures: 0 }),
    }),
  );
  // The event is hand-made (data {n: 1}), so not one the contract describes.
  const failed = await eventually(
    () => call('GET', `/webhook-deliveries/${id}`, { ...authOf(t), contract: false }),
    (res) => res.body.status === 'failed',
  );
  expect(failed.body.failure_reason).toMatch(/delivery worker failed/);
  expect(failed.body.payload.id).toBe(event.id);
  await settlesTo(
    async () =>
      (await call('GET', '/webhook-deliveries?status=failed', authOf(t))).body.data.map((d: { id: string }) => d.id),
    [id],
  );
});
