import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDef } from '../../catalog/routes';
import { conditionalWrite, db, isThrottling, refusedItem } from '../platform/db';
import { retryOnConflict } from '../platform/retry';
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
 * Errors are not stored: the key is released so the client can retry with it, but only when the handler
 * itself failed. When the handler succeeded and storing its response failed (throttled, timed out), the
 * change is committed: the key is held for the replay window instead, so a retry answers 409 rather than
 * running the POST again (a second outbound message). Unauthenticated routes
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
  /** The handler succeeded but its response could not be stored: the key stays taken, never run again. */
  response_lost?: boolean;
}

/** The key a request holds, and whether its handler has returned a response (its change committed). */
interface Lock {
  pk: string;
  handled: boolean;
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
  const locks = new WeakMap<object, Lock>();
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
        locks.set(request, { pk, handled: false });
      } catch (error) {
        const existing = refusedItem(error) as IdempotencyRecord | undefined;
        if (existing?.claimed_by === state.requestId && existing.status === 'in_progress') {
          locks.set(request, { pk, handled: false });
          return;
        }
        if (existing?.fingerprint !== fingerprint) {
          throw unprocessable(
            'idempotency_key_reused',
            'This Idempotency-Key was used for a different request (another method, path or body).',
          );
        }
        if (existing.response_lost) {
          throw new ApiError(
            409,
            'idempotency_request_in_progress',
            'A request with this Idempotency-Key succeeded, but its response could not be kept; it will not run again. Read the resource to see its result.',
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
      const lock = locks.get(request);
      const response = request.response;
      if (!lock || !response) return;
      const status = response.statusCode ?? 200;
      if (status >= 200 && status < 300) {
        lock.handled = true;
        const sealed = await seal(response);
        await retryThrottled(() =>
          db().send(
            new UpdateCommand({
              TableName: tableName('ephemeral'),
              Key: { pk: lock.pk },
              UpdateExpression: 'SET #status = :done, #response = :response',
              ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
              ExpressionAttributeValues: { ':done': 'completed', ':response': sealed },
            }),
          ),
        );
      } else {
        await release(lock.pk);
      }
    },
    onError: async (request: HttpRequest) => {
      const lock = locks.get(request);
      if (!lock) return;
      // The handler's change committed and only its response was not stored: never run it again.
      if (lock.handled) await holdLostResponse(lock.pk);
      else await release(lock.pk);
    },
  };
};

/** Throttling and timeouts are over in moments: the response is worth a few tries before it is given up. */
const retryThrottled = <T>(write: () => Promise<T>): Promise<T> =>
  retryOnConflict(write, { attempts: 4, retryable: (error) => isThrottling(error) || isTimeout(error) });

const isTimeout = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'RequestTimeout');

/**
 * Holds a key whose response was lost for the rest of the replay window; best effort (if this fails too,
 * the lock's expiry is the last resort).
 */
async function holdLostResponse(pk: string): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('ephemeral'),
        Key: { pk },
        UpdateExpression: 'SET locked_until = #ttl, response_lost = :lost',
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':running': 'in_progress', ':lost': true },
      }),
    ),
  ).catch(() => false);
}

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
