import * as z from 'zod/mini';
import { defineContract, named, resourceId, timestamp } from '../platform/api-contract';
import { Conversation } from '../conversations/contract';
import { CATEGORIES, INTENTS, SENTIMENTS } from './taxonomy';

const confidence = z.number().check(z.minimum(0), z.maximum(1));
const intentScore = z.object({ name: z.enum(INTENTS), confidence });
const categoryScore = z.object({ name: z.enum(CATEGORIES), confidence });

/** Every AI response names who answered, and why the configured provider did not when it fell back. */
const providerFields = {
  provider: z.enum(['local', 'bedrock']),
  fallback: z.optional(
    z
      .object({
        from: z.enum(['local', 'bedrock']),
        reason: z.string().check(z.meta({ examples: ['timeout', 'invalid_output'] })),
      })
      .check(z.meta({ description: 'Present when the configured provider failed and the local model answered.' })),
  ),
};

const zoned = (type: 'datetime' | 'date', description: string) =>
  z.object({
    type: z.literal(type),
    text: z.string(),
    value: z.string().check(z.meta({ description })),
    timezone: z.string(),
  });

export const Entity = named(
  'Entity',
  z.discriminatedUnion('type', [
    named(
      'DateTimeEntity',
      zoned('datetime', 'ISO 8601 with the tenant zone\u2019s offset on that day, e.g. 2026-11-23T15:00:00+01:00.'),
    ),
    named('DateEntity', zoned('date', 'YYYY-MM-DD.')),
    named('EmailEntity', z.object({ type: z.literal('email'), text: z.string(), value: z.string() })),
    named(
      'PhoneEntity',
      z.object({
        type: z.literal('phone'),
        text: z.string(),
        value: z.string().check(z.meta({ description: 'E.164.' })),
      }),
    ),
    named(
      'MoneyEntity',
      z.object({
        type: z.literal('money'),
        text: z.string(),
        value: z.object({ amount: z.number(), currency: z.nullable(z.string()) }),
      }),
    ),
  ]),
);

export const Analysis = named(
  'Analysis',
  z.object({
    conversation_id: z.optional(resourceId('conv')),
    message_id: z.optional(resourceId('msg')),
    sentiment: z.object({
      label: z.enum(SENTIMENTS),
      score: z
        .number()
        .check(
          z.minimum(-1),
          z.maximum(1),
          z.meta({ description: 'From -1 to 1; its sign always agrees with the label.' }),
        ),
      confidence,
    }),
    intent: intentScore,
    intents: z.array(intentScore).check(z.meta({ description: 'The top three, best first.' })),
    language: z
      .string()
      .check(z.meta({ description: 'ISO 639-1, or `und` when the text is too short to tell.', examples: ['en'] })),
    entities: z.array(Entity),
    handoff: z.object({
      recommended: z.boolean(),
      reason: z.nullable(z.enum(['request_human', 'complaint', 'negative_sentiment'])),
    }),
    ...providerFields,
  }),
);

/** Clock times per date in the tenant's zone: opening hours, free times. */
const DaysOfHours = named(
  'DaysOfHours',
  z.object({
    timezone: z
      .string()
      .check(z.meta({ description: 'The tenant\u2019s time zone: the hours are clock times there.' })),
    days: z.array(
      z.object({
        date: z
          .string()
          .check(z.meta({ examples: ['2026-11-24'], description: 'YYYY-MM-DD in the tenant\u2019s zone.' })),
        hours: z
          .array(z.object({ start: z.string(), end: z.string() }))
          .check(z.meta({ description: 'Clock times, `HH:MM`; `24:00` is the end of the day. Empty: closed.' })),
      }),
    ),
  }),
);

export const Suggestions = named(
  'Suggestions',
  z.object({
    conversation_id: z.optional(resourceId('conv')),
    suggestions: z.array(z.object({ text: z.string(), intent: z.enum(INTENTS), confidence })),
    grounding: z
      .object({
        customer_name: z.nullable(z.string()),
        next_booking: z.nullable(
          z.object({
            id: resourceId('bkg'),
            service: z.string(),
            start_at: timestamp,
            timezone: z.string(),
            status: z.string(),
          }),
        ),
        opening_hours: z.nullable(DaysOfHours).check(
          z.meta({
            description:
              'The business\u2019s hours on each of the next seven days, from today in the tenant\u2019s zone: when ' +
              'any resource with opening hours (`/schedules`) is open, date overrides included (resources without ' +
              'any are not counted). Null when no resource has opening hours, past 500 of them, or when the hours ' +
              'cannot be said as clock times in the tenant\u2019s zone.',
          }),
        ),
        free_times: z.nullable(DaysOfHours).check(
          z.meta({
            description:
              'When a booking can still be made: the first three days of the next seven with time, from the next ' +
              'quarter hour on, that some resource with opening hours is open and not booked (with room for its ' +
              'buffers), in stretches of at least 30 minutes on one resource. Only days with such time are listed ' +
              '(a stretch that cannot be said as clock times in the tenant\u2019s zone is left out). Null when no ' +
              'resource has opening hours, past 10 of them, or when their bookings cannot be read.',
          }),
        ),
      })
      .check(z.meta({ description: 'The facts the suggestions may rely on: nothing else is stated.' })),
    ...providerFields,
  }),
);

export const Categorization = named(
  'Categorization',
  z.object({
    conversation_id: resourceId('conv'),
    category: categoryScore,
    candidates: z.array(categoryScore),
    suggested_tags: z.array(z.string()),
    applied: z.boolean(),
    conversation: z
      .optional(Conversation)
      .check(z.meta({ description: 'With `apply: true`: the conversation with its category and tags set.' })),
    ...providerFields,
  }),
);

export const contract = defineContract({
  'ai-analyze': {
    operationId: 'analyze',
    summary: 'Analyse a text or a message',
    description:
      'Sentiment, intent (and the top three), entities (dates resolved in the tenant\u2019s time zone, emails, phones, money), language and a ' +
      'handoff verdict, for `{text}` or a stored `{conversation_id, message_id}`.',
    responses: { 200: { description: 'The analysis.', body: Analysis } },
    errors: { 404: ['not_found'] },
    requestExample: {
      text: 'I was charged twice for my massage tomorrow at 3pm!! Refund the \u20ac45 to jo@example.com',
    },
  },
  'ai-suggest': {
    operationId: 'suggestReplies',
    summary: 'Suggest replies',
    description:
      'Reply suggestions for a conversation (or a transcript), grounded in the customer\u2019s name and their next booking.',
    responses: { 200: { description: 'The suggestions and their grounding.', body: Suggestions } },
    errors: { 404: ['not_found'] },
    requestExample: { conversation_id: 'conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W', count: 2 },
  },
  'ai-categorize': {
    operationId: 'categorizeConversation',
    summary: 'Categorise a conversation',
    description:
      'Category, candidates and suggested tags; `apply: true` sets the category and adds the tags (emitting `conversation.updated`).',
    responses: { 200: { description: 'The categorisation.', body: Categorization } },
    errors: { 404: ['not_found'], 409: ['concurrent_update'] },
    requestExample: { conversation_id: 'conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W', apply: true },
  },
});
