/**
 * The `bedrock` provider: the Converse API with a configurable model. Every answer is JSON checked with
 * zod against the public taxonomy; anything else is an error, which the caller turns into a local
 * fallback (see ./provider-selection.ts).
 */
import type { BedrockRuntimeClient, ConverseCommand as ConverseCommandType } from '@aws-sdk/client-bedrock-runtime';
import * as z from 'zod/mini';
import { identifyLanguage } from './language';
import type { Categorizer, Classifier, DaysOfHours, Grounding, Suggester, TranscriptLine } from './provider-contract';
import { formatWhen } from '../platform/languages';
import { CATEGORIES, INTENTS, LANGUAGE_NAMES, SENTIMENTS, round, type Classification, type Language } from './taxonomy';

export interface BedrockOptions {
  modelId: string;
  /** Default: the SDK's (region endpoint); tests point it at a local Converse server. */
  endpoint?: string;
  timeoutMs: number;
}

const unit = z.number().check(z.minimum(0), z.maximum(1));
const intentScore = z.object({ name: z.enum(INTENTS), confidence: unit });
const ClassifyAnswer = z.object({
  intent: intentScore,
  intents: z.array(intentScore).check(z.minLength(1), z.maxLength(5)),
  sentiment: z.object({
    label: z.enum(SENTIMENTS),
    score: z.number().check(z.minimum(-1), z.maximum(1)),
    confidence: unit,
  }),
  language: z.optional(z.string()),
});
const SuggestAnswer = z.object({
  suggestions: z
    .array(
      z.object({
        text: z.string().check(z.minLength(1), z.maxLength(1000)),
        intent: z.enum(INTENTS),
        confidence: unit,
      }),
    )
    .check(z.minLength(1)),
});
const categoryScore = z.object({ name: z.enum(CATEGORIES), confidence: unit });
const CategorizeAnswer = z.object({
  category: categoryScore,
  candidates: z.array(categoryScore).check(z.minLength(1)),
  suggested_tags: z
    .array(z.string().check(z.regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/), z.maxLength(50)))
    .check(z.maxLength(10)),
});

/** The labels are the same English identifiers whatever language the customer writes in. */
const TAXONOMY = `Intents: ${INTENTS.join(', ')}. Sentiments: ${SENTIMENTS.join(', ')} (score -1..1). Categories: ${CATEGORIES.join(', ')}. Use exactly these identifiers, in English, whatever the language of the messages.`;
const JSON_ONLY = 'Answer with one JSON object only, no prose, no code fences.';

/** The JSON object in a model's answer, tolerating code fences and text around it. */
function extractJson(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new SyntaxError('the model answered without a JSON object');
  return JSON.parse(text.slice(start, end + 1));
}

const transcriptText = (t: readonly TranscriptLine[]) =>
  t.map((l) => `${l.direction === 'inbound' ? 'Customer' : 'Agent'}: ${l.text}`).join('\n');

const weekdayOf = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

/** Days by their weekday and date, each with its stretches ("closed" without any). */
const daysFact = (days: DaysOfHours['days']) =>
  days
    .map(
      (d) =>
        `${weekdayOf(d.date)} ${d.date}: ` +
        (d.hours.length ? d.hours.map((h) => `${h.start}-${h.end}`).join(', ') : 'closed'),
    )
    .join('; ');

/** The week ahead day by day with its dates, the first being today, so "tomorrow" and "Monday" resolve. */
function openingHoursFact(hours: DaysOfHours): string {
  const today = hours.days[0];
  return `Today is ${today ? `${weekdayOf(today.date)} ${today.date}` : 'unknown'} (${hours.timezone}). Opening hours, day by day: ${daysFact(hours.days)}.`;
}

function facts(g: Grounding, language: Language): string {
  const booking = g.nextBooking
    ? `The customer's next booking: ${g.nextBooking.service} on ${formatWhen(g.nextBooking.start_at, g.nextBooking.timezone, language)} (${g.nextBooking.status}).`
    : 'The customer has no upcoming booking.';
  const hours = g.openingHours ? ` ${openingHoursFact(g.openingHours)}` : ' Opening hours: not known.';
  const free = g.freeTimes
    ? ` Earliest free times for a new booking (only the first days of the next seven that have any; later days were not checked; never offer other times as free): ${g.freeTimes.days.length ? daysFact(g.freeTimes.days) : 'none in the next seven days'}.`
    : ' Free times: not known.';
  const a = g.askedFor;
  const asked = a
    ? a.state === 'free'
      ? ` The customer asks about ${a.date}${a.part ? ` (${a.part})` : ''}: free then ${daysFact(a.days)}.`
      : ` The customer asks about ${a.date}${a.part ? ` (${a.part})` : ''}: ${a.state === 'closed' ? 'closed' : 'fully booked'} then; the nearest free times: ${a.days.length ? daysFact(a.days) : 'none in the next seven days'}.`
    : '';
  return `Customer name: ${g.customerName ?? 'unknown'}. ${booking}${hours}${free}${asked}`;
}

/** One Converse call: the system prompt (the taxonomy is added), the user text, and the answer's schema. */
export type Converse = <T>(system: string, user: string, schema: z.ZodMiniType<T>) => Promise<T>;

/**
 * Converse with the configured model. The SDK client is imported and built on the first call: the local
 * model answers by default, and a deployment that never calls Bedrock never parses its client (about 50 KB
 * of every AI function's cold start). Deployed, it comes from the Lambda runtime's SDK (catalog/bundling.ts),
 * whose core it loads with it: a container's first Bedrock call pays that once, before its time-out starts.
 */
export function bedrockConverse(options: BedrockOptions): Converse {
  let sdk: Promise<{ client: BedrockRuntimeClient; ConverseCommand: typeof ConverseCommandType }> | undefined;
  return async (system, user, schema) => {
    sdk ??= import('@aws-sdk/client-bedrock-runtime').then(({ BedrockRuntimeClient, ConverseCommand }) => ({
      client: new BedrockRuntimeClient({ maxAttempts: 1, ...(options.endpoint ? { endpoint: options.endpoint } : {}) }),
      ConverseCommand,
    }));
    const { client, ConverseCommand } = await sdk;
    const out = await client.send(
      new ConverseCommand({
        modelId: options.modelId,
        system: [{ text: `${system} ${TAXONOMY} ${JSON_ONLY}` }],
        messages: [{ role: 'user', content: [{ text: user }] }],
        inferenceConfig: { maxTokens: 800, temperature: 0 },
      }),
      { abortSignal: AbortSignal.timeout(options.timeoutMs) },
    );
    const text = (out.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
    return z.parse(schema, extractJson(text));
  };
}

export const bedrockClassifier = (converse: Converse): Classifier => ({
  async classify(text, defaultLanguage) {
    // The language comes from the same identifier as the local model's, like the entities.
    const language = identifyLanguage(text, defaultLanguage);
    const a = await converse(
      `You triage customer messages for a business that takes bookings. The message is most likely in ${LANGUAGE_NAMES[language]}. Classify the message: intent (with confidence), the top 3 intents and sentiment {label, score, confidence}. Shape: {"intent":{"name","confidence"},"intents":[...],"sentiment":{"label","score","confidence"}}.`,
      text,
      ClassifyAnswer,
    );
    const c: Classification = {
      intent: a.intent,
      sentiment: a.sentiment,
      intents: a.intents.slice(0, 3).map((i) => ({ ...i, confidence: round(i.confidence) })),
      language,
    };
    return c;
  },
});

export const bedrockSuggester = (converse: Converse): Suggester => ({
  async suggest(transcript, grounding, count, defaultLanguage) {
    const last = [...transcript].reverse().find((l) => l.direction === 'inbound')?.text ?? '';
    const language = identifyLanguage(last, defaultLanguage);
    const a = await converse(
      `You draft replies for a support agent. Write ${count} alternative replies to the customer's last message, in ${LANGUAGE_NAMES[language]} (the customer's language). Use only these facts and never invent a booking, date, time, price or address: ${facts(grounding, language)} Shape: {"suggestions":[{"text","intent","confidence"}]} where intent is the customer's intent the reply answers.`,
      transcriptText(transcript),
      SuggestAnswer,
    );
    return a.suggestions.slice(0, count);
  },
});

export const bedrockCategorizer = (converse: Converse): Categorizer => ({
  async categorize(transcript) {
    return converse(
      'Categorise this customer conversation. Shape: {"category":{"name","confidence"},"candidates":[{"name","confidence"}],"suggested_tags":["lowercase-slugs"]}.',
      transcriptText(transcript),
      CategorizeAnswer,
    );
  },
});
