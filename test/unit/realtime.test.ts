import { REALTIME_LIMITS } from '../../catalog/realtime';
import { newEvent } from '../../functions/events/store';
import {
  ClientMessage,
  conversationOf,
  delivers,
  mayStillBeOpening,
  roleSees,
  subscriptionOf,
} from '../../functions/realtime/subscription';

const tenantId = '6f1c2a7e-1b2c-4d3e-8f90-123456789abc';
const conv = 'conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W';
const now = new Date('2031-01-01T00:00:00Z');
const received = newEvent(
  tenantId,
  'conversation.message.received',
  { message: { id: 'msg_1' }, conversation_id: conv },
  now,
);
const created = newEvent(tenantId, 'conversation.created', { conversation: { id: conv } }, now);
const booking = newEvent(tenantId, 'booking.created', { booking: { id: 'bkg_1' } }, now);
const channel = newEvent(tenantId, 'channel.reauthorization_required', { channel: { id: 'ch' } }, now);
const connection = (role: 'admin' | 'agent', fields: { types?: string[]; conversation_id?: string } = {}) => ({
  tenantId,
  principalId: 'usr_1',
  role,
  subscription: subscriptionOf(fields),
});

describe('realtime delivery rules', () => {
  it('gives admins every type and agents all but channel and webhook types', () => {
    expect(roleSees('admin', 'channel.reauthorization_required')).toBe(true);
    expect(roleSees('agent', 'channel.reauthorization_required')).toBe(false);
    expect(roleSees('agent', 'webhook.test')).toBe(false);
    expect(roleSees('agent', 'conversation.created')).toBe(true);
    expect(delivers(connection('agent'), channel)).toBe(false);
    expect(delivers(connection('admin'), channel)).toBe(true);
  });

  it('matches types and patterns, and one conversation by its id in either place', () => {
    const bookings = connection('admin', { types: ['booking.*'] });
    expect([received, created, booking].map((e) => delivers(bookings, e))).toEqual([false, false, true]);
    const one = connection('agent', { conversation_id: conv });
    expect([received, created, booking].map((e) => delivers(one, e))).toEqual([true, true, false]);
    expect(conversationOf(received)).toBe(conv);
    expect(conversationOf(booking)).toBeUndefined();
    expect(delivers(connection('admin'), { ...received, tenant_id: 'another' })).toBe(false);
  });

  it('parses the client messages strictly', () => {
    expect(ClientMessage.safeParse({ action: 'ping' }).success).toBe(true);
    expect(
      ClientMessage.safeParse({ action: 'subscribe', types: ['conversation.*'], conversation_id: conv }).success,
    ).toBe(true);
    for (const bad of [{}, { action: 'pong' }, { action: 'ping', extra: 1 }, { action: 'subscribe', types: ['nope'] }])
      expect([bad, ClientMessage.safeParse(bad).success]).toEqual([bad, false]);
    expect(subscriptionOf({ types: ['booking.*', 'booking.*'] })).toEqual({ types: ['booking.*'] });
  });
});

describe('a connection that may still be opening', () => {
  it('is one registered within REALTIME_LIMITS.openingSeconds: a send that finds it gone does not forget it', () => {
    const at = (secondsAgo: number) => ({ connectedAt: new Date(now.getTime() - secondsAgo * 1000).toISOString() });
    expect(mayStillBeOpening(at(0), now)).toBe(true);
    expect(mayStillBeOpening(at(REALTIME_LIMITS.openingSeconds), now)).toBe(true);
    expect(mayStillBeOpening(at(REALTIME_LIMITS.openingSeconds + 1), now)).toBe(false);
    expect(mayStillBeOpening(at(3600), now)).toBe(false);
  });
});
