/**
 * The partition key of a tenant's items in the Main table. Every store builds its keys on it, so a
 * tenant's data is one partition family that no other tenant's key can name.
 */
export const tenantPk = (tenantId: string): string => `TENANT#${tenantId}`;

/** The tenant a Main-table partition key names (tenantPk read back); undefined for any other key. */
export const tenantOfPk = (pk: unknown): string | undefined =>
  typeof pk === 'string' && pk.startsWith('TENANT#') ? pk.slice('TENANT#'.length) : undefined;
