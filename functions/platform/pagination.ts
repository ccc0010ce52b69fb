import { createHmac, timingSafeEqual } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { db } from './db';
import { badRequest } from './errors';
import { signingSecret } from './secrets';

/** `?limit=` and `?cursor=`, shared by every list endpoint. */
export const pageQuery = {
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
};

export interface Page<T> {
  data: T[];
  pagination: { limit: number; has_more: boolean; next_cursor: string | null };
}

/** What a cursor is bound to: the owner (tenant id, or "platform") and the list it pages through. */
export interface CursorBinding {
  owner: string;
  list: string;
}

async function cursorKey(): Promise<Buffer> {
  // A key derived from the token secret, so cursors need no secret of their own.
  return createHmac('sha256', await signingSecret()).update('pagination-cursor-v1').digest();
}

export async function encodeCursor(binding: CursorBinding, key: Record<string, unknown>): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ o: binding.owner, l: binding.list, k: key })).toString('base64url');
  const mac = createHmac('sha256', await cursorKey()).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** Returns the DynamoDB start key, or throws 400 for a cursor that was tampered with or not issued here. */
export async function decodeCursor(binding: CursorBinding, cursor: string): Promise<Record<string, unknown>> {
  const invalid = () => badRequest('invalid_cursor', 'The pagination cursor is invalid or was issued for another list.');
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw invalid();
  const expected = createHmac('sha256', await cursorKey()).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o: string; l: string; k: Record<string, unknown> };
  if (decoded.o !== binding.owner || decoded.l !== binding.list) throw invalid();
  return decoded.k;
}

/**
 * One Query per page, newest first. It asks for one item more than the page so `has_more` is exact, and
 * builds the next cursor from the last returned item's key attributes.
 */
export async function queryPage(
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  request: { limit: number; cursor?: string },
  binding: CursorBinding,
  keyAttributes: readonly string[],
): Promise<{ items: Record<string, unknown>[]; hasMore: boolean; nextCursor: string | null }> {
  const startKey = request.cursor ? await decodeCursor(binding, request.cursor) : undefined;
  const out = await db().send(
    new QueryCommand({ ScanIndexForward: false, ...input, Limit: request.limit + 1, ExclusiveStartKey: startKey }),
  );
  const all = out.Items ?? [];
  const items = all.slice(0, request.limit);
  const hasMore = all.length > request.limit;
  const last = items[items.length - 1];
  const nextCursor =
    hasMore && last ? await encodeCursor(binding, Object.fromEntries(keyAttributes.map((k) => [k, last[k]]))) : null;
  return { items, hasMore, nextCursor };
}

export function toPage<T>(data: T[], limit: number, page: { hasMore: boolean; nextCursor: string | null }): Page<T> {
  return { data, pagination: { limit, has_more: page.hasMore, next_cursor: page.nextCursor } };
}
