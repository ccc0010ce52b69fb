/**
 * Memory of every function, in MB: the CDK stack configures it (lib/api-function.ts) and `npm run bench`
 * prices invocations with it. Lambda gives CPU in proportion to memory (a full vCPU at 1,769 MB).
 */
import { ROUTES } from './routes';
import { WORKERS } from './workers';

/** Lambda gives a function one full vCPU at this memory, and a proportional share below it. */
export const FULL_VCPU_MB = 1769;

/**
 * Handlers and workers mostly wait on DynamoDB and SQS. Measured by `npm run bench` (one full core), a
 * steady `GET /conversations` waits about 5–15 ms and spends 5–10 ms of CPU (the SDK's signing and
 * parsing, the handler). Billed time is wait + CPU x 1,769 / memory, so GB-seconds are
 * (wait x memory + CPU x 1,769) / 1,024: the CPU part costs the same at any memory and only the waiting
 * gets cheaper with less. 256 MB would save about $0.03 per million list requests but stretch 7 ms of
 * CPU to about 48 ms (14 % of a vCPU) instead of 24 ms; 512 MB keeps such a read under about 40 ms.
 */
export const DEFAULT_MEMORY_MB = 512;
/** The `$default` route only formats a 404. */
export const UNMATCHED_ROUTE_MEMORY_MB = 256;
/**
 * AI handlers and the analysis worker parse the local model on a cold start and classify text: CPU-bound
 * work, which takes (CPU ms on one full core) x 1,769 / memory MB, at about the same GB-seconds whatever
 * the memory, while waiting on DynamoDB costs in proportion to memory. How to size it: take the cold
 * load and first analysis of `npm run bench` (one full core), and choose the smallest memory that brings
 * that under the cold-start budget. Kept at the default until the model's packaging settles.
 */
export const AI_MEMORY_MB = DEFAULT_MEMORY_MB;

export function functionMemoryMb(id: string): number {
  if (id === 'unmatched-route') return UNMATCHED_ROUTE_MEMORY_MB;
  const ai = ROUTES.find((r) => r.id === id)?.ai ?? WORKERS.find((w) => w.id === id)?.ai;
  return ai ? AI_MEMORY_MB : DEFAULT_MEMORY_MB;
}
