/**
 * AWS list prices, us-east-1, as published on the service pricing pages (aws.amazon.com/dynamodb/pricing/
 * on-demand, /lambda/pricing, /api-gateway/pricing, /sqs/pricing, /cloudwatch/pricing, /secrets-manager/
 * pricing, /kms/pricing, /waf/pricing, /cloudfront/pricing, /s3/pricing, /bedrock/pricing). Free tiers
 * are left out. DynamoDB on-demand has cost half its former $1.25 / $0.25 per million write / read request
 * units since the price cut of 2024-11-01. The request prices were read 2025-06-01, the monthly ones
 * (alarms, secrets, keys, WAF, storage) 2026-11-28; check the pages before relying on a figure.
 */
export const PRICES = {
  source: 'AWS list prices, us-east-1, pricing pages read 2025-06-01 (requests) and 2026-11-28 (monthly items)',
  /** DynamoDB on-demand, Standard table class, per write request unit (1 KB; 2 per KB in a transaction). */
  dynamoWriteUnit: 0.625 / 1e6,
  /** DynamoDB on-demand, Standard table class, per read request unit (4 KB strongly consistent; 2 reads eventually consistent). */
  dynamoReadUnit: 0.125 / 1e6,
  /** Lambda, arm64, per GB-second of billed duration (rounded up to the millisecond). */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway HTTP API, per request (first 300 million a month). */
  httpApiRequest: 1.0 / 1e6,
  /** SQS standard queue, per request (64 KB chunk). */
  sqsRequest: 0.4 / 1e6,
  /** CloudWatch Logs, per GB ingested (standard class). */
  logsIngestedGb: 0.5,
  /** CloudWatch Logs, per GB-month stored (compressed). */
  logsStoredGbMonth: 0.03,
  /** CloudWatch standard-resolution alarm, per metric it evaluates, per month. */
  alarmMetricMonth: 0.1,
  /** Secrets Manager, per secret per month. */
  secretMonth: 0.4,
  /** KMS customer managed key, per month (each of its first two automatic rotations adds $1 a month). */
  kmsKeyMonth: 1.0,
  /** AWS WAF, per web ACL per month, and per rule (a managed rule group counts as one) per month. */
  wafWebAclMonth: 5.0,
  wafRuleMonth: 1.0,
  /** AWS WAF, per request inspected. */
  wafRequest: 0.6 / 1e6,
  /** DynamoDB Standard table storage, per GB-month (the first 25 GB are free, left out here). */
  dynamoStorageGbMonth: 0.25,
  /** DynamoDB continuous backups (point-in-time recovery), per GB-month of table size. */
  dynamoPitrGbMonth: 0.2,
  /** S3 Standard storage, per GB-month. */
  s3StorageGbMonth: 0.023,
  /** S3 Standard, per PUT (COPY, POST, LIST) request and per GET (and other) request. */
  s3PutRequest: 0.005 / 1000,
  s3GetRequest: 0.0004 / 1000,
  /** CloudFront: no monthly fee; per 10,000 HTTPS requests (North America and Europe). */
  cloudFrontHttpsRequest: 0.01 / 1e4,
  /** Bedrock, Claude 3.5 Haiku on demand, per input and per output token. */
  bedrockInputToken: 0.8 / 1e6,
  bedrockOutputToken: 4.0 / 1e6,
};
