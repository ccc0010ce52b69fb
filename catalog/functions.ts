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
 * work, which takes (CPU ms on one full core) x 1,769 / memory MB. `npm run bench` measures a fresh
 * process loading the code and one language's model and answering its first analysis at 46-75 ms on one
 * full core (English, the largest model, is the 75). At 512 MB (29 % of a vCPU) that is about 260 ms; at
 * 1,536 MB (87 %) about 86 ms, inside the 100 ms cold-start budget with a little room. Warm, an analysis
 * is about a millisecond of CPU (the same GB-seconds at any memory) and a short DynamoDB wait, so the
 * larger memory costs little per request; the bench prints the estimate at this memory beside its figure.
 */
export const AI_MEMORY_MB = 1536;

/**
 * Timeout of every API function (workers: WORKER_TIMEOUT_SECONDS in catalog/resources.ts). API Gateway's
 * HTTP API waits at most 30 s for a function; a request handler waits on DynamoDB for milliseconds, so
 * 10 s is only reached by a fault. The local gateway answers 504 past it, as a deployed function stops.
 */
export const API_TIMEOUT_SECONDS = 10;

/** The API's origin authorizer compares a header with a cached secret. */
export const ORIGIN_AUTHORIZER_MEMORY_MB = 256;

export function functionMemoryMb(id: string): number {
  if (id === 'unmatched-route') return UNMATCHED_ROUTE_MEMORY_MB;
  if (id === 'origin-authorizer') return ORIGIN_AUTHORIZER_MEMORY_MB;
  const ai = ROUTES.find((r) => r.id === id)?.ai ?? WORKERS.find((w) => w.id === id)?.ai;
  return ai ? AI_MEMORY_MB : DEFAULT_MEMORY_MB;
}
