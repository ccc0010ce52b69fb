/** Rebuilds a stored item with its fields in a fixed order (DynamoDB returns them in any order). */
export function inOrder<T>(item: Record<string, unknown>, fields: readonly (keyof T & string)[]): T {
  return Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
}

/** Customers nested in conversations and bookings. */
export const CUSTOMER_REF_FIELDS = ['id', 'name', 'phone'] as const;

/** JSON with sorted object keys: equal values give equal strings, whatever order DynamoDB returned. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
