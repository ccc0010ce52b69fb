import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../platform/clock';
import { db, transactionConditionFailed, type TransactItem } from '../platform/db';
import { tableName } from '../platform/config';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { inOrder } from '../platform/fields';
import { tenantOfPk, tenantPk } from '../platform/keys';
import { queryPage } from '../platform/pagination';
import { seal, unseal } from '../platform/sealed';
import {
  DEFAULT_SETTINGS,
  PAYMENT_FIELDS,
  pendingRefunds,
  type Payment,
  type PaymentSettings,
  type PaymentStatus,
} from './payment';

/**
 * The only code that knows how payments are keyed.
 *   pk TENANT#<t>  sk PAY#<id>            the payment; lists by creation (gsiN sk `<created_at>#<id>`):
 *                                         gsi1 all | gsi2 status | gsi3 customer | gsi4 booking
 *                                         due index (platform/due-index, gsi5): PAYDUE#<shard>, sk
 *                                         `<due_at>#<t>#<id>` while the link is open (due at `expires_at`) or
 *                                         a refund is on its way to the provider (due a minute on)
 *   pk TENANT#<t>  sk PAYSETTINGS         the tenant's provider, refund policy, hold and requirements;
 *                                         `stripe_secrets` sealed (never returned)
 *   pk TENANT#<t>  sk PAYEVT#<provider event id>   a provider event applied (replays change nothing), 30 days
 */
const DUE_KIND = 'PAYDUE';
/** A refund reserved but not confirmed is picked up again after this long (a crash between the two). */
export const REFUND_RETRY_MS = 60_000;
const PROVIDER_EVENT_RETENTION_SECONDS = 30 * 86_400;

export const paymentKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `PAY#${id}` });
const settingsKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'PAYSETTINGS' });
const providerEventKey = (tenantId: string, eventId: string) => ({ pk: tenantPk(tenantId), sk: `PAYEVT#${eventId}` });
const listPk = (tenantId: string, ...parts: string[]) => [`${tenantPk(tenantId)}#PAY`, ...parts].join('#');

/** When a payment next needs the sweeper, if ever. */
function dueAt(p: Payment): string | undefined {
  if (p.status === 'pending') return p.expires_at;
  if (pendingRefunds(p).length > 0) return new Date(Date.parse(p.updated_at) + REFUND_RETRY_MS).toISOString();
  return undefined;
}

function indexes(p: Payment) {
  const sk = `${p.created_at}#${p.id}`;
  const due = dueAt(p);
  return {
    gsi1pk: listPk(p.tenant_id),
    gsi1sk: sk,
    gsi2pk: listPk(p.tenant_id, 'status', p.status),
    gsi2sk: sk,
    ...(p.customer_id ? { gsi3pk: listPk(p.tenant_id, 'customer', p.customer_id), gsi3sk: sk } : {}),
    ...(p.booking_id ? { gsi4pk: listPk(p.tenant_id, 'booking', p.booking_id), gsi4sk: sk } : {}),
    ...(due ? dueIndexKeys(DUE_KIND, p.id, `${due}#${p.tenant_id}#${p.id}`) : {}),
  };
}

export const paymentFromItem = (item: Record<string, unknown>): Payment => inOrder<Payment>(item, PAYMENT_FIELDS);

export async function getPayment(tenantId: string, id: string): Promise<Payment | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: paymentKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? paymentFromItem(out.Item) : undefined;
}

/** A payment changed concurrently (its version moved, or a provider event was applied meanwhile): read and retry. */
export class PaymentChanged extends Error {
  constructor() {
    super('payment changed concurrently');
    this.name = 'PaymentChanged';
  }
}
/** This provider event was applied before. */
export class DuplicateProviderEvent extends Error {
  constructor() {
    super('provider event already applied');
    this.name = 'DuplicateProviderEvent';
  }
}

/**
 * The write of a payment's new version as a transaction item: conditional on the version it was read at
 * (or on there being none). Other features' transactions carry it (a booking that changes with its payment).
 */
export function paymentWrite(before: Payment | undefined, after: Payment): TransactItem {
  return {
    Put: {
      TableName: tableName('main'),
      Item: { ...paymentKey(after.tenant_id, after.id), ...indexes(after), ...after },
      ConditionExpression: before ? '#version = :version' : 'attribute_not_exists(pk)',
      ExpressionAttributeNames: before ? { '#version': 'version' } : undefined,
      ExpressionAttributeValues: before ? { ':version': before.version } : undefined,
    },
  };
}

/** The record that a provider event was applied, written with its change so a replay fails the transaction. */
export function providerEventWrite(tenantId: string, eventId: string, now: Date): TransactItem {
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        ...providerEventKey(tenantId, eventId),
        applied_at: now.toISOString(),
        ttl: epochSeconds(now) + PROVIDER_EVENT_RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function providerEventApplied(tenantId: string, eventId: string): Promise<boolean> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: providerEventKey(tenantId, eventId), ConsistentRead: true }),
  );
  return out.Item !== undefined;
}

/**
 * Writes a payment's new version with its events (outbox items) and, for a provider event, its record, in
 * one transaction. Throws PaymentChanged when the version moved, DuplicateProviderEvent on a replay.
 */
export async function savePayment(
  before: Payment | undefined,
  after: Payment,
  extra: TransactItem[],
  providerEvent?: TransactItem,
): Promise<void> {
  const items = [paymentWrite(before, after), ...(providerEvent ? [providerEvent] : []), ...extra];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    throw classifyPaymentWriteError(error, 0, providerEvent ? 1 : undefined);
  }
}

/** What a failed transaction that carried a payment (at `paymentAt`) and maybe a provider event record means. */
export function classifyPaymentWriteError(error: unknown, paymentAt: number, providerEventAt?: number): unknown {
  if (providerEventAt !== undefined && transactionConditionFailed(error, [providerEventAt]))
    return new DuplicateProviderEvent();
  if (transactionConditionFailed(error, [paymentAt])) return new PaymentChanged();
  return error;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  booking_id?: string;
  customer_id?: string;
  from?: string;
  to?: string;
}

/**
 * One Query per page, newest first: by booking, else customer, else status, else all; a status beside a
 * booking or customer is a filter on that sequence. from/to bound the creation time (the key range).
 */
export async function listPayments(tenantId: string, f: PaymentFilters, request: { limit: number; cursor?: string }) {
  const [n, pk] = f.booking_id
    ? [4, listPk(tenantId, 'booking', f.booking_id)]
    : f.customer_id
      ? [3, listPk(tenantId, 'customer', f.customer_id)]
      : f.status
        ? [2, listPk(tenantId, 'status', f.status)]
        : [1, listPk(tenantId)];
  const statusFilter = f.status && n !== 2;
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: `gsi${n}`,
      KeyConditionExpression: `gsi${n}pk = :pk AND gsi${n}sk BETWEEN :from AND :to`,
      ...(statusFilter
        ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      ExpressionAttributeValues: {
        ':pk': pk,
        ':from': f.from ?? '0',
        ':to': `${f.to ?? '9'}~`,
        ...(statusFilter ? { ':status': f.status } : {}),
      },
    },
    request,
    { owner: tenantId, list: `payments:${pk}:${statusFilter ? f.status : ''}:${f.from ?? ''}:${f.to ?? ''}` },
    ['pk', 'sk', `gsi${n}pk`, `gsi${n}sk`],
  );
  return { ...page, items: page.items.map(paymentFromItem) };
}

/** Payments the sweeper should look at now (an open link past its time, a refund left unconfirmed), across tenants. */
export async function duePayments(now: Date, limitPerShard: number): Promise<{ tenantId: string; id: string }[]> {
  const items = await dueItems(DUE_KIND, now, limitPerShard);
  return items.flatMap((item) => {
    const tenantId = tenantOfPk(item.pk);
    return tenantId && typeof item.id === 'string' ? [{ tenantId, id: item.id }] : [];
  });
}

/** The tenant's Stripe credentials, sealed at rest. */
export interface StripeSecrets {
  secret_key: string;
  webhook_secret: string;
}

export async function getSettings(tenantId: string): Promise<PaymentSettings & { version: number }> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: settingsKey(tenantId), ConsistentRead: true }),
  );
  if (!out.Item) return { ...DEFAULT_SETTINGS, version: 0 };
  const item = out.Item as Partial<PaymentSettings> & { version?: number };
  return {
    provider: item.provider ?? DEFAULT_SETTINGS.provider,
    refund_policy: item.refund_policy ?? DEFAULT_SETTINGS.refund_policy,
    hold_minutes: item.hold_minutes ?? DEFAULT_SETTINGS.hold_minutes,
    booking_requirements: item.booking_requirements ?? [],
    stripe: item.stripe ?? null,
    version: Number(item.version ?? 0),
  };
}

export async function getStripeSecrets(tenantId: string): Promise<StripeSecrets | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: settingsKey(tenantId),
      ConsistentRead: true,
      ProjectionExpression: 'stripe_secrets',
    }),
  );
  const sealed: unknown = out.Item?.stripe_secrets;
  return typeof sealed === 'string' ? unseal<StripeSecrets>(sealed) : undefined;
}

/**
 * Writes the settings, conditional on the version read (0: none yet). New Stripe credentials are sealed;
 * `undefined` keeps the stored ones, `null` removes them. Returns false when the version moved.
 */
export async function saveSettings(
  tenantId: string,
  settings: PaymentSettings,
  expectedVersion: number,
  secrets: StripeSecrets | null | undefined,
  now: Date,
): Promise<boolean> {
  const stored: unknown =
    secrets === undefined
      ? (
          await db().send(
            new GetCommand({ TableName: tableName('main'), Key: settingsKey(tenantId), ConsistentRead: true }),
          )
        ).Item?.stripe_secrets
      : secrets === null
        ? undefined
        : await seal(secrets);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName('main'),
        Item: {
          ...settingsKey(tenantId),
          ...settings,
          ...(stored ? { stripe_secrets: stored } : {}),
          version: expectedVersion + 1,
          updated_at: now.toISOString(),
        },
        ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : '#version = :version',
        ExpressionAttributeNames: expectedVersion === 0 ? undefined : { '#version': 'version' },
        ExpressionAttributeValues: expectedVersion === 0 ? undefined : { ':version': expectedVersion },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
