import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Public ids: a short type prefix plus a ULID, so ids sort by creation time and say what they name. */
export type IdPrefix =
  | 'usr'
  | 'key'
  | 'ses'
  | 'evt'
  | 'conv'
  | 'msg'
  | 'note'
  | 'bkg'
  | 'whk'
  | 'dlv'
  | 'cus'
  | 'rpl'
  | 'pay'
  | 'rfd'
  | 'tpl'
  | 'med';

/** Monotonic: ids made in the same millisecond still sort in creation order (events of one change). */
const ulid = monotonicFactory();
export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid()}`;

const ULID_DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The id right after `id` (its ULID plus one), as the monotonic factory makes it within a millisecond. */
export function idAfter(id: string): string {
  const digits = [...id];
  for (let i = digits.length - 1; i >= 0 && digits[i] !== '_'; i--) {
    const value = ULID_DIGITS.indexOf(digits[i] ?? '');
    if (value < ULID_DIGITS.length - 1) {
      digits[i] = ULID_DIGITS[value + 1] ?? '';
      return digits.join('');
    }
    digits[i] = '0';
  }
  return digits.join('');
}

/** `count` consecutive ids of one millisecond: the events of one change, which may then share an item. */
export const newIdSeries = (prefix: IdPrefix, count: number): string[] => {
  const at = Date.now();
  return Array.from({ length: count }, () => `${prefix}_${ulid(at)}`);
};

const ID_PATTERN = /^[a-z]{3,4}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `id` has the given prefix and a well-formed ULID, so malformed ids 404 without a lookup. */
export const isId = (prefix: IdPrefix, id: string): boolean => id.startsWith(`${prefix}_`) && ID_PATTERN.test(id);

/** Tenants are named by UUIDs (the X-Tenant-ID header). */
export const newTenantId = (): string => randomUUID();

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
