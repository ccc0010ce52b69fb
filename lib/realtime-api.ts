import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnRoute, CfnStage, LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { REALTIME_ROUTES, REALTIME_STAGE } from '../catalog/realtime';
import { TABLES } from '../catalog/resources';
import { AppFunction } from './api-function';

export interface RealtimeApiProps {
  /** The Realtime table (tickets and connections). */
  table: ITableV2;
  /** Steady messages per second and burst across the stage (connects and client messages). */
  throttle: { rateLimit: number; burstLimit: number };
}

/**
 * The realtime WebSocket API (docs/realtime.md): `$connect` redeems a ticket, `$disconnect` forgets the
 * connection, `$default` answers client messages; one function per route of catalog/realtime.ts. Events
 * are pushed by the outbox dispatcher through the management endpoint (`grantPush`), not from here. It
 * lives in the workers' nested stack, beside the functions that push, so their grants name the API
 * within one template.
 */
export class RealtimeApi extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly functions: Record<string, AppFunction> = {};

  constructor(scope: Construct, id: string, props: RealtimeApiProps) {
    super(scope, id);
    const environment = { [TABLES.realtime.envVar]: props.table.tableName };
    const fns = Object.fromEntries(
      REALTIME_ROUTES.map((route) => {
        const fn = new AppFunction(this, `${route.routeKey.slice(1).replace(/^\w/, (c) => c.toUpperCase())}Fn`, {
          handler: route.handler,
          description: `WebSocket ${route.routeKey}: ${route.description}`,
          environment,
        });
        // Each reads and writes only the Realtime table: tickets and connections.
        fn.grantTable(props.table, TABLES.realtime, 'write');
        this.functions[route.routeKey] = fn;
        return [route.routeKey, fn];
      }),
    ) as Record<(typeof REALTIME_ROUTES)[number]['routeKey'], AppFunction>;
    const integration = (routeKey: keyof typeof fns) =>
      new WebSocketLambdaIntegration(`${routeKey.slice(1)}Integration`, fns[routeKey]);

    this.api = new WebSocketApi(this, 'Api', {
      description: 'Realtime events: one socket per ticket, the same envelopes as webhooks',
      connectRouteOptions: { integration: integration('$connect') },
      disconnectRouteOptions: { integration: integration('$disconnect') },
      defaultRouteOptions: { integration: integration('$default') },
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: REALTIME_STAGE,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            connectionId: '$context.connectionId',
            routeKey: '$context.routeKey',
            eventType: '$context.eventType',
            status: '$context.status',
            requestTime: '$context.requestTime',
            integrationLatency: '$context.integrationLatency',
          }),
        ),
      },
    });
    throttleRoutes(this.api, this.stage, props.throttle);
    // The `$default` function answers pings and subscriptions on the socket.
    this.grantPush(fns.$default);

    for (const route of this.api.node.findAll().filter((c) => c.node.id.endsWith('-Route'))) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'WebSocket authorisation is the $connect function: it redeems a single-use, tenant-bound ticket issued by an authenticated REST call (no token in the URL). API Gateway allows authorizers on $connect only, and the other routes belong to a connection $connect accepted.',
      });
    }
  }

  /** The URL clients connect to (`wss://…/v1`): the ticket route hands it out with a ticket. */
  get url(): string {
    return this.stage.url;
  }

  /** The management endpoint (`https://…/v1`) that PostToConnection calls. */
  get managementUrl(): string {
    return this.stage.callbackUrl;
  }

  /**
   * Lets a function post to and close connections of this API's stage, nothing else (connection ids are
   * made by API Gateway at connect time: the one wildcard, acknowledged on that function only).
   */
  grantPush(fn: AppFunction): void {
    const stack = Stack.of(this);
    const arns = ['POST', 'DELETE'].map((method) =>
      stack.formatArn({
        service: 'execute-api',
        resource: this.api.apiId,
        resourceName: `${this.stage.stageName}/${method}/@connections/*`,
      }),
    );
    fn.addToRolePolicy(new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: arns }));
    fn.addEnvironment('REALTIME_MANAGEMENT_URL', this.managementUrl);
    for (const arn of arns)
      Validations.of(fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${flattened(stack.resolve(arn))}]`,
        reason:
          'API Gateway names each WebSocket connection when it opens: the grant is limited to posting to and closing connections of this API stage.',
      });
  }
}

/**
 * Each route of catalog/realtime.ts with a throttle gets it (never above the stage's) in the stage's route
 * settings. AWS WAF cannot be associated with a WebSocket API (only REST APIs, CloudFront and a few
 * others), so stage and route throttles are the edge here, with the per-tenant and per-user connection
 * caps that `$connect` enforces (docs/realtime.md#abuse-and-the-edge).
 */
function throttleRoutes(api: WebSocketApi, stage: WebSocketStage, stageThrottle: RealtimeApiProps['throttle']) {
  const cfnStage = stage.node.defaultChild as CfnStage;
  const cfnRoutes = api.node.findAll().filter((c): c is CfnRoute => c instanceof CfnRoute);
  const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const route of REALTIME_ROUTES) {
    if (!route.throttle) continue;
    settings[route.routeKey] = {
      ThrottlingRateLimit: Math.min(route.throttle.rateLimit, stageThrottle.rateLimit),
      ThrottlingBurstLimit: Math.min(route.throttle.burstLimit, stageThrottle.burstLimit),
    };
    // A stage naming a route that does not exist yet fails to deploy.
    const cfnRoute = cfnRoutes.find((r) => r.routeKey === route.routeKey);
    if (!cfnRoute) throw new Error(`No route ${route.routeKey} to throttle`);
    cfnStage.addDependency(cfnRoute);
  }
  cfnStage.routeSettings = settings;
}

/** A resolved CloudFormation value as cdk-nag names it in a finding (`<Ref>`, `<Resource.Attribute>`). */
export function flattened(node: unknown): string {
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const value = node as Record<string, unknown>;
  if (Array.isArray(value['Fn::Join'])) {
    const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
    return items.map(flattened).join(delimiter);
  }
  if (value.Ref !== undefined) return `<${flattened(value.Ref)}>`;
  if (Array.isArray(value['Fn::GetAtt'])) {
    const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattened(resource)}.${flattened(attribute)}>`;
  }
  return JSON.stringify(node);
}
