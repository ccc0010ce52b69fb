// Public: template reviews and status updates, for the inbound worker and the scheduler.
import { isThrottling, transactionConflicted } from '../platform/db';
import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { logger } from '../platform/observability';
import { retryOnConflict } from '../platform/retry';
import { eventPut, newEvent } from '../events/store';
import { isDeepStrictEqual } from 'node:util';
import { whatsAppAccess } from '../channels/service';
import {
  GraphError,
  createMessageTemplate,
  deleteMessageTemplate,
  listMessageTemplates,
  type GraphTemplate,
} from '../channels/whatsapp';
import { categoryOfMeta, metaComponents, partsOfMeta } from './meta-template';
import {
  TemplateChanged,
  TemplateNameTaken,
  deleteTemplate,
  findTemplate,
  getTemplate,
  heldTemplateStatus,
  holdTemplateStatus,
  putTemplate,
  saveTemplate,
  templateOfProvider,
} from './store';
import {
  reasonOfMeta,
  sandboxVerdict,
  statusOfMeta,
  templateProblems,
  type Template,
  type TemplateStatus,
} from './template';

/** Message templates: created here and submitted to Meta's review (or the sandbox's), their statuses followed. */

export type TemplateInput = Pick<
  Template,
  'name' | 'language' | 'category' | 'header' | 'body' | 'footer' | 'buttons'
> & {
  channel: Template['channel'];
  channel_account_id?: string | null;
};

/** How long the sandbox "reviews" a template (SANDBOX_TEMPLATE_REVIEW_SECONDS, 5 s by default). */
export const sandboxReviewMs = () => Number(process.env.SANDBOX_TEMPLATE_REVIEW_SECONDS ?? 5) * 1000;

const retryWhileChanging = <T>(operation: () => Promise<T>) =>
  retryOnConflict(operation, {
    attempts: 5,
    retryable: (error) => error instanceof TemplateChanged,
    exhausted: () => DomainError.conflict('concurrent_update', 'The template is changing too fast; retry.'),
  });

const nameTaken = (t: Pick<Template, 'name' | 'language'>) =>
  DomainError.conflict(
    'template_exists',
    `A template named ${t.name} in ${t.language} exists already on this account.`,
  );

const metaRefused = (error: GraphError) =>
  DomainError.invalid('template_refused_by_meta', `Meta refused the template: ${error.message}`);

/** The WABA of the tenant's number, which holds its templates. */
async function templateAccount(tenantId: string, phoneNumberId: string | null | undefined) {
  const access = await whatsAppAccess(tenantId, phoneNumberId);
  if (!access.wabaId)
    throw DomainError.invalidField(
      'whatsapp_account_unknown',
      'channel_account_id',
      'This number was connected without its WhatsApp Business Account: connect it again with waba_id.',
    );
  return { ...access, wabaId: access.wabaId };
}

/** Meta's refusal of a template name it already holds in that language (code 100, this subcode). */
const NAME_TAKEN_AT_META = 2388024;
/** Meta's statuses of a template on its way out: never adopted. */
const GONE_AT_META = new Set(['DELETED', 'PENDING_DELETION', 'DISABLED']);

/**
 * Meta's template of this name and language when it refused to create one. If it holds exactly what was
 * submitted, an earlier attempt of this create reached Meta and its record here was lost (a client's
 * retry after a 503): the retry adopts it, as a retry expects. If it holds other content (made in WhatsApp
 * Manager, say), the name is taken: a sync imports it. Undefined when Meta holds none (another refusal).
 */
async function heldByMeta(
  account: Awaited<ReturnType<typeof templateAccount>>,
  input: Pick<Template, 'name' | 'language'>,
  components: Record<string, unknown>[],
): Promise<{ id: string; status: string; rejectedReason?: string } | undefined> {
  let remote: GraphTemplate[];
  try {
    remote = await listMessageTemplates(account.wabaId, account.credentials);
  } catch {
    return undefined;
  }
  const held = remote.find((r) => r.name === input.name && r.language === input.language && r.id);
  if (!held?.id || GONE_AT_META.has((held.status ?? '').toUpperCase())) return undefined;
  if (await templateOfProvider(held.id))
    throw DomainError.conflict(
      'template_exists',
      `A template named ${input.name} in ${input.language} exists already on this WhatsApp Business Account, recorded for another number.`,
    );
  if (!isDeepStrictEqual(comparable(held.components), comparable(components)))
    throw DomainError.conflict(
      'template_exists',
      `A template named ${input.name} in ${input.language} exists already in this WhatsApp Business Account with other content; POST /templates/sync imports it.`,
    );
  return { id: held.id, status: held.status ?? 'PENDING', rejectedReason: held.rejected_reason };
}

/** A template's parts as compared for adoption: a media header's example is Meta's own URL once stored. */
function comparable(components: Record<string, unknown>[] | undefined) {
  const parts = partsOfMeta(components);
  return parts.header && parts.header.format !== 'text' ? { ...parts, header: { format: parts.header.format } } : parts;
}

export async function createTemplate(tenantId: string, input: TemplateInput, now: Date): Promise<Template> {
  const problems = templateProblems(input);
  if (problems.length) throw DomainError.invalid('invalid_template', problems[0]!.message, problems);
  const at = now.toISOString();
  const base = {
    id: newId('tpl'),
    tenant_id: tenantId,
    name: input.name,
    language: input.language,
    category: input.category,
    header: input.header,
    body: input.body,
    footer: input.footer,
    buttons: input.buttons,
    rejection_reason: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  if (input.channel === 'sandbox') {
    const template: Template = {
      ...base,
      channel: 'sandbox',
      channel_account_id: null,
      status: 'pending',
      provider_template_id: null,
    };
    try {
      await putTemplate(template, new Date(now.getTime() + sandboxReviewMs()));
    } catch (error) {
      if (error instanceof TemplateNameTaken) throw nameTaken(template);
      throw error;
    }
    return template;
  }
  const account = await templateAccount(tenantId, input.channel_account_id);
  // Asked first so that Meta is not given a template we would then fail to record.
  if (await findTemplate(tenantId, account.phoneNumberId, input.name, input.language)) throw nameTaken(input);
  const components = metaComponents(input);
  let created: { id: string; status: string; rejectedReason?: string };
  try {
    created = await createMessageTemplate(account.wabaId, account.credentials, {
      name: input.name,
      language: input.language,
      category: input.category.toUpperCase(),
      components,
    });
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const held = error.metaSubcode === NAME_TAKEN_AT_META ? await heldByMeta(account, input, components) : undefined;
    if (!held) throw metaRefused(error);
    created = held;
  }
  const status = statusOfMeta(created.status) ?? 'pending';
  const template: Template = {
    ...base,
    channel: 'whatsapp',
    channel_account_id: account.phoneNumberId,
    status,
    rejection_reason: status === 'rejected' ? reasonOfMeta(created.rejectedReason) : null,
    provider_template_id: created.id,
  };
  try {
    await putTemplate(template);
  } catch (error) {
    if (error instanceof TemplateNameTaken) throw nameTaken(template);
    throw error;
  }
  try {
    return await applyHeldTemplateStatus(template, now);
  } catch (error) {
    // The template is recorded: the create succeeded. A review this missed is brought by a sync.
    logger.warn('held template review not applied', { template_id: template.id, error_name: (error as Error).name });
    return template;
  }
}

/**
 * Meta's review that came before the template's record (held by applyMetaTemplateStatus), applied now
 * that the record exists: the template as it then is. Each side writes, then reads the other's item, so
 * whichever comes second applies the review.
 */
export async function applyHeldTemplateStatus(template: Template, now: Date): Promise<Template> {
  const held = template.provider_template_id ? await heldTemplateStatus(template.provider_template_id, now) : undefined;
  const status = statusOfMeta(held?.event);
  // A held `pending` adds nothing to what the creation answered.
  if (!held || !status || status === 'pending') return template;
  // Only over the template as recorded: a review applied since came after its record, so it is newer.
  // Nothing else brings back a review this misses (only a sync would): a throttled write is tried again.
  await retryOnConflict(
    () =>
      changeTemplateStatus(template.tenant_id, template.id, status, reasonOfMeta(held.reason), now, template.version),
    { attempts: 4, retryable: (error) => isThrottling(error) || transactionConflicted(error) },
  );
  return (await getTemplate(template.tenant_id, template.id)) ?? template;
}

/** Deletes a template here and, for WhatsApp, at Meta (a template Meta no longer has is deleted here too). */
export function removeTemplate(tenantId: string, id: string): Promise<void> {
  return retryWhileChanging(async () => {
    const template = await getTemplate(tenantId, id);
    if (!template) throw DomainError.notFound('The template');
    if (template.channel === 'whatsapp' && template.provider_template_id) {
      const account = await templateAccount(tenantId, template.channel_account_id);
      try {
        await deleteMessageTemplate(account.wabaId, account.credentials, template.name, template.provider_template_id);
      } catch (error) {
        // 100 with Meta's "does not exist": already gone there.
        if (!(error instanceof GraphError) || error.metaCode !== 100) {
          if (error instanceof GraphError) throw metaRefused(error);
          throw error;
        }
      }
    }
    await deleteTemplate(template);
  });
}

/**
 * A template's review status changed: saved with a `template.status_updated` event (one per change; the
 * same status again changes nothing). False when nothing changed.
 */
export function changeTemplateStatus(
  tenantId: string,
  id: string,
  status: TemplateStatus,
  reason: string | null,
  now: Date,
  onlyAtVersion?: number,
): Promise<boolean> {
  return retryWhileChanging(async () => {
    const before = await getTemplate(tenantId, id);
    if (!before || (onlyAtVersion !== undefined && before.version !== onlyAtVersion)) return false;
    const rejection_reason = status === 'approved' || status === 'pending' ? null : reason;
    if (before.status === status && before.rejection_reason === rejection_reason) return false;
    const at = now.toISOString();
    const after: Template = { ...before, status, rejection_reason, updated_at: at, version: before.version + 1 };
    await saveTemplate(before, after, [
      eventPut(newEvent(tenantId, 'template.status_updated', { template: after, previous_status: before.status }, now)),
    ]);
    return true;
  });
}

/**
 * Meta's `message_template_status_update` webhook: the template it names moves to its new status. A
 * template with no record here yet (Meta can review within moments, before its creation's answer is
 * recorded) has the review held for it, and its record applies it (applyHeldTemplateStatus).
 */
export async function applyMetaTemplateStatus(
  providerTemplateId: string,
  event: string | undefined,
  reason: unknown,
  now: Date,
): Promise<'applied' | 'unchanged' | 'held' | 'unknown'> {
  const status = statusOfMeta(event);
  if (!status) return 'unknown';
  let owner = await templateOfProvider(providerTemplateId);
  if (!owner) {
    await holdTemplateStatus(providerTemplateId, { event, reason: reasonOfMeta(reason) }, now);
    // Recorded meanwhile, it may have looked for the review before it was held: apply it here then.
    owner = await templateOfProvider(providerTemplateId);
    if (!owner) return 'held';
  }
  return (await changeTemplateStatus(owner.tenantId, owner.id, status, reasonOfMeta(reason), now))
    ? 'applied'
    : 'unchanged';
}

/** The sandbox's review of a template whose delay has passed: approved, or rejected when its name asks. */
export async function reviewSandboxTemplate(t: Template, now: Date): Promise<boolean> {
  const verdict = sandboxVerdict(t.name);
  return changeTemplateStatus(t.tenant_id, t.id, verdict.status, verdict.reason, now);
}

/**
 * Brings the number's account's templates here from Meta: statuses (and reasons) of known ones move, with
 * their events; ones made elsewhere (WhatsApp Manager) are added.
 */
export async function syncTemplates(
  tenantId: string,
  phoneNumberId: string | null | undefined,
  now: Date,
): Promise<{ imported: number; updated: number; unchanged: number }> {
  const account = await templateAccount(tenantId, phoneNumberId);
  let remote: GraphTemplate[];
  try {
    remote = await listMessageTemplates(account.wabaId, account.credentials);
  } catch (error) {
    if (error instanceof GraphError) throw metaRefused(error);
    throw error;
  }
  const counts = { imported: 0, updated: 0, unchanged: 0 };
  for (const r of remote) {
    if (!r.id || !r.name || !r.language) continue;
    const status = statusOfMeta(r.status) ?? 'pending';
    const known = await templateOfProvider(r.id);
    if (known && known.tenantId === tenantId) {
      const changed = await changeTemplateStatus(tenantId, known.id, status, reasonOfMeta(r.rejected_reason), now);
      counts[changed ? 'updated' : 'unchanged']++;
      continue;
    }
    if (await findTemplate(tenantId, account.phoneNumberId, r.name, r.language)) {
      counts.unchanged++;
      continue;
    }
    const at = now.toISOString();
    try {
      await putTemplate({
        id: newId('tpl'),
        tenant_id: tenantId,
        channel: 'whatsapp',
        channel_account_id: account.phoneNumberId,
        name: r.name,
        language: r.language,
        category: categoryOfMeta(r.category),
        ...partsOfMeta(r.components),
        status,
        rejection_reason: status === 'approved' ? null : reasonOfMeta(r.rejected_reason),
        provider_template_id: r.id,
        created_at: at,
        updated_at: at,
        version: 1,
      });
      counts.imported++;
    } catch (error) {
      if (!(error instanceof TemplateNameTaken)) throw error;
      counts.unchanged++;
    }
  }
  return counts;
}
