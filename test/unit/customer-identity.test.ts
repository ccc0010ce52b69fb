import {
  normaliseWhatsAppUserId,
  planIdentity,
  whatsAppRecipient,
  type Customer,
} from '../../functions/customers/customer';
import { customerHandles, pointerHandle } from '../../functions/conversations/store';
import { decideGraphError, graphErrorReason } from '../../functions/channels/graph-errors';

const now = new Date('2031-03-01T10:00:00.000Z');
const customer = (id: string, fields: Partial<Customer>): Customer => ({
  id,
  tenant_id: 't',
  name: null,
  phone: null,
  whatsapp_user_id: null,
  whatsapp_username: null,
  created_at: '2031-01-01T00:00:00.000Z',
  updated_at: '2031-01-01T00:00:00.000Z',
  version: 3,
  ...fields,
});
const seen = (phone: string | null, userId: string | null, username: string | null = null) => ({
  phone,
  userId,
  username,
});

describe("Meta's business-scoped user ids", () => {
  it('accepts a country code, a dot and up to 128 letters and digits, and parent ids', () => {
    expect(normaliseWhatsAppUserId('US.13491208655302741918')).toBe('US.13491208655302741918');
    expect(normaliseWhatsAppUserId(' US.13491208655302741918 ')).toBe('US.13491208655302741918');
    expect(normaliseWhatsAppUserId('US.ENT.11815799212886844830')).toBe('US.ENT.11815799212886844830');
    expect(normaliseWhatsAppUserId(`DE.${'a'.repeat(128)}`)).not.toBeNull();
    for (const bad of [`DE.${'a'.repeat(129)}`, 'us.123', 'US.', 'US-123', '4915112345678', 'US.12 34', 42, null])
      expect(normaliseWhatsAppUserId(bad)).toBeNull();
  });

  it('addresses the phone number when known, else the BSUID', () => {
    expect(whatsAppRecipient({ phone: '+4915112345678', whatsapp_user_id: 'US.1' })).toEqual({
      phone: '+4915112345678',
      userId: 'US.1',
    });
    expect(whatsAppRecipient({ phone: null, whatsapp_user_id: 'US.1' })).toEqual({ phone: null, userId: 'US.1' });
  });

  it('fails a send Meta refuses for a BSUID recipient (131062) at once, with a reason a person can act on', () => {
    expect(decideGraphError(400, 131062)).toEqual({ kind: 'fail' });
    expect(graphErrorReason(131062, '(#131062) Business-scoped user ID recipient not supported')).toMatch(
      /cannot be sent to a customer known only by their WhatsApp username/,
    );
  });
});

describe('which customer a message with a phone and/or a BSUID belongs to', () => {
  const phoneCustomer = customer('cus_p', { phone: '+4915112345678' });
  const userCustomer = customer('cus_u', { whatsapp_user_id: 'US.1', whatsapp_username: 'carla' });

  it('creates a customer nobody knows, and keeps one whose identities it already has', () => {
    expect(planIdentity({ byPhone: undefined, byUserId: undefined }, seen(null, 'US.1'), now)).toEqual({
      kind: 'create',
    });
    expect(planIdentity({ byPhone: phoneCustomer, byUserId: undefined }, seen('+4915112345678', null), now)).toEqual({
      kind: 'known',
      customer: phoneCustomer,
    });
    expect(planIdentity({ byPhone: undefined, byUserId: userCustomer }, seen(null, 'US.1'), now)).toEqual({
      kind: 'known',
      customer: userCustomer,
    });
    const both = customer('cus_b', { phone: '+4915112345678', whatsapp_user_id: 'US.1' });
    expect(planIdentity({ byPhone: both, byUserId: both }, seen('+4915112345678', 'US.1'), now)).toMatchObject({
      kind: 'known',
      customer: both,
    });
  });

  it('gives a phone customer the BSUID, and a BSUID customer the phone, one version on', () => {
    const toPhone = planIdentity(
      { byPhone: phoneCustomer, byUserId: undefined },
      seen('+4915112345678', 'US.1', 'carla'),
      now,
    );
    expect(toPhone).toEqual({
      kind: 'link',
      before: phoneCustomer,
      after: {
        ...phoneCustomer,
        whatsapp_user_id: 'US.1',
        whatsapp_username: 'carla',
        version: 4,
        updated_at: now.toISOString(),
      },
    });
    const toUser = planIdentity({ byPhone: undefined, byUserId: userCustomer }, seen('+4915112345678', 'US.1'), now);
    expect(toUser).toEqual({
      kind: 'link',
      before: userCustomer,
      after: { ...userCustomer, phone: '+4915112345678', version: 4, updated_at: now.toISOString() },
    });
  });

  it('keeps the phone customer when the two are different people on record, taking the BSUID from the other', () => {
    const plan = planIdentity({ byPhone: phoneCustomer, byUserId: userCustomer }, seen('+4915112345678', 'US.1'), now);
    expect(plan).toMatchObject({
      kind: 'repoint',
      before: phoneCustomer,
      after: { id: 'cus_p', phone: '+4915112345678', whatsapp_user_id: 'US.1', whatsapp_username: null, version: 4 },
      previous: { before: userCustomer, after: { id: 'cus_u', whatsapp_user_id: null, version: 4 } },
    });
  });

  it('never replaces a known identity: another BSUID or another phone on record stays', () => {
    const withOther = customer('cus_o', { phone: '+4915112345678', whatsapp_user_id: 'US.2' });
    expect(planIdentity({ byPhone: withOther, byUserId: undefined }, seen('+4915112345678', 'US.1'), now)).toEqual({
      kind: 'known',
      customer: withOther,
    });
    const otherPhone = customer('cus_q', { phone: '+4915199999999', whatsapp_user_id: 'US.1' });
    expect(planIdentity({ byPhone: undefined, byUserId: otherPhone }, seen('+4915112345678', 'US.1'), now)).toEqual({
      kind: 'known',
      customer: otherPhone,
    });
  });
});

describe("the handles a customer's active conversation is found under", () => {
  it('are the phone and the BSUID, the phone first; the id for a customer with neither', () => {
    expect(customerHandles({ id: 'cus_1', phone: '+4915112345678', whatsapp_user_id: 'US.1' })).toEqual([
      '+4915112345678',
      'wa:US.1',
    ]);
    expect(pointerHandle({ id: 'cus_1', phone: null, whatsapp_user_id: 'US.1' })).toBe('wa:US.1');
    expect(pointerHandle({ id: 'cus_1', phone: '+4915112345678', whatsapp_user_id: 'US.1' })).toBe('+4915112345678');
    expect(customerHandles({ id: 'cus_1', phone: null, whatsapp_user_id: null })).toEqual(['cus:cus_1']);
  });
});
