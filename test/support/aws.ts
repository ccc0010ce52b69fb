import { BUCKETS, TABLES, QUEUES } from '../../catalog/resources';
import { testRuntime } from './runtime';

/** Points this test process's AWS SDK at the emulators of the running local runtime. */
export function useRuntimeAws(): void {
  const rt = testRuntime();
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: rt.dynamoEndpoint,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: rt.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: rt.sqsEndpoint,
    AWS_ENDPOINT_URL_S3: rt.s3Endpoint,
    [BUCKETS.media.envVar]: `local-${BUCKETS.media.id}`.toLowerCase(),
    JWT_SECRET: rt.jwtSecret,
    DATA_KEY: rt.dataKey,
    PLATFORM_TOKEN: rt.platformToken,
    POWERTOOLS_METRICS_DISABLED: 'true',
    [TABLES.main.envVar]: `local-${TABLES.main.id}`,
    [TABLES.ephemeral.envVar]: `local-${TABLES.ephemeral.id}`,
    [TABLES.realtime.envVar]: `local-${TABLES.realtime.id}`,
  });
  void QUEUES;
}
