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

/**
 * A name as name searches compare it: accents and case dropped, runs of spaces made one (so "Jose" finds
 * "José Álvarez", "ma" finds "Maria").
 */
export const nameSearchForm = (name: string): string =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

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
