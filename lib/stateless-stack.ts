import { CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRouteIntegration,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
  type HttpRouteIntegrationConfig,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ACCESS_LOG_FORMAT } from '../catalog/access-log';
import { CORS } from '../catalog/cors';
import {
  API_KEY_ITEM_PREFIX,
  BUCKETS,
  QUEUES,
  TABLES,
  WORKER_TIMEOUT_SECONDS,
  type TableName,
} from '../catalog/resources';
import { functionMemoryMb } from '../catalog/functions';
import { PROBLEM_DOCS, routeDefine } from '../catalog/bundling';
import { API_PREFIXES, ROUTES, gatewayMethodOf, usesDataKey, type RouteDef } from '../catalog/routes';
import { WORKERS, type WorkerDef } from '../catalog/workers';
import { ApiFront } from './api-edge';
import { AppFunction } from './api-function';
import { RealtimeApi } from './realtime-api';
import type { StatefulStack } from './stateful-stack';

export interface ApiThrottle {
  /** Steady requests per second across the whole stage. */
  rateLimit: number;
  burstLimit: number;
}

export const DEFAULT_API_THROTTLE: ApiThrottle = { rateLimit: 200, burstLimit: 400 };

/**
 * An asynchronous invocation throttled this long (a burst beyond the worker's concurrency) gives up its
 * attempt to the worker's queue, rather than waiting in Lambda's for up to six hours.
 */
const ASYNC_MAX_EVENT_AGE = Duration.minutes(5);

/** Lambda's SQS event sources run at least 2 concurrent batches. */
const queueMaxConcurrency = (concurrency: number) => Math.max(2, concurrency);

/** Records older than this go to the on-failure queue: well inside the stream's 24 h retention, so they can still be replayed. */
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);
/** A stream worker this far behind alarms. */
const ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

export interface StatelessStackProps extends StackProps {
  stateful: StatefulStack;
  /** A Bedrock model or inference-profile id: AI routes then use Bedrock (falling back to local). Unset: local. */
  bedrockModelId?: string;
  /** Stage-level throttling (`-c apiRateLimit=… -c apiBurstLimit=…`). */
  throttle?: ApiThrottle;
  /**
   * Reserved concurrency by worker id (`-c workerConcurrency.<id>=…`), an opt-in for production accounts;
   * others reserve none, since a new account's concurrency quota (often 10) cannot spare any. Unreserved,
   * a queue worker is bounded by its event source's maximum concurrency, a stream worker by one batch per
   * shard, and a scheduled one by its lease (catalog/workers.ts); docs/operations.md has the quota arithmetic.
   */
  workerConcurrency?: Record<string, number>;
  /** The route table; the infra test passes a larger one to prove the layout has room. */
  routes?: readonly RouteDef[];
  /** The platform's Meta app (`-c whatsappAppId=… -c whatsappVerifyToken=… -c whatsappGraphVersion=…`); unset: tenants bring their own. */
  whatsapp?: { appId?: string; verifyToken?: string; graphVersion?: string; signupConfigId?: string };
  /** The ARN of the CloudFront web ACL (lib/api-edge.ts, in us-east-1). */
  webAclArn: string;
  /** The origin secret's version CloudFront sends (`-c originSecretVersion=…` after a rotation). */
  originSecretVersion?: string;
  /**
   * Where problem `type` URLs point (`-c problemDocsUrl=https://docs.example.com/problems`); without it they
   * are the path `/docs/problems#<code>`, which the `$default` route serves on the API's own address.
   */
  problemDocsUrl?: string;
}

/**
 * The HTTP API with one Lambda per route of catalog/routes.ts (each with only the grants it needs) and the
 * workers of catalog/workers.ts. Route functions live in one nested stack per feature, so no template
 * comes near CloudFormation's 500-resource limit; the routes themselves stay on the API here.
 */
export class StatelessStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<string, AppFunction> = {};
  /** The nested stack of each feature (the first segment of a route's handler). */
  readonly routeStacks: Record<string, NestedStack> = {};
  /** The asynchronous workers, their triggers and alarms: a nested stack, so the API stack keeps room for routes. */
  readonly workerStack: NestedStack;
  readonly unmatchedRouteFunction: AppFunction;
  readonly stage: HttpStage;
  /** A nested stack: the origin check every route requires, the `$default` function, CloudFront. */
  readonly front: ApiFront;
  /** The realtime WebSocket API and its three route functions, in the workers' nested stack. */
  readonly realtime: RealtimeApi;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { stateful } = props;
    const routes = props.routes ?? ROUTES;

    // Paths no route matches get the API's own problem+json 404 rather than API Gateway's.
    this.front = new ApiFront(this, 'Front');
    this.unmatchedRouteFunction = new AppFunction(this.front, 'UnmatchedRouteFn', {
      handler: 'platform/unmatched-route',
      description: 'Any method and path without a route',
      memorySize: functionMemoryMb('unmatched-route'),
      dataFiles: [PROBLEM_DOCS],
    });
    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Multi-tenant customer-messaging API',
      createDefaultStage: false,
      defaultIntegration: new FunctionIntegration('UnmatchedRouteIntegration', this.unmatchedRouteFunction),
      defaultAuthorizer: this.front.authorizer,
      corsPreflight: {
        allowOrigins: [...CORS.allowOrigins],
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        allowMethods: CORS.allowMethods.map((m) => CorsHttpMethod[m]),
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    allowApiToInvoke(this.unmatchedRouteFunction, this.api, '*/*');
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const throttle = props.throttle ?? DEFAULT_API_THROTTLE;
    const stage = (this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
      throttle: { rateLimit: throttle.rateLimit, burstLimit: throttle.burstLimit },
    }));

    this.workerStack = new NestedStack(this, 'Workers', { description: 'Stream, queue and scheduled workers' });
    // Beside the workers that push to it (the dispatcher, the greeter): their grants name it in one template.
    this.realtime = new RealtimeApi(this.workerStack, 'Realtime', { table: stateful.tables.realtime, throttle });

    const tableEnv = Object.fromEntries(
      (Object.keys(TABLES) as TableName[]).map((key) => [TABLES[key].envVar, stateful.tables[key].tableName]),
    );

    for (const route of routes) {
      const feature = route.handler.split('/')[0] ?? route.handler;
      const group = (this.routeStacks[feature] ??= new NestedStack(this, `${pascal(feature)}Routes`, {
        description: `Route functions of ${feature}/`,
      }));
      // A route without table access reads no secret either (the OpenAPI document): no grants at all.
      const stateless = route.mainTable === 'none';
      const fn = new AppFunction(group, `${pascal(route.id)}Fn`, {
        handler: route.handler,
        ai: route.ai,
        dataFiles: route.dataFiles,
        define: routeDefine(route),
        description: `${route.method} ${route.path}`,
        memorySize: functionMemoryMb(route.id),
        environment: stateless
          ? {}
          : {
              ...tableEnv,
              JWT_SECRET_SECRET_ARN: stateful.jwtSecret.secretArn,
              ...(route.auth === 'platform'
                ? { PLATFORM_TOKEN_SECRET_ARN: stateful.platformTokenSecret.secretArn }
                : {}),
              ...(usesDataKey(route) ? { DATA_KEY_SECRET_ARN: stateful.dataKeySecret.secretArn } : {}),
              ...Object.fromEntries((route.sendsTo ?? []).map((q) => [QUEUES[q].envVar, stateful.queues[q].queueUrl])),
              ...(route.whatsappApp ? this.whatsappEnv(stateful, props) : {}),
              ...(route.realtime ? { REALTIME_URL: this.realtime.url } : {}),
            },
      });
      // Realtime tickets are items of the Realtime table.
      if (route.realtime) fn.grantTable(stateful.tables.realtime, TABLES.realtime, 'write');
      if (route.whatsappApp && props.whatsapp?.appId) stateful.whatsappAppSecret.grantRead(fn);
      for (const q of route.sendsTo ?? []) stateful.queues[q].grantSendMessages(fn);
      if (usesDataKey(route)) stateful.dataKeySecret.grantRead(fn);
      if (route.ai) this.useAi(fn, props.bedrockModelId);
      if (route.media) this.useMedia(fn, stateful, route.media);
      if (route.auth === 'platform') stateful.platformTokenSecret.grantRead(fn);
      if (route.mainTable !== 'none') {
        fn.grantTable(stateful.tables.main, TABLES.main, route.mainTable);
        if (route.auth === 'tenant' && route.mainTable === 'read')
          fn.grantApiKeyTouch(stateful.tables.main, API_KEY_ITEM_PREFIX);
        // Rate-limit counters, login throttling and idempotency records.
        fn.grantTable(stateful.tables.ephemeral, TABLES.ephemeral, 'write');
        stateful.jwtSecret.grantRead(fn);
      }
      const integration = new FunctionIntegration(`${pascal(route.id)}Integration`, fn);
      // HTTP API routes are per method: a GET that answers HEAD too takes ANY (one route per prefix, within the
      // API's 300), and its handler answers other methods as the $default route would (functions/http/handler.ts).
      const method = gatewayMethodOf(route);
      for (const prefix of API_PREFIXES) {
        this.api.addRoutes({ path: `${prefix}${route.path}`, methods: [HttpMethod[method]], integration });
      }
      // One permission for both prefixes ("*" stands for the prefix, ANY's method and each path parameter).
      allowApiToInvoke(fn, this.api, `*/${route.head ? '*' : route.method}/*${route.path.replace(/\{[^}]+\}/g, '*')}`);
      this.functions[route.id] = fn;
    }

    this.front.attach({
      api: this.api,
      stage,
      webAclArn: props.webAclArn,
      stageThrottle: throttle,
      routeFunctions: routes.map((r) => this.functions[r.id] as AppFunction),
      routes,
      originSecretVersion: props.originSecretVersion,
    });

    for (const worker of WORKERS) this.functions[worker.id] = this.addWorker(worker, props, tableEnv);
    // Asynchronous hand-offs between workers: the invoker may invoke the target and knows its name.
    for (const worker of WORKERS) {
      for (const targetId of worker.invokes ?? []) {
        const target = WORKERS.find((w) => w.id === targetId)?.asyncInvoke;
        const [fn, targetFn] = [this.functions[worker.id], this.functions[targetId]];
        if (!target || !fn || !targetFn) throw new Error(`${worker.id} invokes ${targetId}, which is not invocable`);
        // The unqualified function only (grantInvoke would add every version and alias).
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [targetFn.functionArn] }),
        );
        fn.addEnvironment(target.envVar, targetFn.functionName);
      }
    }

    if (props.problemDocsUrl) {
      if (!/^https:\/\/[^\s#]+$/.test(props.problemDocsUrl))
        throw new Error(`problemDocsUrl must be an https URL without a fragment (got ${props.problemDocsUrl})`);
      for (const fn of [...Object.values(this.functions), this.unmatchedRouteFunction])
        fn.addEnvironment('PROBLEM_DOCS_URL', props.problemDocsUrl);
    }

    this.alarm(
      'Api5xxAlarm',
      'The API returned server errors',
      this.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      5,
    );

    new CfnOutput(this, 'AiProvider', {
      value: props.bedrockModelId ? `bedrock:${props.bedrockModelId}` : 'local',
      description: 'Who answers /ai/* and analyses messages',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: `${this.front.url}/`,
      description: 'Base URL (CloudFront); call it with /api/v1/...',
    });
    new CfnOutput(this, 'RealtimeUrl', {
      value: this.realtime.url,
      description: 'The realtime WebSocket API (connect with a ticket from POST /api/v1/realtime/tickets)',
    });
    new CfnOutput(this, 'OpenApiUrl', {
      value: `${this.front.url}/api/v1/openapi.json`,
      description: 'The OpenAPI 3.1 document of this API (no auth)',
    });
  }

  /** A worker: its function and grants, its trigger (stream, queue or schedule) and its alarms. */
  private addWorker(worker: WorkerDef, props: StatelessStackProps, tableEnv: Record<string, string>): AppFunction {
    const { stateful } = props;
    const { source } = worker;
    const name = pascal(worker.id);
    const reserved = props.workerConcurrency?.[worker.id];
    if (reserved !== undefined && (!Number.isInteger(reserved) || reserved < (source.kind === 'queue' ? 2 : 1))) {
      throw new Error(
        `Reserved concurrency of ${worker.id} must be an integer of at least ${source.kind === 'queue' ? 2 : 1} (got ${reserved})`,
      );
    }
    const queueEnv = Object.fromEntries(
      [...worker.sendsTo, ...(worker.drains ?? []), ...(source.kind === 'queue' ? [source.queue] : [])].map((q) => [
        QUEUES[q].envVar,
        stateful.queues[q].queueUrl,
      ]),
    );
    const scope = this.workerStack;
    const fn = new AppFunction(scope, `${name}Fn`, {
      handler: worker.handler,
      ai: worker.ai,
      description: worker.description,
      memorySize: functionMemoryMb(worker.id),
      // Consumed queues keep messages invisible for six times this (catalog/resources.ts).
      timeout: Duration.seconds(WORKER_TIMEOUT_SECONDS),
      reservedConcurrentExecutions: reserved,
      environment: {
        ...tableEnv,
        ...queueEnv,
        ...(worker.dataKey ? { DATA_KEY_SECRET_ARN: stateful.dataKeySecret.secretArn } : {}),
        ...(worker.whatsappApp ? this.whatsappEnv(stateful, props) : {}),
        // The delivery schedule and timeout are configuration, not code.
        ...(worker.id === 'webhook-delivery' ? { WEBHOOK_TIMEOUT_MS: '10000' } : {}),
      },
    });
    if (worker.mainTable !== 'none') fn.grantTable(stateful.tables.main, TABLES.main, worker.mainTable);
    // Pushes to realtime connections: reads them, forgets gone ones, posts through the management endpoint.
    if (worker.realtime) {
      fn.grantTable(stateful.tables.realtime, TABLES.realtime, 'write');
      this.realtime.grantPush(fn);
    }
    // A scheduled run's lease (functions/platform/leases.ts) is an item of the ephemeral table.
    if (source.kind === 'schedule') fn.grantTable(stateful.tables.ephemeral, TABLES.ephemeral, 'write');
    for (const q of worker.sendsTo) stateful.queues[q].grantSendMessages(fn);
    for (const q of worker.drains ?? []) stateful.queues[q].grantConsumeMessages(fn);
    if (worker.dataKey) stateful.dataKeySecret.grantRead(fn);
    if (worker.whatsappApp && props.whatsapp?.appId) stateful.whatsappAppSecret.grantRead(fn);
    if (worker.ai) this.useAi(fn, props.bedrockModelId);
    if (worker.media) this.useMedia(fn, stateful, worker.media);
    if (worker.asyncInvoke) {
      // One attempt; a failed one goes to the queue, which retries it (catalog/workers.ts).
      fn.configureAsyncInvoke({
        retryAttempts: 0,
        maxEventAge: ASYNC_MAX_EVENT_AGE,
        onFailure: new SqsDestination(stateful.queues[worker.asyncInvoke.onFailure]),
      });
    }

    if (source.kind === 'stream') {
      fn.addEventSource(
        new DynamoEventSource(stateful.tables[source.table], {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: source.batchSize,
          retryAttempts: source.maxRetries,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          filters: source.filters.map((pattern) => FilterCriteria.filter(pattern)),
          // A batch that runs out of retries or age is recorded (shard and sequence range), never dropped.
          onFailure: new SqsDlq(stateful.queues.streamFailures),
          maxRecordAge: STREAM_MAX_RECORD_AGE,
        }),
      );
      this.alarm(
        `${name}IteratorAgeAlarm`,
        `${worker.id} is more than 5 minutes behind its stream`,
        fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
        ITERATOR_AGE_ALARM_MS,
        scope,
      );
    } else if (source.kind === 'queue') {
      fn.addEventSource(
        new SqsEventSource(stateful.queues[source.queue], {
          batchSize: source.batchSize,
          reportBatchItemFailures: true,
          maxConcurrency: Math.min(queueMaxConcurrency(source.concurrency), reserved ?? Infinity),
        }),
      );
    } else {
      new Rule(scope, `${name}Schedule`, {
        description: worker.description,
        // EventBridge schedules have a one-minute resolution.
        schedule: Schedule.rate(Duration.minutes(Math.max(1, Math.ceil(source.everySeconds / 60)))),
        targets: [new LambdaFunction(fn)],
      });
    }
    const errors = fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' });
    this.alarm(
      `${name}ErrorsAlarm`,
      worker.asyncInvoke
        ? `${worker.id} failed (errors or timeouts), or could not put a failed invocation on its retry queue`
        : `${worker.id} failed (errors or timeouts)`,
      // An asynchronous invocation whose destination failed is lost: the same alarm says so.
      worker.asyncInvoke
        ? new MathExpression({
            // A metric with no data point in a period counts as 0, not as a gap that hides the other.
            expression: 'FILL(errors, 0) + FILL(lost, 0)',
            usingMetrics: {
              errors,
              lost: fn.metric('DestinationDeliveryFailures', { period: Duration.minutes(5), statistic: 'Sum' }),
            },
            period: Duration.minutes(5),
          })
        : errors,
      1,
      scope,
    );
    this.alarm(
      `${name}ThrottlesAlarm`,
      `${worker.id} was throttled`,
      fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      1,
      scope,
    );
    // npm run ops maps Lambda's on-failure records (which name the function) back to the worker.
    new CfnOutput(this, `${name}FunctionName`, {
      value: fn.functionName,
      description: `Function of worker ${worker.id}`,
    });
    return fn;
  }

  /** lib/app.ts makes the alarm topic the action of every alarm. */
  private alarm(id: string, description: string, metric: IMetric, threshold: number, scope: Construct = this) {
    new Alarm(scope, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /** AI functions: the provider setting, and with Bedrock only InvokeModel on the one configured model. */
  /** The platform Meta app's settings, for the functions that use it (functions/channels/whatsapp.ts). */
  private whatsappEnv(stateful: StatefulStack, props: StatelessStackProps): Record<string, string> {
    const w = props.whatsapp ?? {};
    return {
      ...(w.appId
        ? { WHATSAPP_APP_ID: w.appId, WHATSAPP_APP_SECRET_SECRET_ARN: stateful.whatsappAppSecret.secretArn }
        : {}),
      ...(w.verifyToken ? { WHATSAPP_VERIFY_TOKEN: w.verifyToken } : {}),
      ...(w.graphVersion ? { WHATSAPP_GRAPH_VERSION: w.graphVersion } : {}),
      ...(w.signupConfigId ? { WHATSAPP_SIGNUP_CONFIG_ID: w.signupConfigId } : {}),
    };
  }

  /**
   * The media bucket, for a function that presigns or reads (`read`: GetObject, which HeadObject needs
   * too) or also writes (`write`: PutObject): object actions only, under the tenants' prefix; no listing.
   */
  private useMedia(fn: AppFunction, stateful: StatefulStack, access: 'read' | 'write') {
    const bucket = stateful.buckets.media;
    fn.addEnvironment(BUCKETS.media.envVar, bucket.bucketName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: access === 'write' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject'],
        resources: [bucket.arnForObjects('tenants/*')],
      }),
    );
    // The one wildcard: object keys under the tenants' prefix (the bucket's ARN is a cross-stack output,
    // so the finding cannot be named by its resolved resource here).
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-IAM5',
      reason:
        'Media objects are keyed tenants/<tenant>/media/<id> (functions/media/store.ts): object actions on that prefix only, no listing or bucket actions.',
    });
  }

  private useAi(fn: AppFunction, modelId: string | undefined) {
    fn.addEnvironment('AI_PROVIDER', modelId ? 'bedrock' : 'local');
    if (!modelId) return;
    fn.addEnvironment('BEDROCK_MODEL_ID', modelId);
    const baseModel = inferenceProfileModel(modelId);
    const stack = Stack.of(fn);
    const resources = baseModel
      ? [
          stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId }),
          `arn:${stack.partition}:bedrock:*::foundation-model/${baseModel}`,
        ]
      : [stack.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: modelId })];
    fn.addToRolePolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
  }
}

/**
 * A Lambda proxy integration that adds no permission of its own: HttpLambdaIntegration adds one per
 * route and prefix, which alone cost two resources per route. allowApiToInvoke adds one per function.
 */
class FunctionIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly fn: IFunction,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    };
  }
}

/** Lets the API invoke the function from the routes matching `stage/METHOD/path` (execute-api ARN syntax). */
function allowApiToInvoke(fn: AppFunction, api: HttpApi, routePattern: string) {
  fn.addPermission('ApiInvoke', {
    principal: new ServicePrincipal('apigateway.amazonaws.com'),
    sourceArn: Stack.of(fn).formatArn({ service: 'execute-api', resource: api.apiId, resourceName: routePattern }),
  });
}

/** Cross-region inference profiles ("eu.anthropic…") route to their base model in several regions. */
export const inferenceProfileModel = (modelId: string): string | undefined =>
  /^(?:us|eu|apac|us-gov|global)\.(.+)$/.exec(modelId)?.[1];

const pascal = (id: string) => id.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
