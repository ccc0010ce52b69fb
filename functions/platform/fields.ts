/** Rebuilds a stored item with its fields in a fixed order (DynamoDB returns them in any order). */
export function inOrder<T>(item: Record<string, unknown>, fields: readonly (keyof T & string)[]): T {
  return Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
}

/** Customers nested in conversations and bookings. */
export const CUSTOMER_REF_FIELDS = ['id', 'name', 'phone'] as const;
