import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db } from '../platform/db';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import type { Session } from './session-rules';

export const sessionKey = (tenantId: string, sessionId: string) => ({
  pk: tenantPk(tenantId),
  sk: `SESSION#${sessionId}`,
});

export function sessionFromItem(item: Record<string, unknown>): Session {
  const { pk, sk, ttl, ...session } = item;
  return session as unknown as Session;
}

/** Expired sessions are removed by TTL a day after their absolute expiry. */
const ttlFor = (session: Session) => Math.floor(Date.parse(session.expires_at) / 1000) + 86_400;

export async function createSession(session: Session): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...sessionKey(session.tenant_id, session.id), ttl: ttlFor(session), ...session },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Swaps the refresh jti only if it is still the one presented, so two concurrent refreshes cannot both win.
 * A swap whose response was lost, sent again by the SDK, is its own success (db.ts), not a reuse.
 */
export async function rotateRefreshJti(session: Session, presentedJti: string, nextJti: string): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: sessionKey(session.tenant_id, session.id),
        UpdateExpression: 'SET refresh_jti = :next',
        ConditionExpression: 'refresh_jti = :presented AND attribute_not_exists(revoked_at)',
        ExpressionAttributeValues: { ':next': nextJti, ':presented': presentedJti },
      }),
    ),
  );
}

export async function revokeSession(
  tenantId: string,
  sessionId: string,
  reason: Session['revoked_reason'],
  now: string,
): Promise<void> {
  // A session that does not exist stays absent; one already revoked keeps its first revocation and is not
  // written at all, so it sends no stream record for the realtime revocation to act on again.
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: sessionKey(tenantId, sessionId),
        UpdateExpression: 'SET revoked_at = :now, revoked_reason = :reason',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
        ExpressionAttributeValues: { ':now': now, ':reason': reason },
      }),
    ),
  );
}
