import { bedrockClassifier, bedrockConverse, bedrockSuggester } from '../../functions/ai/bedrock';
import { localClassifier, localSuggester } from '../../functions/ai/local/provider';
import { answer } from '../../functions/ai/provider-selection';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock';

let fake: FakeBedrock;
beforeAll(async () => {
  process.env.AWS_REGION ??= 'eu-central-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  fake = await startFakeBedrock();
});
afterAll(() => fake.close());

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
/**
 * Generous by default: a first call loads and signs with the SDK, which a busy CI machine can make slow.
 * The timeout case gives a short one, beside an answer three times as slow.
 */
const bedrock = (timeoutMs = 5000) => bedrockConverse({ modelId: MODEL, endpoint: fake.url, timeoutMs });
const classifiers = { local: localClassifier, bedrock: bedrockClassifier };
const suggesters = { local: localSuggester, bedrock: bedrockSuggester };
const classification = {
  intent: { name: 'pricing', confidence: 0.93 },
  intents: [
    { name: 'pricing', confidence: 0.93 },
    { name: 'book_appointment', confidence: 0.05 },
    { name: 'other', confidence: 0.02 },
  ],
  sentiment: { label: 'neutral', score: 0.1, confidence: 0.8 },
  language: 'en',
};

describe('bedrock provider (Converse API against a local server)', () => {
  it('sends a signed Converse request with the configured model and validates the JSON answer', async () => {
    fake.answer({ text: '```json\n' + JSON.stringify(classification) + '\n```' });
    const before = fake.calls.length;
    const res = await answer(classifiers, (p) => p.classify('how much is a gel manicure?', 'en'), bedrock());
    expect(res).toEqual({ result: classification, provider: 'bedrock' });
    const call = fake.calls[before];
    expect(call?.modelId).toBe(MODEL);
    expect(call?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=.*\/bedrock\/aws4_request/);
    expect(call?.body.messages).toEqual([{ role: 'user', content: [{ text: 'how much is a gel manicure?' }] }]);
    expect(call?.body.system?.[0]?.text).toContain('request_human');
    expect(call?.body.inferenceConfig).toMatchObject({ temperature: 0 });
  });

  it('gives the grounding facts to the model for suggestions', async () => {
    fake.answer({
      text: JSON.stringify({
        suggestions: [{ text: 'Hi Ana, shall I move your Haircut?', intent: 'reschedule_booking', confidence: 0.9 }],
      }),
    });
    const before = fake.calls.length;
    const booking = {
      id: 'bkg_1',
      service: 'Haircut',
      start_at: '2026-11-24T14:00:00Z',
      timezone: 'Europe/Berlin',
      status: 'confirmed',
    };
    const res = await answer(
      suggesters,
      (p) =>
        p.suggest(
          [{ direction: 'inbound', text: 'can I move my appointment?' }],
          { customerName: 'Ana', nextBooking: booking, openingHours: null, freeTimes: null },
          2,
          'en',
        ),
      bedrock(),
    );
    expect(res.provider).toBe('bedrock');
    expect(res.result[0]?.intent).toBe('reschedule_booking');
    const system = fake.calls[before]?.body.system?.[0]?.text ?? '';
    expect(system).toContain('Customer name: Ana');
    expect(system).toContain('Haircut on Tuesday 24 November at 15:00');
    expect(system).toContain('never invent');
    expect(system).toContain('in English');
  });

  it('asks for suggestions in the language of the customer, with the booking in that language', async () => {
    fake.answer({
      text: JSON.stringify({
        suggestions: [{ text: 'Hallo Jonas, gern.', intent: 'reschedule_booking', confidence: 0.9 }],
      }),
    });
    const before = fake.calls.length;
    const booking = {
      id: 'bkg_1',
      service: 'Haarschnitt',
      start_at: '2026-11-24T14:00:00Z',
      timezone: 'Europe/Berlin',
      status: 'confirmed',
    };
    const transcript = [{ direction: 'inbound', text: 'Hallo, ich möchte meinen Termin verschieben' }] as const;
    await answer(
      suggesters,
      (p) =>
        p.suggest(
          transcript,
          { customerName: 'Jonas', nextBooking: booking, openingHours: null, freeTimes: null },
          2,
          'en',
        ),
      bedrock(),
    );
    const system = fake.calls[before]?.body.system?.[0]?.text ?? '';
    expect(system).toContain('in German');
    expect(system).toContain('Dienstag, 24. November um 15:00 Uhr');
    expect(system).toContain('reschedule_booking');
  });

  it('keeps the language it identified, whatever the model says', async () => {
    fake.answer({ text: JSON.stringify({ ...classification, language: 'it' }) });
    const res = await answer(
      classifiers,
      (p) => p.classify('quanto costa la manicure semipermanente?', 'es'),
      bedrock(),
    );
    expect(res.provider).toBe('bedrock');
    expect(['en', 'es', 'pt', 'fr', 'de']).toContain(res.result.language);
  });

  it.each([
    ['prose instead of JSON', { text: 'Sure! The customer is asking about prices.' }, 'invalid_output'],
    [
      'an intent outside the taxonomy',
      { text: JSON.stringify({ ...classification, intent: { name: 'haircut', confidence: 1 } }) },
      'invalid_output',
    ],
    [
      'a score out of range',
      { text: JSON.stringify({ ...classification, sentiment: { label: 'neutral', score: 7, confidence: 1 } }) },
      'invalid_output',
    ],
    ['a server error', { status: 503 }, 'ServiceUnavailableException'],
    ['a timeout', { text: JSON.stringify(classification), delayMs: 1500 }, 'timeout'],
  ])('falls back to the local model on %s, and says so', async (_case, scripted, reason) => {
    fake.answer(scripted);
    const res = await answer(
      classifiers,
      (p) => p.classify('I want to talk to a real person', 'en'),
      bedrock(reason === 'timeout' ? 500 : undefined),
    );
    expect(res.provider).toBe('local');
    expect(res.fallback).toEqual({ from: 'bedrock', reason });
    expect(res.result.intent.name).toBe('request_human');
  });

  it('is what AI_PROVIDER=bedrock selects, and the response names the provider that answered', async () => {
    process.env.AI_PROVIDER = 'bedrock';
    process.env.BEDROCK_MODEL_ID = MODEL;
    process.env.BEDROCK_ENDPOINT_URL = fake.url;
    const { analyze } = await import('../../functions/ai/service');
    fake.answer({ text: JSON.stringify(classification) }, { status: 500 });
    const tenant = { id: 'tenant-unused', timezone: 'UTC', default_language: 'en' } as const;
    const ok = await analyze(
      tenant,
      { text: 'how much for a full set, tomorrow at 3pm?' },
      new Date('2026-11-21T10:00:00Z'),
    );
    expect(ok).toMatchObject({
      provider: 'bedrock',
      intent: { name: 'pricing' },
      entities: [{ type: 'datetime', value: '2026-11-22T15:00:00+00:00' }],
    });
    const fallback = await analyze(tenant, { text: 'how much for a full set?' }, new Date());
    expect(fallback).toMatchObject({ provider: 'local', fallback: { from: 'bedrock' }, intent: { name: 'pricing' } });
  });
});
