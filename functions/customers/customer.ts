// Public: the customer model (pure): phone numbers and identities.
import { DomainError } from '../platform/domain-error';

/**
 * Customers: identified per tenant by their channel identities: the phone number, and for WhatsApp also
 * Meta's business-scoped user id (BSUID), which is all a user who adopted a username may show. At least
 * one of the two is known.
 */
export interface Customer {
  id: string;
  tenant_id: string;
  name: string | null;
  /** Null for a WhatsApp user known only by their BSUID (the phone number withheld). */
  phone: string | null;
  /** Meta's business-scoped user id (`US.13491208655302741918`); absent on customers stored before it. */
  whatsapp_user_id?: string | null;
  /** The user's WhatsApp username, as their last linking message showed it. */
  whatsapp_username?: string | null;
  created_at: string;
  /** Absent on customers stored before names could change: version 1, updated when created. */
  version?: number;
  updated_at?: string;
}

export const versionOf = (c: Customer): number => c.version ?? 1;

/** E.164 without spaces: "+" and 8-15 digits. WhatsApp's wa_id has no "+", so it is added. */
export function normalisePhone(raw: string): string | null {
  const digits = raw.replace(/[\s().-]/g, '');
  const withPlus = digits.startsWith('+') ? digits : `+${digits}`;
  return /^\+[1-9]\d{7,14}$/.test(withPlus) ? withPlus : null;
}

/** The normalised phone, or `invalid_phone` naming the field at `path`. */
export function requirePhone(raw: string, path: string): string {
  const phone = normalisePhone(raw);
  if (!phone)
    throw DomainError.invalid('invalid_phone', 'Phone numbers must be in international format, like +4915112345678.', [
      { path, message: 'not an E.164 number' },
    ]);
  return phone;
}

/** Letters that compatibility decomposition leaves whole, spelled as people type them without accents. */
const FOLDED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
/** Characters of a search form kept: 200, at most 800 bytes, well inside DynamoDB's 1 KB sort key. */
export const NAME_SEARCH_LENGTH = 200;

/**
 * A name as name searches compare it: accents and case dropped, control characters and runs of spaces
 * made one space, the first NAME_SEARCH_LENGTH characters (so "Jose" finds "José Álvarez", "lukasz" finds
 * "Łukasz").
 */
export const nameSearchForm = (name: string): string =>
  Array.from(
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[ßæœøłđðþı]/g, (c) => FOLDED[c] ?? c)
      .replace(/[\s\p{Cc}]+/gu, ' ')
      .trim(),
  )
    .slice(0, NAME_SEARCH_LENGTH)
    .join('')
    .trimEnd();

/** How many later words of a name also find it ("lopez" finds "Maria Lopez"): the 2nd to the 5th. */
export const LATER_WORDS_SEARCHED = 4;

/**
 * The search forms a name is found by besides its whole form: the rest of the name from each later word,
 * up to LATER_WORDS_SEARCHED of them ("lopez garcia" and "garcia" for "María López García"). Words are
 * split at spaces, hyphens and apostrophes, so "lopez" finds "García-López" and "brien" "O'Brien".
 */
export function laterWordForms(name: string): string[] {
  const form = nameSearchForm(name);
  const starts = [...form.matchAll(/[ '’-](?=[^ '’-])/g)].map((m) => m.index + 1);
  return starts.slice(0, LATER_WORDS_SEARCHED).map((start) => form.slice(start));
}

/**
 * Meta's business-scoped user id: a two-letter country code, a dot, then up to 128 letters and digits (a
 * parent BSUID has a second part: `US.ENT.…`).
 */
export function normaliseWhatsAppUserId(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const id = raw.trim();
  return /^[A-Z]{2}\.(?:[A-Z]{2,8}\.)?[A-Za-z0-9]{1,128}$/.test(id) ? id : null;
}

/** How a customer is addressed on WhatsApp: the phone number when known, else the BSUID. */
export const whatsAppRecipient = (c: { phone: string | null; whatsapp_user_id?: string | null }) => ({
  phone: c.phone,
  userId: c.whatsapp_user_id ?? null,
});

/** A customer as conversations and bookings carry a copy of them. */
export interface CustomerRef {
  id: string;
  name: string | null;
  phone: string | null;
  whatsapp_user_id: string | null;
  whatsapp_username: string | null;
}

/**
 * The customer version each copy was taken at, kept beside the copy rather than in it (its fields are API
 * fields): stores write it with the copy, so a copy only ever replaces an older one (concurrent renames
 * end with the newest name, whatever order their copies land in).
 */
const copyVersions = new WeakMap<CustomerRef, number>();

export const customerView = (c: Customer): CustomerRef =>
  withCopyVersion(
    {
      id: c.id,
      name: c.name,
      phone: c.phone,
      whatsapp_user_id: c.whatsapp_user_id ?? null,
      whatsapp_username: c.whatsapp_username ?? null,
    },
    versionOf(c),
  );

/** The customer version a copy was taken at; undefined for a copy stored before copies carried one. */
export const copyVersionOf = (copy: CustomerRef): number | undefined => copyVersions.get(copy);

/** `copy`, known to be taken at `version` (as stored beside it; anything but a number: unknown). */
export function withCopyVersion(copy: CustomerRef, version: unknown): CustomerRef {
  if (typeof version === 'number') copyVersions.set(copy, version);
  return copy;
}

/** A customer as `/customers` returns them. */
export const customerRecord = (c: Customer) => ({
  id: c.id,
  tenant_id: c.tenant_id,
  name: c.name,
  phone: c.phone,
  whatsapp_user_id: c.whatsapp_user_id ?? null,
  whatsapp_username: c.whatsapp_username ?? null,
  created_at: c.created_at,
  updated_at: c.updated_at ?? c.created_at,
  version: versionOf(c),
});

/** Who a channel message says wrote it: the phone number, Meta's BSUID, or both (and a WhatsApp username). */
export interface SeenIdentity {
  phone: string | null;
  userId: string | null;
  username: string | null;
}

/**
 * What a message's identities mean for the customers found by them, before any write:
 * - `create`: nobody is known by either;
 * - `known`: the customer, as it is (nothing new to learn, or nothing we may take);
 * - `link`: the customer found by one identity gains the other (a phone customer their BSUID, a BSUID
 *   customer their phone);
 * - `repoint`: the phone's customer and the BSUID's are two: the phone's customer is kept and takes the
 *   BSUID from the other, whose history stays theirs (the two are not merged).
 * A known identity is never replaced: a customer whose phone or BSUID differs from the message's stays as
 * it is (the phone number decides, as it does when Meta is given both). Pure.
 */
export type IdentityPlan =
  | { kind: 'create' }
  | { kind: 'known'; customer: Customer }
  | { kind: 'link'; before: Customer; after: Customer }
  | { kind: 'repoint'; before: Customer; after: Customer; previous: { before: Customer; after: Customer } };

export function planIdentity(
  found: { byPhone: Customer | undefined; byUserId: Customer | undefined },
  seen: SeenIdentity,
  now: Date,
): IdentityPlan {
  const { byPhone, byUserId } = found;
  const changed = (c: Customer, fields: Partial<Customer>): Customer => ({
    ...c,
    ...fields,
    version: versionOf(c) + 1,
    updated_at: now.toISOString(),
  });
  const withUserId = (c: Customer) =>
    changed(c, { whatsapp_user_id: seen.userId, whatsapp_username: seen.username ?? c.whatsapp_username ?? null });
  if (byPhone && seen.userId && !byPhone.whatsapp_user_id) {
    if (!byUserId) return { kind: 'link', before: byPhone, after: withUserId(byPhone) };
    if (byUserId.id !== byPhone.id)
      return {
        kind: 'repoint',
        before: byPhone,
        after: withUserId(byPhone),
        previous: { before: byUserId, after: changed(byUserId, { whatsapp_user_id: null }) },
      };
  }
  if (byPhone) return { kind: 'known', customer: byPhone };
  if (byUserId && seen.phone && !byUserId.phone)
    return { kind: 'link', before: byUserId, after: changed(byUserId, { phone: seen.phone }) };
  if (byUserId) return { kind: 'known', customer: byUserId };
  return { kind: 'create' };
}
