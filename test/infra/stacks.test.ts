import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildCdkApp } from '../../lib/app';
import { API_PREFIXES, ROUTES } from '../../lib/routes';
import { WORKERS } from '../../lib/workers';

// One real synth (with esbuild bundling, offline) shared by every assertion, with Bedrock configured
// through an EU cross-region inference profile (`cdk deploy -c bedrockModelId=…`).
const BEDROCK_MODEL = 'eu.anthropic.claude-3-5-haiku-20241022-v1:0';
const { app, stateful, stateless } = buildCdkApp(new App({ context: { bedrockModelId: BEDROCK_MODEL } }));
app.synth();
const api = Template.fromStack(stateless);
const data = Template.fromStack(stateful);

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
const resources = (t: Template, type: string): Resources => t.findResources(type) as Resources;
const refOf = (value: any): string => value?.Ref ?? value?.['Fn::GetAtt']?.[0] ?? JSON.stringify(value);

describe('stateless stack', () => {
  it('has one function per route and per worker, each with the fixed defaults', () => {
    const fns = resources(api, 'AWS::Lambda::Function');
    expect(Object.keys(fns)).toHaveLength(ROUTES.length + WORKERS.length);
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' }, Handler: 'index.handler' });
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
    }
    const logGroups = Object.values(resources(api, 'AWS::Logs::LogGroup'));
    expect(logGroups.every((lg) => typeof lg.Properties.RetentionInDays === 'number')).toBe(true);
  });

  it('wires every route, under both prefixes, to its own function', () => {
    const fns = resources(api, 'AWS::Lambda::Function');
    const integrations = resources(api, 'AWS::ApiGatewayV2::Integration');
    const routes = Object.values(resources(api, 'AWS::ApiGatewayV2::Route'));
    expect(routes).toHaveLength(ROUTES.length * API_PREFIXES.length);
    const functionFor = (routeKey: string) => {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey);
      if (!route) throw new Error(`no route ${routeKey}`);
      const integrationId = String(route.Properties.Target['Fn::Join'][1][1].Ref);
      const integration = integrations[integrationId];
      return refOf(integration?.Properties.IntegrationUri);
    };
    const used = new Set<string>();
    for (const route of ROUTES) {
      const targets = API_PREFIXES.map((prefix) => functionFor(`${route.method} ${prefix}${route.path}`));
      expect(new Set(targets).size).toBe(1);
      const fnId = targets[0] ?? '';
      expect(fns[fnId]?.Properties.Description).toBe(`${route.method} ${route.path}`);
      used.add(fnId);
    }
    expect(used.size).toBe(ROUTES.length);
  });

  it('grants read-only routes read actions only, and platform secrets only to platform routes', () => {
    const policies = Object.values(resources(api, 'AWS::IAM::Policy'));
    const statementsFor = (routeId: string) => {
      const pascal = routeId.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
      const policy = policies.find((p) => JSON.stringify(p.Properties.Roles).includes(`${pascal}FnServiceRole`));
      return JSON.stringify(policy?.Properties.PolicyDocument.Statement ?? []);
    };
    const list = statementsFor('users-list');
    expect(list).toContain('dynamodb:Query');
    expect(list.match(/dynamodb:PutItem/g)).toHaveLength(1); // the ephemeral table only
    // API-key auth records last_used_at: an UpdateItem allowed on API-key items only.
    expect(list).toContain('"dynamodb:LeadingKeys":["APIKEY#*"]');
    expect(list).not.toContain('PlatformToken');
    expect(list).not.toContain('index/*');
    expect(statementsFor('tenants-create')).toContain('PlatformToken');
  });

  it('lets only the AI functions invoke the one configured Bedrock model, and tells them to use it', () => {
    const policies = Object.values(resources(api, 'AWS::IAM::Policy'));
    const functions = Object.values(resources(api, 'AWS::Lambda::Function'));
    const aiIds = [...ROUTES.filter((r) => r.ai).map((r) => r.id), ...WORKERS.filter((w) => w.ai).map((w) => w.id)];
    expect(aiIds.sort()).toEqual(['ai-analyze', 'ai-categorize', 'ai-suggest', 'message-analysis']);
    const invokers = policies.filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes('bedrock:'));
    expect(invokers).toHaveLength(aiIds.length);
    for (const policy of invokers) {
      const statement = policy.Properties.PolicyDocument.Statement.find((st: any) => JSON.stringify(st.Action).includes('bedrock:'));
      expect(statement.Action).toBe('bedrock:InvokeModel');
      const arns = JSON.stringify(statement.Resource);
      expect(arns).toContain(`inference-profile/${BEDROCK_MODEL}`);
      expect(arns).toContain('foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    }
    const withBedrock = functions.filter((f) => f.Properties.Environment?.Variables?.AI_PROVIDER === 'bedrock');
    expect(withBedrock).toHaveLength(aiIds.length);
    for (const f of withBedrock) expect(f.Properties.Environment.Variables.BEDROCK_MODEL_ID).toBe(BEDROCK_MODEL);
  });

  it('wires the workers: the filtered outbox stream and the channel queue, both with partial batch failures', () => {
    const mappings = Object.values(resources(api, 'AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(WORKERS.length);
    const stream = mappings.find((m) => m.Properties.StartingPosition === 'TRIM_HORIZON' && JSON.stringify(m.Properties.FilterCriteria).includes('EVT#'));
    expect(stream?.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BisectBatchOnFunctionError: true });
    expect(JSON.stringify(stream?.Properties.FilterCriteria)).toContain('EVT#');
    const queue = mappings.find((m) => m.Properties.StartingPosition === undefined);
    expect(queue?.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('has a 5xx alarm, an access-logged stage and the API URL output', () => {
    api.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: '5xx', Namespace: 'AWS/ApiGateway' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }) });
    api.hasOutput('ApiUrl', {});
  });
});

describe('stateful stack', () => {
  it('has on-demand, encrypted, point-in-time-recoverable, retained tables with TTL', () => {
    const tables = resources(data, 'AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables)).toHaveLength(2);
    for (const [id, table] of Object.entries(tables)) {
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true });
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
      expect((data.toJSON().Resources as Record<string, { DeletionPolicy?: string }>)[id]?.DeletionPolicy).toBe('Retain');
    }
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it('has encrypted, TLS-only queues that redrive to their DLQs, with DLQ depth alarms', () => {
    const queues = resources(data, 'AWS::SQS::Queue');
    const withRedrive = Object.entries(queues).filter(([, q]) => q.Properties.RedrivePolicy);
    expect(withRedrive).toHaveLength(2);
    const delivery = withRedrive.find(([id]) => id.startsWith('WebhookDelivery'))?.[1];
    const redrive = delivery?.Properties.RedrivePolicy;
    expect(redrive.maxReceiveCount).toBe(5);
    const dlqId = refOf(redrive.deadLetterTargetArn);
    expect(dlqId).toMatch(/^WebhookDeliveryDlq/);
    expect(queues[dlqId]).toBeDefined();
    for (const q of Object.values(queues)) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    data.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    const alarms = Object.values(resources(data, 'AWS::CloudWatch::Alarm'));
    expect(alarms.some((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Properties.Dimensions).includes(dlqId))).toBe(true);
    // The consumer drains the DLQ into the failed view, so arrivals alarm too.
    expect(alarms.some((a) => a.Properties.MetricName === 'NumberOfMessagesSent' && JSON.stringify(a.Properties.Dimensions).includes(dlqId))).toBe(true);
    data.hasOutput('WebhookDeliveryQueueUrl', {});
    data.hasOutput('WebhookDeliveryDlqQueueUrl', {});
  });

  it('keeps the JWT key, the platform token and the data key in Secrets Manager', () => {
    expect(Object.keys(resources(data, 'AWS::SecretsManager::Secret'))).toHaveLength(3);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('has zero unacknowledged findings', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    expect(report.success).toBe(true);
  });
});
