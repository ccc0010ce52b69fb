import { DomainError } from '../platform/domain-error';

/** Customers: identified per tenant by their channel identity (the phone number for WhatsApp). */
export interface Customer {
  id: string;
  tenant_id: string;
  name: string | null;
  phone: string;
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

export const customerView = (c: Customer) => ({ id: c.id, name: c.name, phone: c.phone });

/** A customer as `/customers` returns them. */
export const customerRecord = (c: Customer) => ({
  id: c.id,
  tenant_id: c.tenant_id,
  name: c.name,
  phone: c.phone,
  created_at: c.created_at,
  updated_at: c.updated_at ?? c.created_at,
  version: versionOf(c),
});
