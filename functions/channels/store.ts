import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, transactionConditionFailed } from '../platform/db';
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
  app_secret: string;
}

export interface WhatsAppChannel {
  channel: 'whatsapp';
  tenant_id: string;
  phone_number_id: string;
  display_phone_number: string | null;
  created_at: string;
}

const channelKey = (t: string, phoneNumberId: string) => ({ pk: tenantPk(t), sk: `CHANNEL#whatsapp#${phoneNumberId}` });
const routeKey = (phoneNumberId: string) => ({ pk: `WAPHONE#${phoneNumberId}`, sk: 'WAPHONE' });
const verifyKey = (token: string) => ({
  pk: `WAVERIFY#${createHash('sha256').update(token).digest('hex')}`,
  sk: 'WAVERIFY',
});

export async function connectWhatsApp(
  channel: WhatsAppChannel,
  secrets: WhatsAppSecrets,
  verifyToken: string,
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
          { Put: { TableName: table, Item: { ...verifyKey(verifyToken), tenant_id: channel.tenant_id } } },
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
export async function listChannels(t: string): Promise<WhatsAppChannel[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': tenantPk(t), ':p': 'CHANNEL#' },
      Limit: 100,
    }),
  );
  return (out.Items ?? []).map(({ pk, sk, ...c }) => c as WhatsAppChannel);
}

/** Webhook routing: which tenant a number belongs to, with its secrets. */
export async function routeWhatsAppNumber(
  phoneNumberId: string,
): Promise<{ tenantId: string; secrets: WhatsAppSecrets } | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: routeKey(phoneNumberId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  return { tenantId: String(out.Item.tenant_id), secrets: await unseal<WhatsAppSecrets>(String(out.Item.secrets)) };
}

/** Strongly consistent: Meta's handshake comes right after a number is connected. */
export async function isKnownVerifyToken(token: string): Promise<boolean> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: verifyKey(token), ConsistentRead: true }),
  );
  return out.Item !== undefined;
}
