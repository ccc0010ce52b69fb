/** The AI operations behind the endpoints and the analysis worker. */
import { MAX_BUFFER_MINUTES } from '../bookings/booking';
import { freeDaysAhead, weekAhead, type Schedule } from '../bookings/schedule';
import { schedulesOf } from '../bookings/schedule-service';
import { heldIntervals, nextBookingFor } from '../bookings/store';
import type { Message, MessageAnalysis } from '../conversations/conversation';
import { handOff, updateConversation } from '../conversations/service';
import { earlierInboundAnalyses, laterInboundAnalyses, recordAnalysis } from '../conversations/analysis-store';
import { getConversationWithMessages } from '../conversations/store';
import { getMessage, type MessageRef } from '../conversations/message-store';
import { DomainError } from '../platform/domain-error';
import { logger } from '../platform/observability';
import { getTenant } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { bedrockCategorizer, bedrockClassifier, bedrockSuggester } from './bedrock';
import { languageIfClear } from './language';
import { HANDOFF_RULES, handoffReason } from './handoff';
import { localCategorizer, localClassifier, localSuggester } from './local/provider';
import type { Categorizer, Classifier, Grounding, Suggester, TranscriptLine } from './provider-contract';
import { answer, type Answered, type Providers } from './provider-selection';
import type { Classification, Language, ProviderName } from './taxonomy';

/**
 * Entity extraction is loaded on first use, not with the module: by the first analysis, or by a suggestion
 * that reads the day and part of day a customer asks for (asked-time parses dates with it); the categorize
 * route never loads it. Its libraries are bundles beside (entities.ts): chrono's parser for each language
 * a process meets, and libphonenumber for the first message that names a number.
 */
const entities = () => import('./entities');
const askedTimes = () => import('./asked-time');

/** How much of a conversation the AI reads: enough context, bounded cost. */
const TRANSCRIPT_MESSAGES = 30;
const MAX_TAGS = 20;

/** Each operation's providers: a handler's bundle holds those of the operation it calls, no others. */
const CLASSIFIERS: Providers<Classifier> = { local: localClassifier, bedrock: bedrockClassifier };
const SUGGESTERS: Providers<Suggester> = { local: localSuggester, bedrock: bedrockSuggester };
const CATEGORIZERS: Providers<Categorizer> = { local: localCategorizer, bedrock: bedrockCategorizer };

/** A message's stored analysis in the taxonomy's terms (the conversation keeps it as plain strings). */
type Analysis = MessageAnalysis & Pick<Classification, 'sentiment' | 'intent'> & { provider: ProviderName };

const providerFields = <T>(a: Answered<T>) => ({
  provider: a.provider,
  ...(a.fallback ? { fallback: a.fallback } : {}),
});

/** The tenant settings the AI reads: dates in its time zone, short messages in its default language. */
export type AiTenant = Pick<Tenant, 'id' | 'timezone' | 'default_language'>;

async function classifyText(text: string, defaultLanguage: Language) {
  return answer(CLASSIFIERS, (p) => p.classify(text, defaultLanguage));
}

function analysisOf(c: Answered<Classification>, now: Date): Analysis {
  const { sentiment, intent, language } = c.result;
  return { sentiment, intent, language, provider: c.provider, analyzed_at: now.toISOString() };
}

export interface AnalyzeInput {
  text?: string;
  conversation_id?: string;
  message_id?: string;
}

export async function analyze(tenant: AiTenant, input: AnalyzeInput, now: Date) {
  const tenantId = tenant.id;
  let text = input.text ?? '';
  let earlier: (Analysis | null)[] = [];
  let message: Message | undefined;
  if (input.conversation_id && input.message_id) {
    const ref: MessageRef = {
      tenant_id: tenantId,
      conversation_id: input.conversation_id,
      message_id: input.message_id,
    };
    message = await getMessage(ref);
    if (!message) throw DomainError.notFound('The message');
    text = message.text;
    if (message.direction === 'inbound') {
      earlier = await earlierInboundAnalyses<Analysis>(ref, HANDOFF_RULES.consecutiveNegatives - 1);
    }
  }
  const classified = await classifyText(text, tenant.default_language);
  const reason = !message || message.direction === 'inbound' ? handoffReason(classified.result, earlier) : null;
  return {
    ...(message ? { conversation_id: message.conversation_id, message_id: message.id } : {}),
    ...classified.result,
    entities: await (await entities()).extractEntities(text, now, tenant.timezone, classified.result.language),
    handoff: { recommended: reason !== null, reason },
    ...providerFields(classified),
  };
}

async function conversationContext(tenantId: string, conversationId: string) {
  const found = await getConversationWithMessages(tenantId, conversationId, TRANSCRIPT_MESSAGES);
  if (!found) throw DomainError.notFound('The conversation');
  const transcript: TranscriptLine[] = [...found.messages]
    .reverse()
    .map((m) => ({ direction: m.direction, text: m.text }));
  return { conversation: found.conversation, transcript };
}

/** How many resources' schedules a suggestion reads at most: past that, the hours are left unknown. */
const MOST_SCHEDULES = 500;
/** How many resources' bookings a suggestion reads for the free times: past that, they are left unknown. */
const MOST_FREE_TIME_RESOURCES = 10;
/** How many days with free time a suggestion offers. */
const FREE_DAYS = 3;
const DAY_MS = 86_400_000;

/** Read without failing the suggestion: a part that cannot be read is left unknown (null). */
async function orNull<T>(what: string, read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    logger.warn(`${what} unavailable; suggesting without them`, { error });
    return null;
  }
}

/**
 * The zone a suggestion says times in: the one its resources' opening hours are kept in when they share one
 * (the customer reads the hours they know from the door), else the tenant's.
 */
export function speakingZone(tenant: AiTenant, schedules: readonly Pick<Schedule, 'timezone'>[] | null): string {
  const zones = new Set((schedules ?? []).map((s) => s.timezone));
  const [only] = zones;
  return zones.size === 1 && only ? only : tenant.timezone;
}

/**
 * The business's hours for the week ahead, from all its resources' schedules; null without any, with
 * more than MOST_SCHEDULES, or when they cannot be said as clock times.
 */
function openingHoursAhead(timeZone: string, schedules: Schedule[] | null, now: Date): Grounding['openingHours'] {
  const days = schedules?.length ? weekAhead(schedules, now, timeZone) : undefined;
  return days ? { timezone: timeZone, days } : null;
}

/**
 * When a booking can still be made in the week ahead: the first `most` days on which some resource with
 * opening hours is open and not booked (one Query of each resource's booked hours, all at once); null
 * without schedules or with more than MOST_FREE_TIME_RESOURCES of them. No day has any: an empty list.
 */
async function freeTimesAhead(
  tenant: AiTenant,
  timeZone: string,
  schedules: Schedule[] | null,
  now: Date,
  most: number,
): Promise<Grounding['freeTimes']> {
  if (!schedules?.length || schedules.length > MOST_FREE_TIME_RESOURCES) return null;
  // Eight days from now cover the seven calendar days from today in any zone; a new booking's buffer may
  // reach back before now into a booking there.
  const window = {
    start_at: new Date(now.getTime() - MAX_BUFFER_MINUTES * 60_000).toISOString(),
    end_at: new Date(now.getTime() + 8 * DAY_MS).toISOString(),
  };
  const held = await Promise.all(schedules.map((s) => heldIntervals(tenant.id, s.resource_id, window)));
  const days = freeDaysAhead(
    schedules.map((schedule, i) => ({ schedule, held: held[i] ?? [] })),
    now,
    timeZone,
    most,
  );
  return { timezone: timeZone, days };
}

/** The customer's last message, the one a suggestion answers. */
const lastInbound = (transcript: readonly TranscriptLine[]) =>
  [...transcript].reverse().find((line) => line.direction === 'inbound')?.text;

export async function suggest(
  tenant: AiTenant,
  input: { conversation_id?: string; messages?: TranscriptLine[]; count: number },
  now: Date,
) {
  const tenantId = tenant.id;
  // The business's opening hours ground an answer to "when are you open?", whatever the conversation; its
  // free times are read once the schedules are, while the conversation and then the customer's next
  // booking are.
  const schedulesRead = orNull('opening hours', async () => (await schedulesOf(tenantId, MOST_SCHEDULES)) ?? null);
  // Every free day of the week is read: the day the customer asks about may be any of them.
  const freeWeekRead = schedulesRead.then((found) =>
    orNull('free times', () => freeTimesAhead(tenant, speakingZone(tenant, found), found, now, 7)),
  );
  const [schedules, context] = await Promise.all([
    schedulesRead,
    input.conversation_id ? conversationContext(tenantId, input.conversation_id) : undefined,
  ]);
  const zone = speakingZone(tenant, schedules);
  const transcript = context?.transcript ?? input.messages ?? [];
  const [freeWeek, booking, openingHours] = await Promise.all([
    freeWeekRead,
    context ? nextBookingFor(tenantId, context.conversation.customer.id, now) : undefined,
    orNull('opening hours', async () => openingHoursAhead(zone, schedules, now)),
  ]);
  const freeTimes = freeWeek && { ...freeWeek, days: freeWeek.days.slice(0, FREE_DAYS) };
  const askedText = lastInbound(transcript);
  const parse = askedText ? await askedTimes() : null;
  const asked =
    askedText && parse
      ? await parse.askedTime(askedText, now, zone, languageIfClear(askedText) ?? tenant.default_language)
      : null;
  const askedFor =
    asked && parse && openingHours && freeWeek
      ? parse.answerAskedTime(asked, openingHours.days, freeWeek.days, FREE_DAYS)
      : null;
  const grounding: Grounding = {
    customerName: context?.conversation.customer.name ?? null,
    nextBooking: booking
      ? {
          id: booking.id,
          service: booking.service,
          start_at: booking.start_at,
          timezone: booking.timezone,
          status: booking.status,
        }
      : null,
    openingHours,
    freeTimes,
    askedFor,
  };
  const answered = await answer(SUGGESTERS, (p) =>
    p.suggest(transcript, grounding, input.count, tenant.default_language),
  );
  return {
    ...(input.conversation_id ? { conversation_id: input.conversation_id } : {}),
    suggestions: answered.result,
    grounding: {
      customer_name: grounding.customerName,
      next_booking: grounding.nextBooking,
      opening_hours: grounding.openingHours,
      free_times: grounding.freeTimes,
    },
    ...providerFields(answered),
  };
}

export async function categorize(tenant: AiTenant, conversationId: string, apply: boolean, now: Date) {
  const tenantId = tenant.id;
  const { conversation, transcript } = await conversationContext(tenantId, conversationId);
  const answered = await answer(CATEGORIZERS, (p) => p.categorize(transcript, tenant.default_language));
  const { category, candidates, suggested_tags } = answered.result;
  let updated = conversation;
  if (apply) {
    const tags = [...new Set([...conversation.tags, ...suggested_tags])].slice(0, MAX_TAGS);
    updated = await updateConversation(tenantId, conversationId, { category: category.name, tags }, undefined, now);
  }
  return {
    conversation_id: conversationId,
    category,
    candidates,
    suggested_tags,
    applied: apply,
    ...(apply ? { conversation: updated } : {}),
    ...providerFields(answered),
  };
}

/**
 * The analysis worker's step for one inbound message: classify it, store the verdict on the message
 * (once), and hand the conversation off when the rules say so. Stream records of parallel shards come in
 * any order, so a later message may have been judged before this one was analysed (its run looked
 * broken): the next messages are judged again with this one in place. Both reads follow both writes, so
 * of two messages analysed at once, at least one sees the other.
 */
export async function analyzeInbound(
  message: Pick<Message, 'tenant_id' | 'conversation_id' | 'id' | 'text'>,
  now: Date,
) {
  const ref: MessageRef = {
    tenant_id: message.tenant_id,
    conversation_id: message.conversation_id,
    message_id: message.id,
  };
  // The worker knows the tenant by id only: its settings are read when the message is too short to tell.
  const language = languageIfClear(message.text) ?? (await getTenant(message.tenant_id))?.default_language ?? 'en';
  const stored = await recordAnalysis(ref, analysisOf(await classifyText(message.text, language), now));
  if (!stored) return { analysis: undefined, handoff: undefined };
  const window = HANDOFF_RULES.consecutiveNegatives - 1;
  const earlier = await earlierInboundAnalyses<Analysis>(ref, window);
  let reason = handoffReason(stored, earlier);
  let handedOffBy = message.id;
  if (!reason) {
    for (const later of await laterInboundAnalyses<Analysis>(ref, window)) {
      if (!later.analysis) break;
      const laterRef = { ...ref, message_id: later.message_id };
      reason = handoffReason(later.analysis, await earlierInboundAnalyses<Analysis>(laterRef, window));
      if (reason) {
        handedOffBy = later.message_id;
        break;
      }
    }
  }
  const conversation = reason
    ? await handOff(message.tenant_id, message.conversation_id, reason, handedOffBy, now)
    : undefined;
  return { analysis: stored, handoff: conversation?.handoff ?? undefined };
}
