/**
 * The configured provider (AI_PROVIDER: `local`, the default, or `bedrock`) and the fallback rule:
 * whatever Bedrock fails to answer (error, timeout, invalid JSON), the local model answers instead, and
 * the response says which provider answered.
 */
import { logger } from '../platform/observability';
import { bedrockProvider } from './bedrock';
import { localProvider } from './local/provider';
import type { AiProvider } from './provider-contract';
import type { ProviderName } from './taxonomy';

export interface Answered<T> {
  result: T;
  provider: ProviderName;
  /** Why the configured provider did not answer. */
  fallback?: { from: ProviderName; reason: string };
}

let configured: AiProvider | undefined;

export function configuredProvider(): AiProvider {
  if (!configured) {
    const name = process.env.AI_PROVIDER ?? 'local';
    const modelId = process.env.BEDROCK_MODEL_ID;
    configured =
      name === 'bedrock' && modelId
        ? bedrockProvider({
            modelId,
            endpoint: process.env.BEDROCK_ENDPOINT_URL || undefined,
            timeoutMs: Number(process.env.BEDROCK_TIMEOUT_MS) || 8000,
          })
        : localProvider;
  }
  return configured;
}

const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return 'error';
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timeout';
  if (error instanceof SyntaxError || 'issues' in error) return 'invalid_output';
  return error.name;
};

/** Runs `call` on the provider; on any failure of a remote provider, on the local one. */
export async function answer<T>(
  call: (p: AiProvider) => Promise<T>,
  provider: AiProvider = configuredProvider(),
): Promise<Answered<T>> {
  if (provider.name === 'local') return { result: await call(provider), provider: 'local' };
  try {
    return { result: await call(provider), provider: provider.name };
  } catch (error) {
    const reason = reasonOf(error);
    logger.warn('AI provider failed; answering locally', {
      provider: provider.name,
      reason,
      error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
    });
    return { result: await call(localProvider), provider: 'local', fallback: { from: provider.name, reason } };
  }
}
