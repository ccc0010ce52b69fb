import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS } from '../../catalog/metrics';

/**
 * The shared Powertools Metrics (EMF lines), imported only by the functions that emit metrics: the
 * sweeper, the dead-letter consumer, and an HTTP handler's answer to a server error (loaded then).
 */
export const metrics = new Metrics({ namespace: METRICS.namespace, serviceName: METRICS.service });
