/** Rebuilds a stored item with its fields in a fixed order (DynamoDB returns them in any order). */
export function inOrder<T>(item: Record<string, unknown>, fields: readonly (keyof T & string)[]): T {
  // A loop rather than fromEntries(map): it runs for every item of every page.
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f] ?? null;
  return out as T;
}

/** Customers nested in conversations and bookings. */
export const CUSTOMER_REF_FIELDS = ['id', 'name', 'phone', 'whatsapp_user_id', 'whatsapp_username'] as const;

/**
 * JSON with sorted object keys: equal values give equal strings, whatever order DynamoDB returned.
 * Iterative, with its own stack, so no nesting depth can overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Pending work, last first: literal text to append, or a value to write.
  const todo: ([text: string] | [text: undefined, value: unknown])[] = [[undefined, value]];
  for (let item = todo.pop(); item; item = todo.pop()) {
    if (item[0] !== undefined) {
      out.push(item[0]);
      continue;
    }
    const v = item[1];
    if (Array.isArray(v)) {
      todo.push([']']);
      for (let i = v.length - 1; i >= 0; i--) todo.push([undefined, v[i]], [i > 0 ? ',' : '']);
      out.push('[');
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v).sort();
      todo.push(['}']);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        todo.push([undefined, (v as Record<string, unknown>)[k]], [`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`]);
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(v ?? null));
    }
  }
  return out.join('');
}

/** What changed in an update, for an event's `data.changes`: only fields whose value differs. */
export function diff<T extends Record<string, unknown>>(
  before: T,
  after: T,
  fields: readonly (keyof T)[],
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of fields) {
    if (canonicalJson(before[field]) !== canonicalJson(after[field])) {
      changes[String(field)] = { from: before[field] ?? null, to: after[field] ?? null };
    }
  }
  return changes;
}

/**
 * Whether `changes` (undefined: leave a field alone; null: remove it) would leave `before` as it is: such a
 * PATCH is answered with the resource unchanged, without a write or a new version, so other clients'
 * If-Match values stay good.
 */
export function changesNothing(before: object, changes: Record<string, unknown>): boolean {
  const current = before as Record<string, unknown>;
  return Object.entries(changes).every(
    ([field, value]) => value === undefined || canonicalJson(value) === canonicalJson(current[field] ?? null),
  );
}

/** Deepest nesting of objects and arrays in a JSON text (`{}` is 1), scanned without parsing. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
