/**
 * The configured provider (AI_PROVIDER: `local`, the default, or `bedrock`) and the fallback rule:
 * whatever Bedrock fails to answer (error, timeout, invalid JSON), the local model answers instead, and
 * the response says which provider answered.
 */
import { logger } from '../platform/observability';
import { bedrockConverse, type Converse } from './bedrock';
import type { ProviderName } from './taxonomy';

export interface Answered<T> {
  result: T;
  provider: ProviderName;
  /** Why the configured provider did not answer. */
  fallback?: { from: ProviderName; reason: string };
}

/**
 * One operation's providers: the local one, and Bedrock's on a Converse client. Chosen per operation,
 * not per provider, so that a handler's bundle holds only the operation it calls: analyze needs neither
 * the reply templates nor the categories.
 */
export interface Providers<P> {
  local: P;
  bedrock: (converse: Converse) => P;
}

/** Read from the environment on first use; `null`: the local model answers. */
let configured: Converse | null | undefined;

/** Bedrock's Converse client when AI_PROVIDER=bedrock and BEDROCK_MODEL_ID name a model. */
export function configuredBedrock(): Converse | null {
  if (configured === undefined) {
    const modelId = process.env.BEDROCK_MODEL_ID;
    configured =
      process.env.AI_PROVIDER === 'bedrock' && modelId
        ? bedrockConverse({
            modelId,
            endpoint: process.env.BEDROCK_ENDPOINT_URL || undefined,
            timeoutMs: Number(process.env.BEDROCK_TIMEOUT_MS) || 8000,
          })
        : null;
  }
  return configured;
}

const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return 'error';
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timeout';
  if (error instanceof SyntaxError || 'issues' in error) return 'invalid_output';
  return error.name;
};

/** Runs `call` on the configured provider; on any failure of Bedrock's, on the local one. */
export async function answer<P, T>(
  providers: Providers<P>,
  call: (p: P) => Promise<T>,
  bedrock: Converse | null = configuredBedrock(),
): Promise<Answered<T>> {
  if (!bedrock) return { result: await call(providers.local), provider: 'local' };
  try {
    return { result: await call(providers.bedrock(bedrock)), provider: 'bedrock' };
  } catch (error) {
    const reason = reasonOf(error);
    logger.warn('AI provider failed; answering locally', {
      provider: 'bedrock',
      reason,
      error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
    });
    return { result: await call(providers.local), provider: 'local', fallback: { from: 'bedrock', reason } };
  }
}
