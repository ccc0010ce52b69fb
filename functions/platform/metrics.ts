import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS } from '../../catalog/metrics';

/**
 * The shared Powertools Metrics (EMF lines), imported only by the functions that emit metrics: the
 * sweepers, the dead-letter consumer and the media fetcher statically, and an HTTP handler's answer to a
 * server error on first use, as `#metrics` (package.json `imports`; deployed, a bundle of its own beside
 * the handler's: catalog/bundling.ts BUNDLES_BESIDE).
 */
export const metrics = new Metrics({ namespace: METRICS.namespace, serviceName: METRICS.service });
