import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CORS } from '../functions/platform/cors';
import { AppFunction } from './api-function';
import { QUEUES, TABLES, type TableName } from './resources';
import { WORKERS } from './workers';
import { API_KEY_ITEM_PREFIX } from '../functions/api-keys/key';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { API_PREFIXES, ROUTES, usesDataKey } from './routes';
import type { StatefulStack } from './stateful-stack';

export interface StatelessStackProps extends StackProps {
  stateful: StatefulStack;
  /** A Bedrock model or inference-profile id: AI routes then use Bedrock (falling back to local). Unset: local. */
  bedrockModelId?: string;
}

/** The HTTP API and one Lambda per route of lib/routes.ts, each with only the grants it needs. */
export class StatelessStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<string, AppFunction> = {};

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { stateful } = props;

    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Multi-tenant customer-messaging API',
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [...CORS.allowOrigins],
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        allowMethods: CORS.allowMethods.map((m) => CorsHttpMethod[m]),
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
    });

    const tableEnv = Object.fromEntries(
      (Object.keys(TABLES) as TableName[]).map((key) => [TABLES[key].envVar, stateful.tables[key].tableName]),
    );

    for (const route of ROUTES) {
      const fn = new AppFunction(this, `${pascal(route.id)}Fn`, {
        handler: route.handler,
        description: `${route.method} ${route.path}`,
        environment: {
          ...tableEnv,
          JWT_SECRET_SECRET_ARN: stateful.jwtSecret.secretArn,
          ...(route.auth === 'platform' ? { PLATFORM_TOKEN_SECRET_ARN: stateful.platformTokenSecret.secretArn } : {}),
          ...(usesDataKey(route) ? { DATA_KEY_SECRET_ARN: stateful.dataKeySecret.secretArn } : {}),
          ...Object.fromEntries((route.sendsTo ?? []).map((q) => [QUEUES[q].envVar, stateful.queues[q].queueUrl])),
        },
      });
      for (const q of route.sendsTo ?? []) stateful.queues[q].grantSendMessages(fn);
      if (usesDataKey(route)) stateful.dataKeySecret.grantRead(fn);
      fn.grantTable(stateful.tables.main, TABLES.main, route.mainTable);
      if (route.ai) this.useAi(fn, props.bedrockModelId);
      if (route.auth === 'tenant' && route.mainTable === 'read') fn.grantApiKeyTouch(stateful.tables.main, API_KEY_ITEM_PREFIX);
      // Rate-limit counters, login throttling and idempotency records.
      fn.grantTable(stateful.tables.ephemeral, TABLES.ephemeral, 'write');
      stateful.jwtSecret.grantRead(fn);
      if (route.auth === 'platform') stateful.platformTokenSecret.grantRead(fn);
      const integration = new HttpLambdaIntegration(`${pascal(route.id)}Integration`, fn);
      for (const prefix of API_PREFIXES) {
        this.api.addRoutes({ path: `${prefix}${route.path}`, methods: [HttpMethod[route.method]], integration });
      }
      this.functions[route.id] = fn;
    }

    for (const worker of WORKERS) {
      const { source } = worker;
      const queueEnv = Object.fromEntries(
        [...worker.sendsTo, ...(source.kind === 'queue' ? [source.queue] : [])].map((q) => [QUEUES[q].envVar, stateful.queues[q].queueUrl]),
      );
      const fn = new AppFunction(this, `${pascal(worker.id)}Fn`, {
        handler: worker.handler,
        description: worker.description,
        // Below the 30 s visibility timeout of the queues (see channels/send-worker.ts for the chain).
        timeout: Duration.seconds(25),
        environment: {
          ...tableEnv,
          ...queueEnv,
          ...(worker.dataKey ? { DATA_KEY_SECRET_ARN: stateful.dataKeySecret.secretArn } : {}),
          // The delivery schedule and timeout are configuration, not code (defaults: DESIGN §6).
          ...(worker.id === 'webhook-delivery' ? { WEBHOOK_TIMEOUT_MS: '10000' } : {}),
        },
      });
      fn.grantTable(stateful.tables.main, TABLES.main, worker.mainTable);
      for (const q of worker.sendsTo) stateful.queues[q].grantSendMessages(fn);
      if (worker.dataKey) stateful.dataKeySecret.grantRead(fn);
      if (worker.ai) this.useAi(fn, props.bedrockModelId);
      if (source.kind === 'stream') {
        fn.addEventSource(
          new DynamoEventSource(stateful.tables[source.table] as unknown as ITable, {
            startingPosition: StartingPosition.TRIM_HORIZON,
            batchSize: source.batchSize,
            retryAttempts: source.maxRetries,
            bisectBatchOnError: true,
            reportBatchItemFailures: true,
            filters: source.filters.map((pattern) => FilterCriteria.filter(pattern)),
          }),
        );
      } else {
        fn.addEventSource(new SqsEventSource(stateful.queues[source.queue], { batchSize: source.batchSize, reportBatchItemFailures: true, maxConcurrency: Math.max(2, source.concurrency) }));
      }
      this.functions[worker.id] = fn;
    }

    new Alarm(this, 'Api5xxAlarm', {
      alarmDescription: 'The API returned server errors',
      metric: this.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    new CfnOutput(this, 'AiProvider', { value: props.bedrockModelId ? `bedrock:${props.bedrockModelId}` : 'local', description: 'Who answers /ai/* and analyses messages' });
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL; call it with /api/v1/...' });
  }

  /** AI functions: the provider setting, and with Bedrock only InvokeModel on the one configured model. */
  private useAi(fn: AppFunction, modelId: string | undefined) {
    fn.addEnvironment('AI_PROVIDER', modelId ? 'bedrock' : 'local');
    if (!modelId) return;
    fn.addEnvironment('BEDROCK_MODEL_ID', modelId);
    const baseModel = inferenceProfileModel(modelId);
    const resources = baseModel
      ? [Stack.of(this).formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId }), `arn:${Stack.of(this).partition}:bedrock:*::foundation-model/${baseModel}`]
      : [Stack.of(this).formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: modelId })];
    fn.addToRolePolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
  }
}

/** Cross-region inference profiles ("eu.anthropic…") route to their base model in several regions. */
export const inferenceProfileModel = (modelId: string): string | undefined => /^(?:us|eu|apac|us-gov|global)\.(.+)$/.exec(modelId)?.[1];

const pascal = (id: string) => id.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
