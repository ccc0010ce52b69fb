import { App, Aspects, Fn, Validations, type IAspect } from 'aws-cdk-lib';
import { AlarmBase } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { DEFAULT_EDGE_TENANT_LIMIT, WAF_RATE_LIMIT_RANGE } from '../catalog/edge';
import type { RouteDef } from '../catalog/routes';
import { WORKERS } from '../catalog/workers';
import { API_GATEWAY_ROLE_CONTEXT, ApiGatewayAccountRole, apiGatewayRoleMode } from './account-prerequisites';
import { ApiWebAclStack, WEB_ACL_ARN_OUTPUT, WEB_ACL_REGION } from './api-edge';
import { DashboardStack, type DashboardCustomDomain } from './dashboard-hosting';
import { StatefulStack } from './stateful-stack';
import { DEFAULT_API_THROTTLE, StatelessStack, inferenceProfileModel } from './stateless-stack';

export interface CdkAppOptions {
  /** Another route table (the infra test synthesizes a doubled one). */
  routes?: readonly RouteDef[];
  /** Another dashboard build folder (default dashboard/dist; a placeholder page when it is missing). */
  dashboardDist?: string;
}

/**
 * Builds the whole CDK app: used by bin/app.ts (cdk synth/deploy) and by the infra tests. Context
 * values (`cdk deploy -c key=value`): bedrockModelId, alarmEmail, apiRateLimit, apiBurstLimit,
 * workerConcurrency.<worker id>, apiGatewayCloudWatchRole, dashboardDomainName with dashboardCertificateArn,
 * edgeTenantLimit, originSecretVersion and problemDocsUrl.
 */
export function buildCdkApp(
  app = new App(),
  options: CdkAppOptions = {},
): { app: App; stateful: StatefulStack; edge: ApiWebAclStack; stateless: StatelessStack; dashboard: DashboardStack } {
  // Weak references (Fn::GetStackOutput, no exports): replacing a table or dropping a value the API
  // stack used never blocks an update of the stateful stack. "both" is the one-off step that moves a
  // deployment made with strong references over (docs/deploying.md).
  const references = app.node.tryGetContext(CROSS_STACK_REFERENCES) === 'both' ? 'both' : 'weak';
  app.node.setContext(CROSS_STACK_REFERENCES, references);
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const alarmEmail = (app.node.tryGetContext('alarmEmail') as string | undefined) || undefined;
  const stateful = new StatefulStack(app, 'MessagingStateful', { env, alarmEmail });
  if (apiGatewayRoleMode(app.node.tryGetContext(API_GATEWAY_ROLE_CONTEXT)) === 'create')
    new ApiGatewayAccountRole(stateful, 'ApiGatewayAccount');
  const bedrockModelId = (app.node.tryGetContext('bedrockModelId') as string | undefined) || undefined;
  // The web ACL lives in us-east-1 (CloudFront's rule); the API stack, in any region, reads its ARN.
  const edge = new ApiWebAclStack(app, 'MessagingEdge', {
    env: { account: env.account, region: WEB_ACL_REGION },
    tenantLimit: edgeTenantLimit(app),
  });
  const stateless = new StatelessStack(app, 'MessagingApi', {
    env,
    stateful,
    bedrockModelId,
    routes: options.routes,
    throttle: {
      rateLimit: positiveInteger(app, 'apiRateLimit') ?? DEFAULT_API_THROTTLE.rateLimit,
      burstLimit: positiveInteger(app, 'apiBurstLimit') ?? DEFAULT_API_THROTTLE.burstLimit,
    },
    workerConcurrency: workerConcurrency(app),
    whatsapp: {
      appId: (app.node.tryGetContext('whatsappAppId') as string | undefined) || undefined,
      verifyToken: (app.node.tryGetContext('whatsappVerifyToken') as string | undefined) || undefined,
      graphVersion: (app.node.tryGetContext('whatsappGraphVersion') as string | undefined) || undefined,
      signupConfigId: (app.node.tryGetContext('whatsappSignupConfigId') as string | undefined) || undefined,
    },
    webAclArn: Fn.getStackOutput(edge.stackName, WEB_ACL_ARN_OUTPUT, WEB_ACL_REGION),
    originSecretVersion: (app.node.tryGetContext('originSecretVersion') as string | undefined) || undefined,
    problemDocsUrl: (app.node.tryGetContext('problemDocsUrl') as string | undefined) || undefined,
  });
  stateless.addStackDependency(edge, 'reads the web ACL ARN');
  // The dashboard reads the API's URL (weakly, like the API reads the stateful stack); the API needs
  // nothing from it (its CORS allows any origin), so there is no cycle.
  const dashboard = new DashboardStack(app, 'MessagingDashboard', {
    env,
    apiUrl: stateless.front.url,
    realtimeUrl: stateless.realtime.url,
    mediaOrigin: `https://${stateful.buckets.media.bucketRegionalDomainName}`,
    customDomain: dashboardDomain(app),
    distDir: options.dashboardDist,
  });
  Aspects.of(app).add(new NotifyOnAlarm(stateful.alarmTopic));
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  acknowledgeNagFindings(stateful, stateless, bedrockModelId);
  return { app, stateful, edge, stateless, dashboard };
}

const CROSS_STACK_REFERENCES = '@aws-cdk/core:defaultCrossStackReferences';

/** A context value that must be a positive integer (the CLI passes strings). */
function positiveInteger(app: App, key: string): number | undefined {
  const raw = app.node.tryGetContext(key) as string | number | undefined;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`Context ${key} must be a positive integer (got ${JSON.stringify(raw)})`);
  return value;
}

/** `-c edgeTenantLimit=…`: requests per tenant credential per five minutes, within what WAF accepts. */
function edgeTenantLimit(app: App): number {
  const limit = positiveInteger(app, 'edgeTenantLimit') ?? DEFAULT_EDGE_TENANT_LIMIT;
  if (limit < WAF_RATE_LIMIT_RANGE.min || limit > WAF_RATE_LIMIT_RANGE.max)
    throw new Error(
      `Context edgeTenantLimit must be from ${WAF_RATE_LIMIT_RANGE.min} to ${WAF_RATE_LIMIT_RANGE.max} (got ${limit})`,
    );
  return limit;
}

/** `-c dashboardDomainName=… -c dashboardCertificateArn=…` (an ACM certificate in us-east-1): both or neither. */
function dashboardDomain(app: App): DashboardCustomDomain | undefined {
  const domainName = (app.node.tryGetContext('dashboardDomainName') as string | undefined) || undefined;
  const certificateArn = (app.node.tryGetContext('dashboardCertificateArn') as string | undefined) || undefined;
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error(
      'Context dashboardDomainName and dashboardCertificateArn go together (the certificate in us-east-1)',
    );
  if (!/^arn:aws[\w-]*:acm:us-east-1:/.test(certificateArn))
    throw new Error(`dashboardCertificateArn must be an ACM certificate in us-east-1 (got ${certificateArn})`);
  return { domainName, certificateArn };
}

/** `workerConcurrency.<worker id>` values; a misspelt worker id fails rather than being ignored. */
function workerConcurrency(app: App): Record<string, number> {
  const prefix = 'workerConcurrency.';
  const keys = Object.keys(app.node.getAllContext() as Record<string, unknown>).filter((key) => key.startsWith(prefix));
  const unknown = keys.filter((key) => !WORKERS.some((w) => `${prefix}${w.id}` === key));
  if (unknown.length)
    throw new Error(`No such worker: ${unknown.join(', ')} (workers: ${WORKERS.map((w) => w.id).join(', ')})`);
  return Object.fromEntries(
    keys.flatMap((key) => {
      const value = positiveInteger(app, key);
      return value === undefined ? [] : [[key.slice(prefix.length), value]];
    }),
  );
}

/** Every alarm of every stack notifies the one alarm topic, including alarms added later. */
class NotifyOnAlarm implements IAspect {
  private readonly action: SnsAction;
  constructor(topic: ITopic) {
    this.action = new SnsAction(topic);
  }
  visit(node: IConstruct): void {
    if (node instanceof AlarmBase) node.addAlarmAction(this.action);
  }
}

/** Each acknowledged cdk-nag finding, with the reason it is acceptable here. */
function acknowledgeNagFindings(
  stateful: StatefulStack,
  stateless: StatelessStack,
  bedrockModelId: string | undefined,
) {
  Validations.of(stateful).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The JWT key and platform token are rotated by operators: rotating either ends every session or the operator token at once (docs/deploying.md).',
  });
  const acknowledgements = [
    [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'Only lets a function write its own logs.',
    ],
    [
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
    ],
    [
      'AwsSolutions-L1',
      'The nodejs22.x runtime is pinned on purpose: a runtime upgrade is a deliberate, tested change.',
    ],
  ];
  const profile = bedrockModelId ? inferenceProfileModel(bedrockModelId) : undefined;
  if (profile) {
    acknowledgements.push([
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile}]`,
      'A cross-region inference profile routes to its one base model in whichever of its regions has capacity; the grant names that model only.',
    ]);
  }
  for (const [id, reason] of acknowledgements)
    Validations.of(stateless).acknowledge({ id: id ?? '', reason: reason ?? '' });
}
