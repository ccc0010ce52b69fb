import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { tableName } from './config';
import { db } from './db';
import { tenantPk } from './keys';
import { DomainError } from './domain-error';
import { signingSecret } from './secrets';
import { wholeNumberParam } from './validation';

/** `?limit=` (1 to 100, default 20) and `?cursor=`, shared by every list endpoint. */
export const pageQuery = {
  limit: z._default(wholeNumberParam(1, 100), 20),
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

/** The last key derived, beside the secret it came from: a rotated secret derives a new one. */
let derived: { from: Buffer; key: Buffer } | undefined;

async function cursorKey(): Promise<Buffer> {
  // A key derived from the token secret, so cursors need no secret of their own.
  const from = await signingSecret();
  if (!derived?.from.equals(from))
    derived = { from: Buffer.from(from), key: createHmac('sha256', from).update('pagination-cursor-v2').digest() };
  return derived.key;
}

const bindingData = (binding: CursorBinding) => Buffer.from(`${binding.owner}\n${binding.list}`);

/**
 * Cursors are AES-256-GCM ciphertexts of the DynamoDB start key: opaque (no internal keys leak) and
 * tamper-proof, with the owner and list as authenticated data so they only work where they were issued.
 */
export async function encodeCursor(binding: CursorBinding, key: Record<string, unknown>): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(), iv);
  cipher.setAAD(bindingData(binding));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(key), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** Returns the DynamoDB start key, or throws `invalid_cursor` for a cursor that was tampered with or not issued here. */
export async function decodeCursor(binding: CursorBinding, cursor: string): Promise<Record<string, unknown>> {
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length < 29 || raw.toString('base64url') !== cursor) throw invalidCursor();
  try {
    const decipher = createDecipheriv('aes-256-gcm', await cursorKey(), raw.subarray(0, 12));
    decipher.setAAD(bindingData(binding));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as Record<string, unknown>;
  } catch {
    throw invalidCursor();
  }
}

export const invalidCursor = () =>
  DomainError.malformed('invalid_cursor', 'The pagination cursor is invalid or was issued for another list.');

/** The most items a filtered list evaluates for one page. */
export const MAX_FILTERED_READ = 1000;

const pick = (item: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, item[k]]));

/**
 * One Query per page, newest first. It asks for one item more than the page so `has_more` is exact, and
 * builds the next cursor from the last returned item's key attributes. A query with a FilterExpression
 * (a list that skips items of the sequence it reads) asks for twice that, and reads on only while the
 * items it kept do not yet fill the page and the sequence goes on, so `has_more` stays exact. A rare
 * match could read a whole partition that way, so one page evaluates at most MAX_FILTERED_READ items:
 * then the page may be short (even empty), with `has_more` and a cursor where the reading stopped.
 */
export async function queryPage(
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  request: { limit: number; cursor?: string },
  binding: CursorBinding,
  keyAttributes: readonly string[],
): Promise<{ items: Record<string, unknown>[]; hasMore: boolean; nextCursor: string | null }> {
  const filtered = input.FilterExpression !== undefined;
  let startKey = request.cursor ? await decodeCursor(binding, request.cursor) : undefined;
  const all: Record<string, unknown>[] = [];
  let evaluated = 0;
  do {
    const out = await db().send(
      new QueryCommand({
        ScanIndexForward: false,
        ...input,
        Limit: Math.min(
          (request.limit + 1 - all.length) * (filtered ? 2 : 1),
          filtered ? MAX_FILTERED_READ - evaluated : Infinity,
        ),
        ExclusiveStartKey: startKey,
      }),
    );
    all.push(...(out.Items ?? []));
    evaluated += out.ScannedCount ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (filtered && all.length <= request.limit && startKey && evaluated < MAX_FILTERED_READ);
  const items = all.slice(0, request.limit);
  const last = items[items.length - 1];
  if (all.length <= request.limit && startKey) {
    // The read stopped short (a filtered read at its bound, or a Query at DynamoDB's 1 MB) with the
    // sequence going on: the next page resumes where it stopped.
    return { items, hasMore: true, nextCursor: await encodeCursor(binding, pick(startKey, keyAttributes)) };
  }
  const hasMore = all.length > request.limit;
  const nextCursor = hasMore && last ? await encodeCursor(binding, pick(last, keyAttributes)) : null;
  return { items, hasMore, nextCursor };
}

/**
 * A page of one tenant's items of the Main table whose sort key starts with `prefix`, newest first (their
 * ids are ULIDs): one Query. The store passes its own prefix; `list` names the list its cursors belong to.
 */
export const tenantItemsPage = (
  tenantId: string,
  prefix: string,
  list: string,
  request: { limit: number; cursor?: string },
) =>
  queryPage(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': prefix },
    },
    request,
    { owner: tenantId, list },
    ['pk', 'sk'],
  );

export function toPage<T>(data: T[], limit: number, page: { hasMore: boolean; nextCursor: string | null }): Page<T> {
  return { data, pagination: { limit, has_more: page.hasMore, next_cursor: page.nextCursor } };
}
