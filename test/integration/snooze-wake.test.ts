import { handler as wake } from '../../functions/conversations/snooze-worker';
import { authOf, call, createTenant, eventsOf, eventually, listEventually, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

/**
 * Snoozed conversations open again once `snoozed_until` has passed: the wake-up worker (run here, in this
 * process, against the runtime's DynamoDB; the runtime's own runs every minute) finds them in the due
 * index, and a change made before it comes starts from the woken conversation.
 */
useRuntimeAws();

/** A run of the waker here; while the runtime's own run holds the lease, this one is skipped, so try again. */
const wakeRun = () =>
  eventually(
    () => wake(),
    (out) => !out.skipped,
  );

/** A conversation snoozed until `inMs` after the snooze is sent (a slow machine must not make it past). */
async function snoozedConversation(t: TestTenant, phone: string, inMs: number) {
  const inbound = await call('POST', '/channels/sandbox/inbound', { ...authOf(t), body: { from: phone, text: 'hi' } });
  expect(inbound.status).toBe(201);
  const id = inbound.body.conversation.id as string;
  const until = new Date(Date.now() + inMs);
  const snoozed = await call('PATCH', `/conversations/${id}`, {
    ...authOf(t),
    body: { status: 'snoozed', snoozed_until: until.toISOString() },
  });
  expect(snoozed.body).toMatchObject({ status: 'snoozed', snoozed_until: until.toISOString() });
  return { id, until };
}

const pastTime = (at: Date) => new Promise((ok) => setTimeout(ok, Math.max(0, at.getTime() - Date.now() + 50)));

it('wakes a conversation whose snooze has passed, once, with its event, and leaves a later one snoozed', async () => {
  const t = await createTenant();
  const { id: due, until: soon } = await snoozedConversation(t, '+4915110007001', 3000);
  const { id: notYet } = await snoozedConversation(t, '+4915110007002', 3600_000);
  await pastTime(soon);

  expect((await wakeRun()).failed).toBe(0);
  const woken = await call('GET', `/conversations/${due}`, authOf(t));
  expect(woken.body).toMatchObject({ status: 'open', snoozed_until: null });
  // Woken means first in the inbox again.
  await listEventually('/conversations?status=open', authOf(t), (body) => body.data[0]?.id === due);
  expect((await call('GET', `/conversations/${notYet}`, authOf(t))).body.status).toBe('snoozed');

  await wakeRun();
  const isWake = (e: any) => e.data.conversation.id === due && e.data.changes.status?.to === 'open';
  const wakes = (await eventsOf(t, 'conversation.updated', (events) => events.some(isWake))).filter(isWake);
  expect(wakes).toHaveLength(1);
  expect(wakes[0].data.changes).toMatchObject({
    status: { from: 'snoozed', to: 'open' },
    snoozed_until: { from: soon.toISOString(), to: null },
  });
}, 30_000);

it('a change made after the snooze passed, before the worker came, applies to the woken conversation', async () => {
  const t = await createTenant();
  const { id, until: soon } = await snoozedConversation(t, '+4915110007003', 3000);
  await pastTime(soon);

  const tagged = await call('PATCH', `/conversations/${id}`, { ...authOf(t), body: { tags: ['vip'] } });
  expect(tagged.status).toBe(200);
  expect(tagged.body).toMatchObject({ status: 'open', snoozed_until: null, tags: ['vip'] });
  // Snoozing again needs a new time: the old one is over.
  const again = await call('PATCH', `/conversations/${id}`, { ...authOf(t), body: { status: 'snoozed' } });
  expect(again).toMatchObject({ status: 422, body: { code: 'snoozed_until_required' } });
  // Nothing left for the worker: the conversation stays open with its tag.
  await wakeRun();
  expect((await call('GET', `/conversations/${id}`, authOf(t))).body).toMatchObject({
    status: 'open',
    tags: ['vip'],
  });
}, 30_000);
