import { TABLES, QUEUES, type TableName, type QueueKey } from '../../catalog/resources';

/** Environment lookups happen at call time, never at module load, so the local runtime can set them. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export const tableName = (table: TableName): string => requireEnv(TABLES[table].envVar);
export const queueUrl = (queue: QueueKey): string => requireEnv(QUEUES[queue].envVar);

export const JWT_ISSUER = 'messaging-platform';
export const ACCESS_AUDIENCE = 'messaging-api';
export const REFRESH_AUDIENCE = 'messaging-api:refresh';
