import { NestedStack, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
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
 * are pushed by the outbox dispatcher through the management endpoint (`grantPush`), not from here. A
 * nested stack, so the API stack keeps its room for routes.
 */
export class RealtimeApi extends NestedStack {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly functions: Record<string, AppFunction> = {};

  constructor(scope: Construct, id: string, props: RealtimeApiProps) {
    super(scope, id, { description: 'Realtime WebSocket API: tickets redeemed at $connect, events pushed to connections' });
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

  /** Lets a function post to and close connections of this API's stage, nothing else. */
  grantPush(grantee: IGrantable & { addEnvironment(key: string, value: string): unknown }): void {
    this.stage.grantManagementApiAccess(grantee);
    grantee.addEnvironment('REALTIME_MANAGEMENT_URL', this.managementUrl);
  }
}

