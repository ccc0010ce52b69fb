import { isEventFilter, matchesPattern } from '../../functions/events/catalog';
import { diff } from '../../functions/platform/fields';
import {
  insideServiceWindow,
  transitionProblem as conversationTransition,
  wakeIfDue,
  type Conversation,
} from '../../functions/conversations/conversation';
import { isValidTimezone } from '../../functions/platform/validation';
import {
  outcomeProblem,
  overlaps,
  timeProblem,
  transitionProblem as bookingTransition,
} from '../../functions/bookings/booking';
import { laterWordForms, nameSearchForm, normalisePhone } from '../../functions/customers/customer';
import { inboundChunks, inboundText, tokenProblem, validSignature } from '../../functions/channels/whatsapp';
import { PAIR_RATE_LIMIT_WAIT_MS, decideGraphError, graphVersionStatus } from '../../functions/channels/graph-errors';
import { DISPATCH_FILTERS } from '../../catalog/workers';
import { matchesFilter } from '../../catalog/event-filters';
import { createHmac } from 'node:crypto';

describe('event patterns', () => {
  it('match exact types and wildcards', () => {
    expect(matchesPattern('booking.created', '*')).toBe(true);
    expect(matchesPattern('booking.created', 'booking.*')).toBe(true);
    expect(matchesPattern('conversation.message.read', 'conversation.*')).toBe(true);
    expect(matchesPattern('booking.created', 'conversation.*')).toBe(false);
    expect(matchesPattern('booking.created', 'booking.created')).toBe(true);
    expect(isEventFilter('payment.*')).toBe(true);
    expect(isEventFilter('booking.deleted')).toBe(false);
  });

  it('diff lists only changed fields', () => {
    expect(diff({ a: 1, b: [1], c: null }, { a: 1, b: [1, 2], c: null }, ['a', 'b', 'c'])).toEqual({
      b: { from: [1], to: [1, 2] },
    });
  });
});

describe('conversation rules', () => {
  it('allow the documented transitions', () => {
    expect(conversationTransition('open', 'resolved')).toBeNull();
    expect(conversationTransition('resolved', 'open')).toBeNull();
    expect(conversationTransition('open', 'open')).toBeNull();
    expect(conversationTransition('resolved', 'snoozed')).toMatch(/can move to open/);
  });

  it('wake a snoozed conversation once its time has passed, and nothing else', () => {
    const snoozed = { status: 'snoozed', snoozed_until: '2026-05-02T12:00:00.000Z' } as Conversation;
    expect(wakeIfDue(snoozed, new Date('2026-05-02T11:59:59.999Z'))).toBe(snoozed);
    expect(wakeIfDue(snoozed, new Date('2026-05-02T12:00:00.000Z'))).toMatchObject({
      status: 'open',
      snoozed_until: null,
    });
    const open = { status: 'open', snoozed_until: null } as Conversation;
    expect(wakeIfDue(open, new Date('2030-01-01T00:00:00Z'))).toBe(open);
  });

  it("enforce WhatsApp's 24-hour window only on WhatsApp", () => {
    const now = new Date('2026-05-02T12:00:00Z');
    expect(insideServiceWindow({ channel: 'whatsapp', last_inbound_at: '2026-05-01T12:00:01Z' }, now)).toBe(true);
    expect(insideServiceWindow({ channel: 'whatsapp', last_inbound_at: '2026-05-01T12:00:00Z' }, now)).toBe(false);
    expect(insideServiceWindow({ channel: 'whatsapp', last_inbound_at: null }, now)).toBe(false);
    expect(insideServiceWindow({ channel: 'sandbox', last_inbound_at: null }, now)).toBe(true);
  });

  it('normalise phone numbers to E.164', () => {
    expect(normalisePhone('4915112345678')).toBe('+4915112345678');
    expect(normalisePhone('+49 (151) 123-45678')).toBe('+4915112345678');
    expect(normalisePhone('0151')).toBeNull();
  });

  it('compare names for search without case, accents or repeated spaces', () => {
    expect(nameSearchForm('  José   ÁLVAREZ ')).toBe('jose alvarez');
    expect(nameSearchForm('Zoë Ölmez-Ñúñez')).toBe('zoe olmez-nunez');
    expect(nameSearchForm('Ｍaria')).toBe('maria');
    expect(nameSearchForm('Łukasz Straße Ørsted\u0007x')).toBe('lukasz strasse orsted x');
    expect([...nameSearchForm('\uFDFA'.repeat(30))].length).toBe(200);
    expect(nameSearchForm('\u0301')).toBe('');
  });

  it('find a name by the rest of it from each of its next four words', () => {
    expect(laterWordForms('María  López García')).toEqual(['lopez garcia', 'garcia']);
    expect(laterWordForms('Madonna')).toEqual([]);
    expect(laterWordForms('\u0301')).toEqual([]);
    expect(laterWordForms('a b c d e f')).toEqual(['b c d e f', 'c d e f', 'd e f', 'e f']);
    expect(laterWordForms('Ana García-López')).toEqual(['garcia-lopez', 'lopez']);
    expect(laterWordForms('Jean- Luc -x')).toEqual(['luc -x', 'x']);
    expect(laterWordForms('Siobhán O’Brien')).toEqual(['o’brien', 'brien']);
    expect(laterWordForms("d'Angelo")).toEqual(['angelo']);
  });
});

describe('booking rules', () => {
  it('treat intervals as half-open', () => {
    const a = { start_at: '2030-01-01T09:00:00Z', end_at: '2030-01-01T10:00:00Z' };
    expect(overlaps(a, { start_at: '2030-01-01T10:00:00Z', end_at: '2030-01-01T11:00:00Z' })).toBe(false);
    expect(overlaps(a, { start_at: '2030-01-01T09:59:00Z', end_at: '2030-01-01T11:00:00Z' })).toBe(true);
    expect(overlaps(a, { start_at: '2030-01-01T08:00:00Z', end_at: '2030-01-01T12:00:00Z' })).toBe(true);
  });

  it('check time ranges, durations, time zones and transitions', () => {
    expect(timeProblem('2030-01-01T10:00:00Z', '2030-01-01T10:00:00Z')).toMatch(/after/);
    expect(timeProblem('2030-01-01T10:00:00Z', '2030-01-02T10:00:01Z')).toMatch(/24 hours/);
    expect(timeProblem('2030-01-01T10:00:00Z', '2030-01-02T10:00:00Z')).toBeNull();
    expect(isValidTimezone('America/Sao_Paulo')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
    expect(bookingTransition('pending', 'confirmed')).toBeNull();
    expect(bookingTransition('cancelled', 'confirmed')).toMatch(/cannot change/);
    expect(bookingTransition('confirmed', 'pending')).toMatch(/completed, cancelled, no_show/);
  });

  it('know how a booking went only once it has started', () => {
    const now = new Date('2030-01-01T10:00:00Z');
    expect(outcomeProblem('completed', '2030-01-01T10:00:01Z', now)).toMatch(/completed once it has started/);
    expect(outcomeProblem('no_show', '2030-01-01T10:00:01Z', now)).toMatch(/no_show/);
    expect(outcomeProblem('completed', '2030-01-01T10:00:00Z', now)).toBeNull();
    expect(outcomeProblem('cancelled', '2030-01-01T11:00:00Z', now)).toBeNull();
    expect(outcomeProblem('confirmed', '2030-01-01T11:00:00Z', now)).toBeNull();
  });
});

describe('WhatsApp payloads', () => {
  it('verify X-Hub-Signature-256 over the raw body', () => {
    const raw = '{"object":"whatsapp_business_account"}';
    const good = `sha256=${createHmac('sha256', 's3cret').update(raw).digest('hex')}`;
    expect(validSignature(raw, good, 's3cret')).toBe(true);
    expect(validSignature(`${raw} `, good, 's3cret')).toBe(false);
    expect(validSignature(raw, good, 'other')).toBe(false);
    expect(validSignature(raw, undefined, 's3cret')).toBe(false);
  });

  it('split a payload into one queued part per business number, halving large parts', () => {
    const chunks = inboundChunks({
      entry: [
        { id: '9', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1' } } }, { value: {} }] },
        { changes: [{ value: { metadata: { phone_number_id: '2' } } }] },
      ],
    });
    expect(chunks.map((c) => [c.phone_number_id, c.waba_id, c.field])).toEqual([
      ['1', '9', 'messages'],
      ['2', null, 'messages'],
    ]);
    const messages = Array.from({ length: 40 }, (_, i) => ({
      id: `wamid.${i}`,
      type: 'text',
      text: { body: 'x'.repeat(1000) },
    }));
    const big = inboundChunks(
      { entry: [{ changes: [{ value: { metadata: { phone_number_id: '1' }, messages } }] }] },
      8_000,
    );
    expect(big.length).toBeGreaterThan(4);
    expect(big.flatMap((c) => c.value.messages ?? []).map((m) => m.id)).toEqual(messages.map((m) => m.id));
    for (const c of big) expect(Buffer.byteLength(JSON.stringify(c.value))).toBeLessThanOrEqual(8_000);
  });

  it('keep what a customer sent: replies, captions, locations and contacts', () => {
    expect(inboundText({ type: 'button', button: { text: 'Confirm', payload: 'c' } })).toBe('Confirm');
    expect(inboundText({ type: 'interactive', interactive: { list_reply: { id: 'r1', title: 'Tue 10:00' } } })).toBe(
      'Tue 10:00',
    );
    expect(inboundText({ type: 'image', image: { caption: 'my rash' } })).toBe('[image] my rash');
    expect(inboundText({ type: 'document', document: { filename: 'x.pdf' } })).toBe('[document x.pdf]');
    expect(inboundText({ type: 'location', location: { latitude: 52.5, longitude: 13.4, name: 'Home' } })).toBe(
      '[location] Home (52.5, 13.4)',
    );
    expect(
      inboundText({ type: 'contacts', contacts: [{ name: { formatted_name: 'Ana' }, phones: [{ phone: '+34 1' }] }] }),
    ).toBe('[contacts] Ana +34 1');
  });
});

describe('Graph API errors', () => {
  it('are decided by Meta\u2019s code, not the HTTP status', () => {
    // Throttling arrives as HTTP 400 with no Retry-After.
    for (const code of [4, 80007, 130429]) expect(decideGraphError(400, code)).toEqual({ kind: 'retry' });
    expect(decideGraphError(400, 131056)).toEqual({ kind: 'retry', minWaitMs: PAIR_RATE_LIMIT_WAIT_MS });
    for (const code of [100, 131026, 131047, 131051]) expect(decideGraphError(400, code)).toEqual({ kind: 'fail' });
    expect(decideGraphError(401, 190)).toEqual({ kind: 'reauthorize' });
    expect(decideGraphError(500, 1)).toEqual({ kind: 'retry' });
    expect(decideGraphError(502, undefined)).toEqual({ kind: 'retry' });
    expect(decideGraphError(400, undefined)).toEqual({ kind: 'fail' });
  });

  it('name a version\u2019s sunset in time', () => {
    expect(graphVersionStatus('v26.0', new Date('2026-11-29'))).toEqual({ status: 'current', version: 'v26.0' });
    expect(graphVersionStatus('v21.0', new Date('2026-11-29'))).toMatchObject({ status: 'sunsetting', daysLeft: 53 });
    expect(graphVersionStatus('v21.0', new Date('2027-02-01'))).toMatchObject({ status: 'expired' });
    expect(graphVersionStatus('v99.0', new Date('2026-11-29'))).toMatchObject({ status: 'unknown' });
  });

  it('refuse tokens that are invalid, short-lived or lack the WhatsApp permissions', () => {
    const now = new Date('2026-11-29T00:00:00Z');
    const scopes = ['whatsapp_business_messaging', 'whatsapp_business_management'];
    expect(tokenProblem({ is_valid: true, expires_at: 0, scopes }, now)).toBeUndefined();
    expect(tokenProblem({ is_valid: false, scopes }, now)).toMatch(/not valid/);
    expect(tokenProblem({ is_valid: true, expires_at: now.getTime() / 1000 + 3600, scopes }, now)).toMatch(/expires/);
    expect(tokenProblem({ is_valid: true, scopes: scopes.slice(0, 1) }, now)).toMatch(/whatsapp_business_management/);
  });
});

describe('dispatcher stream filters', () => {
  const record = (eventName: string, image: Record<string, unknown>) => ({ eventName, dynamodb: { NewImage: image } });
  const pass = (r: unknown) => DISPATCH_FILTERS.some((p) => matchesFilter(r, p));
  it('pass inserted events and queued outbound messages only', () => {
    expect(pass(record('INSERT', { sk: { S: 'EVT#evt_1' } }))).toBe(true);
    expect(pass(record('MODIFY', { sk: { S: 'EVT#evt_1' } }))).toBe(false);
    expect(pass(record('INSERT', { sk: { S: 'CONV#c#MSG#m' }, outbox: { S: 'channel_send' } }))).toBe(true);
    expect(pass(record('INSERT', { sk: { S: 'CONV#c#MSG#m' } }))).toBe(false);
    expect(pass(record('INSERT', { sk: { S: 'USER#u' } }))).toBe(false);
  });

  it('pass a message write that carries its status events, but not the events the dispatcher stored from it', () => {
    const message = { sk: { S: 'CONV#c#MSG#m' }, outbox: { S: 'events' }, outbox_events: { B: 'AA==' } };
    expect(pass(record('MODIFY', message))).toBe(true);
    // A later write of the message that carries no events of its own.
    expect(pass(record('MODIFY', { ...message, outbox: { S: 'channel_send' } }))).toBe(false);
    expect(pass(record('INSERT', { sk: { S: 'EVT#evt_1' }, dispatched: { BOOL: true } }))).toBe(false);
    expect(pass(record('INSERT', { sk: { S: 'EVT#evt_1' }, dispatched: { BOOL: false } }))).toBe(false);
  });
});
