import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** Shared singletons, as in the Powertools examples. Constructing them does no I/O. */
export const logger = new Logger({ serviceName: 'messaging-api' });
export const metrics = new Metrics({ namespace: 'MessagingPlatform', serviceName: 'messaging-api' });
