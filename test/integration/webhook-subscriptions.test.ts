import { currentSubscriptions } from '../../functions/webhooks/fanout';
import { updateWebhook } from '../../functions/webhooks/service';
import { subscriptionVersions } from '../../functions/webhooks/store';
import { authOf, call, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { loseResponseAfterCommit, writesTo } from '../support/dynamo-faults';
import { startReceiver } from '../support/receiver';

/**
 * An endpoint change and its subscription-version bump commit together: when the change commits and its
 * response is lost, the client's retry (which finds nothing left to change) still leaves the version
 * moved, so warm dispatchers re-read the endpoint and a re-activated one gets its events.
 */
useRuntimeAws();

it('a re-activation whose response was lost still moves the subscription version', async () => {
  const t = await createTenant();
  const r = await startReceiver();
  const created = await call('POST', '/webhooks', {
    ...authOf(t),
    body: { url: r.url(), events: ['conversation.*'], is_active: false },
  });
  expect(created.status).toBe(201);
  const before = (await subscriptionVersions([t.tenantId])).get(t.tenantId) ?? 0;

  const stop = loseResponseAfterCommit(writesTo('WHK#'));
  try {
    await expect(
      updateWebhook(t.tenantId, created.body.id, { is_active: true }, undefined, new Date()),
    ).rejects.toThrow(/after commit/);
  } finally {
    stop();
  }
  // The client retries: the endpoint is already active, so there is nothing left to change.
  const retried = await updateWebhook(t.tenantId, created.body.id, { is_active: true }, undefined, new Date());
  expect(retried.is_active).toBe(true);

  expect((await subscriptionVersions([t.tenantId])).get(t.tenantId)).toBeGreaterThan(before);
  const [endpoint] = (await currentSubscriptions([t.tenantId])).get(t.tenantId) ?? [];
  expect(endpoint).toMatchObject({ id: created.body.id, is_active: true });
  await r.close();
});

it('a concurrent change without If-Match is made again on the fresh endpoint, not refused', async () => {
  const t = await createTenant();
  const r = await startReceiver();
  const created = await call('POST', '/webhooks', {
    ...authOf(t),
    body: { url: r.url(), events: ['conversation.*'] },
  });
  const id = created.body.id as string;
  const results = await Promise.all([
    updateWebhook(t.tenantId, id, { description: 'one' }, undefined, new Date()),
    updateWebhook(t.tenantId, id, { events: ['booking.*'] }, undefined, new Date()),
  ]);
  expect(results.map((e) => e.version).sort()).toEqual([2, 3]);
  const read = await call('GET', `/webhooks/${id}`, authOf(t));
  expect(read.body).toMatchObject({ description: 'one', events: ['booking.*'], version: 3 });
  await r.close();
});
