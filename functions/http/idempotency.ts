import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDef } from '../../spec/routes';
import { conditionalWrite, db, refusedItem } from '../platform/db';
import { tableName } from '../platform/config';
import { ApiError, badRequest, unprocessable } from '../platform/errors';
import { seal, unseal } from '../platform/sealed';
import { canonicalJson } from '../platform/fields';
import { header, stateOf, type HttpMiddleware, type HttpRequest } from './request-state';

/**
 * Idempotency-Key on POST, with Stripe's semantics: the first successful response is replayed for 24 h,
 * the same key on another request (another method, path or body) is 422, and a request still running is
 * 409. Keys are scoped by tenant. A stored response is bound to the method and the path with its
 * parameters: the key used on one conversation, webhook or delivery never replays another's response.
 * Errors are not stored: the key is released so the client can retry with it. Unauthenticated routes
 * (login, refresh, inbound webhooks) ignore the header: there is no tenant to scope a key to, and a
 * replayed login or refresh would hand out tokens without the checks. Stored responses are sealed with
 * the data key, because some carry secrets (a new API key).
 */
const REPLAY_SECONDS = 24 * 3600;
/** A crashed request's lock expires after this, so the key does not stay stuck in 409. */
const LOCK_SECONDS = 60;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface IdempotencyRecord {
  pk: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  /** The request id of the request that claimed the key. */
  claimed_by?: string;
  /** The sealed response. */
  response?: string;
}

const recordKey = (owner: string, key: string) => `IDEM#${owner}#${createHash('sha256').update(key).digest('hex')}`;

/**
 * What a key is bound to: the method, the path with its parameters filled in (the route's template, so
 * /v1 and /api/v1 are the same request), the query parameters if any (sorted by name), and the parsed body
 * re-serialised with sorted keys (whitespace and key order do not count). A request without a query is
 * bound as it was before queries counted, so keys stored then still match.
 */
export function requestFingerprint(
  route: Pick<RouteDef, 'method' | 'path'>,
  params: Record<string, string | undefined>,
  body: unknown,
  query: Record<string, string | undefined> = {},
): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const asked = Object.entries(query).filter(([, v]) => v !== undefined);
  const search = asked.length ? `?${canonicalJson(Object.fromEntries(asked))}` : '';
  return createHash('sha256')
    .update(`${route.method} ${path}${search}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export const idempotency = (): HttpMiddleware => {
  const locks = new WeakMap<object, string>();
  return {
    before: async (request: HttpRequest) => {
      const state = stateOf(request);
      if (request.event.requestContext.http.method !== 'POST' || state.route.auth === 'none') return;
      const key = header(request.event, 'idempotency-key');
      if (key === undefined) return;
      if (!KEY_PATTERN.test(key))
        throw badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable ASCII characters.');
      const owner = state.principal.kind === 'platform' ? 'platform' : (state.tenantId ?? '');
      const pk = recordKey(owner, key);
      const fingerprint = requestFingerprint(
        state.route,
        request.event.pathParameters ?? {},
        state.body,
        request.event.queryStringParameters ?? {},
      );
      const nowEpoch = Math.floor(state.now.getTime() / 1000);
      try {
        await db().send(
          new PutCommand({
            TableName: tableName('ephemeral'),
            Item: {
              pk,
              fingerprint,
              // Whose claim it is: a claim whose response was lost is retried by the SDK and refused by
              // its own condition, and must then still count as this request's.
              claimed_by: state.requestId,
              status: 'in_progress',
              locked_until: nowEpoch + LOCK_SECONDS,
              ttl: nowEpoch + REPLAY_SECONDS,
            },
            // TTL deletion can lag by a day or two: an expired record counts as absent.
            ConditionExpression:
              'attribute_not_exists(pk) OR #ttl < :now OR (#status = :running AND locked_until < :now)',
            ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':running': 'in_progress', ':now': nowEpoch },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        locks.set(request, pk);
      } catch (error) {
        const existing = refusedItem(error) as IdempotencyRecord | undefined;
        if (existing?.claimed_by === state.requestId && existing.status === 'in_progress') {
          locks.set(request, pk);
          return;
        }
        if (existing?.fingerprint !== fingerprint) {
          throw unprocessable(
            'idempotency_key_reused',
            'This Idempotency-Key was used for a different request (another method, path or body).',
          );
        }
        if (existing.status !== 'completed' || !existing.response) {
          // Retry-After: SDKs wait and retry, and then get the first request's stored response.
          throw new ApiError(
            409,
            'idempotency_request_in_progress',
            'A request with this Idempotency-Key is still being processed; retry in a moment.',
            { headers: { 'Retry-After': '1' } },
          );
        }
        const stored = await unseal<APIGatewayProxyStructuredResultV2>(existing.response);
        state.replay = { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
      }
    },
    after: async (request: HttpRequest) => {
      const pk = locks.get(request);
      const response = request.response;
      if (!pk || !response) return;
      const status = response.statusCode ?? 200;
      if (status >= 200 && status < 300) {
        await db().send(
          new UpdateCommand({
            TableName: tableName('ephemeral'),
            Key: { pk },
            UpdateExpression: 'SET #status = :done, #response = :response',
            ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
            ExpressionAttributeValues: { ':done': 'completed', ':response': await seal(response) },
          }),
        );
      } else {
        await release(pk);
      }
    },
    onError: async (request: HttpRequest) => {
      const pk = locks.get(request);
      if (pk) await release(pk);
    },
  };
};

async function release(pk: string): Promise<void> {
  // Only a record still in progress is ours to drop.
  await conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName('ephemeral'),
        Key: { pk },
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'in_progress' },
      }),
    ),
  );
}
