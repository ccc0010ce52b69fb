import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, transactionConditionFailed, type TransactItem } from '../platform/db';
import { tableName } from '../platform/config';
import { DomainError } from '../platform/domain-error';
import { tenantPk } from '../platform/keys';
import { seal, unseal } from '../platform/sealed';

/**
 * WhatsApp numbers connected by tenants. Secrets are sealed with the data key and never returned.
 *   pk TENANT#<t>  sk CHANNEL#whatsapp#<phone_number_id>   the tenant's view of the number
 *   pk WAPHONE#<phone_number_id>                           webhook routing: number → tenant + secrets
 *   pk WAVERIFY#<sha256(verify_token)>                     the verification handshake
 */
export interface WhatsAppSecrets {
  access_token: string;
  /** Only for a number served by the tenant's own Meta app; the platform's app secret is configuration. */
  app_secret?: string;
}

export interface WhatsAppChannel {
  channel: 'whatsapp';
  tenant_id: string;
  phone_number_id: string;
  display_phone_number: string | null;
  /** The WhatsApp Business Account that holds the number (and its message templates), when given. */
  waba_id: string | null;
  /** `needs_reauthorization`: Meta refused the token (expired or revoked); nothing is sent until reconnected. */
  status: 'active' | 'needs_reauthorization';
  created_at: string;
}

const channelKey = (tenantId: string, phoneNumberId: string) => ({
  pk: tenantPk(tenantId),
  sk: `CHANNEL#whatsapp#${phoneNumberId}`,
});
const routeKey = (phoneNumberId: string) => ({ pk: `WAPHONE#${phoneNumberId}`, sk: 'WAPHONE' });
const verifyKey = (token: string) => ({
  pk: `WAVERIFY#${createHash('sha256').update(token).digest('hex')}`,
  sk: 'WAVERIFY',
});

export async function connectWhatsApp(
  channel: WhatsAppChannel,
  secrets: WhatsAppSecrets,
  verifyToken: string | undefined,
): Promise<void> {
  const table = tableName('main');
  const sealed = await seal(secrets);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: { TableName: table, Item: { ...channelKey(channel.tenant_id, channel.phone_number_id), ...channel } },
          },
          {
            Put: {
              TableName: table,
              Item: { ...routeKey(channel.phone_number_id), tenant_id: channel.tenant_id, secrets: sealed },
              // A number belongs to one tenant; the same tenant may reconnect it (new credentials).
              ConditionExpression: 'attribute_not_exists(pk) OR tenant_id = :t',
              ExpressionAttributeValues: { ':t': channel.tenant_id },
            },
          },
          // Only a tenant's own Meta app needs its own handshake token.
          ...(verifyToken
            ? [{ Put: { TableName: table, Item: { ...verifyKey(verifyToken), tenant_id: channel.tenant_id } } }]
            : []),
        ],
      }),
    );
  } catch (error) {
    if (transactionConditionFailed(error, [1]))
      throw DomainError.conflict('phone_number_taken', 'This WhatsApp number is connected to another tenant.');
    throw error;
  }
}

/**
 * The tenant's numbers, strongly consistent: a conversation picks the tenant's only number from this
 * list, so one connected a moment ago must be in it (an eventually consistent read could miss it and
 * pick the other number).
 */
export async function listChannels(tenantId: string): Promise<WhatsAppChannel[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':p': 'CHANNEL#' },
      Limit: 100,
    }),
  );
  return (out.Items ?? []).map(({ pk, sk, ...c }) => ({ status: 'active', waba_id: null, ...c }) as WhatsAppChannel);
}

/** Webhook routing: which tenant a number belongs to, with its secrets. */
export interface WhatsAppRoute {
  tenantId: string;
  secrets: WhatsAppSecrets;
  /** Meta refused the token: sends stop until the tenant reconnects the number. */
  needsReauthorization: boolean;
}

export async function routeWhatsAppNumber(phoneNumberId: string): Promise<WhatsAppRoute | undefined> {
  // Meta's ids are digits; anything else (or one too long for a key: DynamoDB refuses it) names no number.
  if (!/^\d{1,32}$/.test(phoneNumberId)) return undefined;
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: routeKey(phoneNumberId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  return {
    tenantId: String(out.Item.tenant_id),
    secrets: await unseal<WhatsAppSecrets>(String(out.Item.secrets)),
    needsReauthorization: out.Item.status === 'needs_reauthorization',
  };
}

/**
 * Meta refused the number's token: the channel and its route are flagged, with the event that tells the
 * tenant, in one transaction. Returns false when it was already flagged (one event per lapse).
 */
export async function flagNeedsReauthorization(
  tenantId: string,
  phoneNumberId: string,
  event: (channel: WhatsAppChannel) => TransactItem,
): Promise<boolean> {
  const table = tableName('main');
  const current = await db().send(
    new GetCommand({ TableName: table, Key: channelKey(tenantId, phoneNumberId), ConsistentRead: true }),
  );
  if (!current.Item || current.Item.status === 'needs_reauthorization') return false;
  const { pk, sk, ...rest } = current.Item;
  const channel = { waba_id: null, ...rest, status: 'needs_reauthorization' } as WhatsAppChannel;
  const flag = (Key: Record<string, string>) => ({
    Update: {
      TableName: table,
      Key,
      UpdateExpression: 'SET #s = :flag',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#s) OR #s <> :flag) AND tenant_id = :t',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':flag': 'needs_reauthorization', ':t': tenantId },
    },
  });
  return conditionalWrite(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [flag(channelKey(tenantId, phoneNumberId)), flag(routeKey(phoneNumberId)), event(channel)],
        }),
      ),
    [0, 1],
  );
}

/**
 * Statuses Meta sent before the send that they are about was recorded (Meta does not order webhooks):
 * held an hour, and applied when the send is recorded.
 *   pk TENANT#<t>  sk WAHELD#<wamid>#<status>
 */
export interface HeldReceipt {
  status: 'delivered' | 'read' | 'failed';
  at: string;
  error: { code: string; message: string } | null;
}
const HOLD_SECONDS = 3600;
const heldPrefix = (wamid: string) => `WAHELD#${wamid}#`;

export async function holdReceipt(tenantId: string, wamid: string, receipt: HeldReceipt, now: Date): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: {
        pk: tenantPk(tenantId),
        sk: `${heldPrefix(wamid)}${receipt.status}`,
        ...receipt,
        ttl: Math.floor(now.getTime() / 1000) + HOLD_SECONDS,
      },
    }),
  );
}

export async function heldReceipts(tenantId: string, wamid: string, now: Date): Promise<HeldReceipt[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':p': heldPrefix(wamid) },
      ConsistentRead: true,
      Limit: 10,
    }),
  );
  // TTL deletes lazily: an expired hold is ignored.
  return (out.Items ?? [])
    .filter((i) => Number(i.ttl) > now.getTime() / 1000)
    .map((i): HeldReceipt => {
      const { status, at, error } = i as HeldReceipt;
      return { status, at, error: error ?? null };
    });
}

/** Strongly consistent: Meta's handshake comes right after a number is connected. */
export async function isKnownVerifyToken(token: string): Promise<boolean> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: verifyKey(token), ConsistentRead: true }),
  );
  return out.Item !== undefined;
}
