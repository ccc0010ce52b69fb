// Public: template lookups, for sends, reminders and the scheduler.
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, transactionConditionFailed, transactionConflicted, type TransactItem } from '../platform/db';
import { epochSeconds } from '../platform/clock';
import { tableName } from '../platform/config';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { queryPage } from '../platform/pagination';
import { TEMPLATE_FIELDS, type Template } from './template';

/**
 * The only code that knows how templates are keyed:
 *   pk TENANT#<t>  sk TPL#<id>                              the template, newest first
 *   pk TENANT#<t>  sk TPLNAME#<account>#<name>#<language>   its name's claim (Meta: unique per account and
 *                                                           language), read by a send
 *   pk WATPL#<meta template id>  sk WATPL                   Meta's id → tenant, for the status webhook
 *   pk WATPL#<meta template id>  sk HELD                    Meta's review that came before that route
 * A sandbox template in review is in the due index (kind TPLDUE) by the time its review ends.
 */
const templateKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `TPL#${id}` });
const accountOf = (t: Pick<Template, 'channel_account_id'>) => t.channel_account_id ?? 'sandbox';
const nameKey = (tenantId: string, account: string, name: string, language: string) => ({
  pk: tenantPk(tenantId),
  sk: `TPLNAME#${account}#${name}#${language}`,
});
const providerKey = (providerId: string) => ({ pk: `WATPL#${providerId}`, sk: 'WATPL' });
export const TEMPLATE_REVIEW_DUE_KIND = 'TPLDUE';

const fromItem = (item: Record<string, unknown>): Template => inOrder<Template>(item, TEMPLATE_FIELDS);

/** Another writer changed the template since it was read. */
export class TemplateChanged extends Error {}
/** The account already has a template of this name and language. */
export class TemplateNameTaken extends Error {}

export async function getTemplate(tenantId: string, id: string): Promise<Template | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: templateKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : undefined;
}

/** The template a send names: by account, name and language (two reads). */
export async function findTemplate(
  tenantId: string,
  channelAccountId: string | null,
  name: string,
  language: string,
): Promise<Template | undefined> {
  const claim = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: nameKey(tenantId, channelAccountId ?? 'sandbox', name, language),
      ConsistentRead: true,
    }),
  );
  return claim.Item ? getTemplate(tenantId, String(claim.Item.template_id)) : undefined;
}

/** Which tenant's template Meta's id names. */
export async function templateOfProvider(providerId: string): Promise<{ tenantId: string; id: string } | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: providerKey(providerId), ConsistentRead: true }),
  );
  return out.Item ? { tenantId: String(out.Item.tenant_id), id: String(out.Item.template_id) } : undefined;
}

const reviewDue = (t: Template, reviewAt: Date | undefined) =>
  reviewAt ? dueIndexKeys(TEMPLATE_REVIEW_DUE_KIND, t.id, reviewAt.toISOString()) : {};

const heldStatusKey = (providerId: string) => ({ pk: `WATPL#${providerId}`, sk: 'HELD' });

/** Meta's review of a template that had no record here when it came (its creation's answer on the way). */
export interface HeldTemplateStatus {
  event: string | undefined;
  reason: unknown;
}

/** How long a held review waits for its template's record: far longer than a creation takes. */
const HELD_STATUS_TTL_SECONDS = 86_400;

/** Keeps Meta's review of a template not recorded here yet, for its record to apply (the last one processed wins). */
export async function holdTemplateStatus(providerId: string, held: HeldTemplateStatus, now: Date): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...heldStatusKey(providerId), ...held, ttl: epochSeconds(now) + HELD_STATUS_TTL_SECONDS },
    }),
  );
}

/** The review held for Meta's template `providerId`, if one came before its record (and has not expired). */
export async function heldTemplateStatus(providerId: string, now: Date): Promise<HeldTemplateStatus | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: heldStatusKey(providerId), ConsistentRead: true }),
  );
  // DynamoDB deletes an expired item within days, not at once.
  if (!out.Item || Number(out.Item.ttl) <= epochSeconds(now)) return undefined;
  return { event: out.Item.event as string | undefined, reason: out.Item.reason };
}

/**
 * A new template with its name's claim (and Meta's id's routing item); a sandbox template in review enters
 * the due index at `reviewAt`. Throws TemplateNameTaken when the account has one of that name and language,
 * or Meta's template is recorded already.
 */
export async function putTemplate(t: Template, reviewAt?: Date): Promise<void> {
  const table = tableName('main');
  const items: TransactItem[] = [
    { Put: { TableName: table, Item: { ...templateKey(t.tenant_id, t.id), ...reviewDue(t, reviewAt), ...t } } },
    {
      Put: {
        TableName: table,
        Item: { ...nameKey(t.tenant_id, accountOf(t), t.name, t.language), template_id: t.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(t.provider_template_id
      ? [
          {
            Put: {
              TableName: table,
              Item: { ...providerKey(t.provider_template_id), tenant_id: t.tenant_id, template_id: t.id },
              // One record per Meta template: two numbers of one account adopting it at once, one wins.
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]
      : []),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error, [1, 2])) throw new TemplateNameTaken();
    throw error;
  }
}

/**
 * Saves `after` over `before` (same version read), leaving the due index, with the writes that go with it
 * (its event). Throws TemplateChanged when another writer got in first.
 */
export async function saveTemplate(before: Template, after: Template, extra: TransactItem[] = []): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName('main'),
              Item: { ...templateKey(after.tenant_id, after.id), ...after },
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': before.version },
            },
          },
          ...extra,
        ],
      }),
    );
  } catch (error) {
    if (transactionConditionFailed(error, [0]) || transactionConflicted(error)) throw new TemplateChanged();
    throw error;
  }
}

export async function deleteTemplate(t: Template): Promise<void> {
  const table = tableName('main');
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table,
              Key: templateKey(t.tenant_id, t.id),
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': t.version },
            },
          },
          {
            Delete: {
              TableName: table,
              Key: nameKey(t.tenant_id, accountOf(t), t.name, t.language),
              ConditionExpression: 'template_id = :id',
              ExpressionAttributeValues: { ':id': t.id },
            },
          },
          ...(t.provider_template_id
            ? [{ Delete: { TableName: table, Key: providerKey(t.provider_template_id) } }]
            : []),
        ],
      }),
    );
  } catch (error) {
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new TemplateChanged();
    throw error;
  }
}

/** A page of the tenant's templates, newest first: one Query. */
export async function listTemplates(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': 'TPL#' },
    },
    request,
    { owner: tenantId, list: 'templates' },
    ['pk', 'sk'],
  );
  return { ...page, items: page.items.map(fromItem) };
}

/** Sandbox templates whose review is due at `now` (across tenants). */
export async function dueTemplateReviews(now: Date, limitPerShard: number): Promise<Template[]> {
  return (await dueItems(TEMPLATE_REVIEW_DUE_KIND, now, limitPerShard)).map(fromItem);
}
