import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEND_LEASE_MS } from '../../functions/channels/send-worker';
import { buildCdkApp } from '../../lib/app';
import { ACCESS_LOG_FORMAT, renderAccessLog } from '../../catalog/access-log';
import { QUEUES, TABLES, failureQueues } from '../../catalog/resources';
import { API_PREFIXES, ROUTES, gatewayMethodOf, type RouteDef } from '../../catalog/routes';
import { DEFAULT_API_THROTTLE, STREAM_MAX_RECORD_AGE, type StatelessStack } from '../../lib/stateless-stack';
import {
  MAX_STREAM_READERS,
  METRICS,
  OVERDUE_DELIVERY_METRIC,
  OVERDUE_OUTBOUND_METRIC,
  WORKERS,
} from '../../catalog/workers';
import { REALTIME_ROUTES } from '../../catalog/realtime';
import { BUNDLE_NAMES_BESIDE, BUNDLES_BESIDE, besideImport, type BundleBeside } from '../../catalog/bundling';
import { BEDROCK_MODEL, built } from './synth';

// The infra tests' one real synth (./synth.ts), shared by most assertions.
const { app, stateful, edge, stateless, dashboard } = built;
const data = Template.fromStack(stateful);
/** The API stack's own resources with its workers' nested stack's (workers are asserted as part of the API). */
const withWorkers = (stack: StatelessStack) => {
  const parent = Template.fromStack(stack).toJSON();
  const workers = Template.fromStack(stack.workerStack).toJSON();
  return Template.fromJSON({ ...parent, Resources: { ...parent.Resources, ...workers.Resources } });
};
const api = withWorkers(stateless);

type Resource = { Type: string; Properties: Record<string, any> };
type Resources = Record<string, Resource>;
const resources = (t: Template, type: string): Resources => t.findResources(type) as Resources;
const refOf = (value: any): string => value?.Ref ?? value?.['Fn::GetAtt']?.[0] ?? JSON.stringify(value);
const json = (t: Template) => JSON.stringify(t.toJSON());

/** The API stack and its nested stacks (one per feature, and its front), keyed by the nested stack's logical id in the parent. */
function templatesOf(stack: StatelessStack) {
  const nested = [...Object.values(stack.routeStacks), stack.front, stack.workerStack].map((s) => ({
    stack: s,
    id: stack.getLogicalId(s.nestedStackResource as CfnElement),
    template: Template.fromStack(s),
  }));
  const parent = Template.fromStack(stack);
  return { parent, nested, all: [parent, ...nested.map((n) => n.template)] };
}
const apiStacks = templatesOf(stateless);
/** Every resource of a type across the API stack and its nested stacks. */
const everywhere = (type: string) =>
  apiStacks.all.flatMap((t) => Object.entries(resources(t, type)).map(([id, r]) => ({ template: t, id, ...r })));
const logicalIdOf = (construct: IConstruct) =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** What a `Fn::GetStackOutput` of the stateful stack stands for there (weak references). */
function fromStateful(value: any): any {
  const ref = value?.['Fn::GetStackOutput'];
  if (!ref) return value;
  expect(ref.StackName).toBe(stateful.stackName);
  return (data.toJSON().Outputs as Record<string, { Value: unknown }>)[ref.OutputName]?.Value;
}

/** Every `Fn::GetStackOutput` in a template. */
function stackOutputReads(node: any): { StackName: string; OutputName: string }[] {
  if (node === null || typeof node !== 'object') return [];
  if (node['Fn::GetStackOutput']) return [node['Fn::GetStackOutput']];
  return Object.values(node).flatMap(stackOutputReads);
}

/** A nested stack output read by the parent (`Fn::GetAtt [nested, Outputs.X]`): the nested template and its value. */
function fromNested(value: any): { nestedId: string; template: Template; value: any } {
  const [nestedId, attribute] = value['Fn::GetAtt'];
  const nested = apiStacks.nested.find((n) => n.id === nestedId);
  if (!nested) throw new Error(`no nested stack ${nestedId}`);
  return {
    nestedId,
    template: nested.template,
    value: (nested.template.toJSON().Outputs as Record<string, { Value: unknown }>)[
      String(attribute).replace(/^Outputs\./, '')
    ]?.Value,
  };
}

/** A `Fn::Join` (or string) as text, with references shown as ${…}. */
const joined = (value: any): string =>
  typeof value === 'string'
    ? value
    : (value['Fn::Join']?.[1] ?? [])
        .map((part: any) => (typeof part === 'string' ? part : `\${${refOf(part)}}`))
        .join('');

const routeFunctionTemplate = (routeId: string): Template => {
  const found = apiStacks.nested.find((n) => n.stack === Stack.of(stateless.functions[routeId] as IConstruct));
  if (!found) throw new Error(`${routeId} is not in a nested stack`);
  return found.template;
};
const statementsOf = (template: Template, fnId: string) => {
  const role = refOf(template.toJSON().Resources[fnId].Properties.Role);
  const policy = Object.values(resources(template, 'AWS::IAM::Policy')).find((p) =>
    p.Properties.Roles.some((r: any) => r.Ref === role),
  );
  return (policy?.Properties.PolicyDocument.Statement ?? []) as any[];
};

describe('stateless stack', () => {
  it('has one function per route and per worker, the $default one and the origin authorizer, each with the fixed defaults', () => {
    const fns = everywhere('AWS::Lambda::Function');
    expect(fns).toHaveLength(ROUTES.length + WORKERS.length + 2 + REALTIME_ROUTES.length);
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
      });
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
      // No START/END/REPORT lines: the bench prices logs without them (bench/requests.ts).
      expect(fn.Properties.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        SystemLogLevel: 'WARN',
        ApplicationLogLevel: 'INFO',
      });
    }
    const logGroups = everywhere('AWS::Logs::LogGroup');
    expect(logGroups.every((lg) => typeof lg.Properties.RetentionInDays === 'number')).toBe(true);
  });

  it("wires every route, under both prefixes, to its own function (in its feature's nested stack)", () => {
    const integrations = resources(api, 'AWS::ApiGatewayV2::Integration');
    // The HTTP API's routes (the realtime WebSocket API's are asserted in realtime.cases.ts).
    const routes = Object.values(resources(api, 'AWS::ApiGatewayV2::Route')).filter(
      (r) => r.Properties.ApiId.Ref === logicalIdOf(stateless.api),
    );
    expect(routes).toHaveLength(ROUTES.length * API_PREFIXES.length + 1);
    // HTTP APIs take at most 300 routes.
    expect(routes.length).toBeLessThanOrEqual(300);
    const functionFor = (routeKey: string) => {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey);
      if (!route) throw new Error(`no route ${routeKey}`);
      const integration = integrations[String(route.Properties.Target['Fn::Join'][1][1].Ref)];
      const { nestedId, template, value } = fromNested(integration?.Properties.IntegrationUri);
      const fnId = refOf(value);
      return { key: `${nestedId}/${fnId}`, description: template.toJSON().Resources[fnId]?.Properties.Description };
    };
    const used = new Set<string>();
    for (const route of ROUTES) {
      // A GET that answers HEAD takes ANY: HTTP API routes are per method, and the quota is 300 routes.
      const method = gatewayMethodOf(route);
      const targets = API_PREFIXES.map((prefix) => functionFor(`${method} ${prefix}${route.path}`));
      expect(new Set(targets.map((t) => t.key)).size).toBe(1);
      expect(targets[0]?.description).toBe(`${route.method} ${route.path}`);
      used.add(targets[0]?.key ?? '');
      expect(Object.keys(stateless.routeStacks)).toContain(route.handler.split('/')[0]);
    }
    expect(used.size).toBe(ROUTES.length);
    // The OpenAPI document answers HEAD in AWS too: its function takes every method there.
    for (const prefix of API_PREFIXES) expect(() => functionFor(`ANY ${prefix}/openapi.json`)).not.toThrow();
  });

  it('gives each route function one invoke permission, for its own method (any, where it answers HEAD) and path under any prefix', () => {
    const fromApi = everywhere('AWS::Lambda::Permission').filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    // And the $default route's and the origin authorizer's, and the realtime WebSocket API's routes'.
    expect(fromApi).toHaveLength(ROUTES.length + 2 + REALTIME_ROUTES.length);
    for (const route of ROUTES) {
      const template = routeFunctionTemplate(route.id);
      const fnId = logicalIdOf(stateless.functions[route.id] as IConstruct);
      const own = Object.values(resources(template, 'AWS::Lambda::Permission')).filter(
        (p) => refOf(p.Properties.FunctionName) === fnId,
      );
      expect(own).toHaveLength(1);
      expect(joined(own[0]?.Properties.SourceArn)).toMatch(
        new RegExp(
          `:execute-api:.*/\\*/${route.head ? '\\*' : route.method}/\\*${route.path.replace(/\{[^}]+\}/g, '\\*')}$`,
        ),
      );
    }
  });

  it('grants read-only routes read actions only, and platform secrets only to platform routes', () => {
    const statementsFor = (routeId: string) =>
      JSON.stringify(
        statementsOf(routeFunctionTemplate(routeId), logicalIdOf(stateless.functions[routeId] as IConstruct)),
      );
    const list = statementsFor('users-list');
    expect(list).toContain('dynamodb:Query');
    expect(list.match(/dynamodb:PutItem/g)).toHaveLength(1); // the ephemeral table only
    // API-key auth records last_used_at: an UpdateItem allowed on API-key items only.
    expect(list).toContain('"dynamodb:LeadingKeys":["APIKEY#*"]');
    expect(list).not.toContain('PlatformToken');
    expect(list).not.toContain('index/*');
    expect(statementsFor('tenants-create')).toContain('PlatformToken');
    // The OpenAPI document reads no table and no secret: its function gets no grant at all.
    const openapi = statementsFor('openapi');
    expect(openapi).not.toContain('dynamodb:');
    expect(openapi).not.toContain('secretsmanager:');
    const fnId = logicalIdOf(stateless.functions.openapi as IConstruct);
    const environment = routeFunctionTemplate('openapi').toJSON().Resources[fnId].Properties.Environment.Variables;
    expect(Object.keys(environment).filter((k) => /TABLE|SECRET/.test(k))).toEqual([]);
  });

  it('lets only the AI functions invoke the one configured Bedrock model, and tells them to use it', () => {
    const policies = everywhere('AWS::IAM::Policy');
    const functions = everywhere('AWS::Lambda::Function');
    const aiIds = [...ROUTES.filter((r) => r.ai).map((r) => r.id), ...WORKERS.filter((w) => w.ai).map((w) => w.id)];
    expect(aiIds.sort()).toEqual(['ai-analyze', 'ai-categorize', 'ai-suggest', 'stream-reactions']);
    const invokers = policies.filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes('bedrock:'));
    expect(invokers).toHaveLength(aiIds.length);
    for (const policy of invokers) {
      const statement = policy.Properties.PolicyDocument.Statement.find((st: any) =>
        JSON.stringify(st.Action).includes('bedrock:'),
      );
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
    expect(mappings).toHaveLength(WORKERS.filter((w) => w.source.kind !== 'schedule').length);
    const stream = mappings.find(
      (m) =>
        m.Properties.StartingPosition === 'TRIM_HORIZON' &&
        JSON.stringify(m.Properties.FilterCriteria).includes('EVT#'),
    );
    expect(stream?.Properties).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
    });
    expect(JSON.stringify(stream?.Properties.FilterCriteria)).toContain('EVT#');
    const queue = mappings.find((m) => m.Properties.StartingPosition === undefined);
    expect(queue?.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it("sends stream batches whose retries or age run out to the StreamFailures queue, and watches each stream worker's lag", () => {
    const mappings = Object.values(resources(api, 'AWS::Lambda::EventSourceMapping'));
    const alarms = Object.values(resources(api, 'AWS::CloudWatch::Alarm'));
    const streamWorkers = WORKERS.filter((w) => w.source.kind === 'stream');
    expect(streamWorkers.length).toBeGreaterThanOrEqual(2);
    for (const worker of streamWorkers) {
      const fnId = logicalIdOf(stateless.functions[worker.id] as IConstruct);
      const mapping = mappings.find((m) => refOf(m.Properties.FunctionName) === fnId);
      expect(refOf(fromStateful(mapping?.Properties.DestinationConfig?.OnFailure?.Destination))).toBe(
        logicalIdOf(stateful.queues.streamFailures),
      );
      expect(mapping?.Properties.MaximumRecordAgeInSeconds).toBe(STREAM_MAX_RECORD_AGE.toSeconds());
      // Still inside the stream's 24 h retention when it fails, so it can be read back and replayed.
      expect(STREAM_MAX_RECORD_AGE.toSeconds()).toBeLessThan(24 * 3600);
      const lag = alarms.find(
        (a) => a.Properties.MetricName === 'IteratorAge' && refOf(a.Properties.Dimensions[0].Value) === fnId,
      );
      expect(lag?.Properties).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Maximum' });
      const policy = JSON.stringify(statementsOf(api, fnId));
      expect(policy).toContain('sqs:SendMessage');
    }
    const failures = resources(data, 'AWS::SQS::Queue')[logicalIdOf(stateful.queues.streamFailures)];
    expect(failures?.Properties.SqsManagedSseEnabled).toBe(true);
    data.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: logicalIdOf(stateful.queues.streamFailures) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    api.hasOutput('OutboxDispatcherFunctionName', {});
  });

  it('hands outbound messages from the dispatcher to the sender by asynchronous invocation: one attempt, then its queue', () => {
    const invoked = WORKERS.filter((w) => w.asyncInvoke);
    expect(invoked.map((w) => w.id)).toEqual(['channel-sender']);
    const functions = resources(api, 'AWS::Lambda::Function');
    for (const worker of invoked) {
      if (!worker.asyncInvoke) continue;
      const fnId = logicalIdOf(stateless.functions[worker.id] as IConstruct);
      api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: fnId },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: 300,
        DestinationConfig: {
          OnFailure: { Destination: Match.anyValue() },
        },
      });
      const config = Object.values(resources(api, 'AWS::Lambda::EventInvokeConfig')).find(
        (c) => refOf(c.Properties.FunctionName) === fnId,
      );
      expect(refOf(fromStateful(config?.Properties.DestinationConfig.OnFailure.Destination))).toBe(
        logicalIdOf(stateful.queues[worker.asyncInvoke.onFailure]),
      );
      // The queue it retries from is the one its failures go to.
      expect(worker.source.kind === 'queue' && worker.source.queue).toBe(worker.asyncInvoke.onFailure);
      for (const invoker of WORKERS.filter((w) => w.invokes?.includes(worker.id))) {
        const invokerId = logicalIdOf(stateless.functions[invoker.id] as IConstruct);
        expect(functions[invokerId]?.Properties.Environment.Variables[worker.asyncInvoke.envVar]).toEqual({
          Ref: fnId,
        });
        // The unqualified function only: no version or alias wildcard.
        const invokes = statementsOf(api, invokerId).filter((st) => JSON.stringify(st.Action).includes('lambda:'));
        expect(invokes).toEqual([
          expect.objectContaining({ Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [fnId, 'Arn'] } }),
        ]);
      }
    }
    // Nothing else may invoke it, and the dispatcher no longer sends to the sender's queue.
    const dispatcherId = logicalIdOf(stateless.functions['outbox-dispatcher'] as IConstruct);
    expect(JSON.stringify(statementsOf(api, dispatcherId))).not.toContain(logicalIdOf(stateful.queues.channelOutbound));
  });

  it('runs schedule workers from an EventBridge rule at their rate, with the grants of their entry', () => {
    const scheduled = WORKERS.filter((w) => w.source.kind === 'schedule');
    expect(scheduled.map((w) => w.id)).toContain('sweeper');
    const rules = Object.entries(resources(api, 'AWS::Events::Rule'));
    for (const worker of scheduled) {
      if (worker.source.kind !== 'schedule') continue;
      const fnId = logicalIdOf(stateless.functions[worker.id] as IConstruct);
      const minutes = Math.max(1, Math.ceil(worker.source.everySeconds / 60));
      const [ruleId, rule] = rules.find(([, r]) => r.Properties.Targets.some((t: any) => refOf(t.Arn) === fnId)) ?? [];
      expect(rule?.Properties.ScheduleExpression).toBe(`rate(${minutes} minute${minutes === 1 ? '' : 's'})`);
      api.hasResourceProperties('AWS::Lambda::Permission', {
        Principal: 'events.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      });
      const policy = JSON.stringify(statementsOf(api, fnId));
      if (worker.mainTable === 'write') expect(policy).toContain('dynamodb:PutItem');
      for (const q of worker.sendsTo) expect(policy).toContain(logicalIdOf(stateful.queues[q]));
      expect(policy.match(/sqs:SendMessage/g) ?? []).toHaveLength(worker.sendsTo.length);
    }
  });

  it('answers unmatched paths from one small function that may touch no table, secret or queue', () => {
    // It lives in the API's front (a nested stack), with the origin check.
    const fnId = logicalIdOf(stateless.unmatchedRouteFunction);
    const routes = Object.values(resources(api, 'AWS::ApiGatewayV2::Route'));
    const fallback = routes.find((r) => r.Properties.RouteKey === '$default');
    const integration = resources(api, 'AWS::ApiGatewayV2::Integration')[
      String(fallback?.Properties.Target['Fn::Join'][1][1].Ref)
    ];
    const { template: front, value } = fromNested(integration?.Properties.IntegrationUri);
    expect(refOf(value)).toBe(fnId);
    const statements = JSON.stringify(statementsOf(front, fnId));
    expect(statements).not.toMatch(/dynamodb:|secretsmanager:|sqs:|bedrock:/);
    expect(resources(front, 'AWS::Lambda::Function')[fnId]?.Properties.Environment.Variables).not.toHaveProperty(
      'MAIN_TABLE_NAME',
    );
  });

  it('logs access lines with HTTP API variables only, one of them the request id the functions log', () => {
    // HTTP APIs know these (API Gateway's "Customize HTTP API access logs"); REST-only ones log as "-".
    const httpApiVariables = [
      'identity.sourceIp',
      'requestTime',
      'httpMethod',
      'path',
      'protocol',
      'status',
      'responseLength',
      'requestId',
      'responseLatency',
    ];
    const used = [...ACCESS_LOG_FORMAT.matchAll(/\$context\.([\w.]+)/g)].map((m) => m[1]);
    expect(used).toEqual(expect.arrayContaining(['requestId', 'status', 'path']));
    for (const name of used) expect(httpApiVariables).toContain(name);
    expect(
      renderAccessLog({
        'identity.sourceIp': '203.0.113.7',
        requestTime: '22/Nov/2026:23:44:17 +0000',
        httpMethod: 'GET',
        path: '/api/v1/conversations',
        protocol: 'HTTP/1.1',
        status: 200,
        responseLength: 512,
        requestId: 'Ab1CdEfGhIJKLmN=',
      }),
    ).toBe(
      '203.0.113.7 - - [22/Nov/2026:23:44:17 +0000] "GET /api/v1/conversations HTTP/1.1" 200 512 Ab1CdEfGhIJKLmN= -',
    );
  });

  it('has a 5xx alarm, an access-logged and throttled stage and the API URL output', () => {
    api.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: '5xx', Namespace: 'AWS/ApiGateway' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: ACCESS_LOG_FORMAT },
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_API_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_API_THROTTLE.burstLimit,
      },
    });
    api.hasOutput('ApiUrl', {});
    // The OpenAPI document's URL: the API URL (which ends with a slash) and the route's path.
    const openApiUrl = joined(api.toJSON().Outputs.OpenApiUrl.Value);
    expect(openApiUrl).toMatch(/^https:\/\/.*\/api\/v1\/openapi\.json$/);
    expect(ROUTES.find((r) => r.id === 'openapi')).toMatchObject({
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      mainTable: 'none',
    });
  });

  it('reserves no concurrency by default (a new account has none to spare): queue sources cap their batches instead', () => {
    expect(
      [data, ...apiStacks.all, Template.fromStack(dashboard)].flatMap((t) =>
        Object.values(resources(t, 'AWS::Lambda::Function')).filter(
          (f) => f.Properties.ReservedConcurrentExecutions !== undefined,
        ),
      ),
    ).toEqual([]);
    const mappings = Object.values(resources(api, 'AWS::Lambda::EventSourceMapping'));
    for (const worker of WORKERS) {
      const fnId = logicalIdOf(stateless.functions[worker.id] as IConstruct);
      const mapping = mappings.find((m) => refOf(m.Properties.FunctionName) === fnId);
      if (worker.source.kind === 'queue')
        expect(mapping?.Properties.ScalingConfig).toEqual({
          MaximumConcurrency: Math.max(2, worker.source.concurrency),
        });
      // A stream worker runs one batch per shard at a time.
      if (worker.source.kind === 'stream') expect(mapping?.Properties.ParallelizationFactor ?? 1).toBe(1);
      // A scheduled worker takes a lease in the ephemeral table before each run.
      if (worker.source.kind === 'schedule')
        expect(JSON.stringify(statementsOf(api, fnId))).toContain(logicalIdOf(stateful.tables.ephemeral));
    }
  });

  it(`gives each table's stream at most ${MAX_STREAM_READERS} Lambda readers (AWS: more are throttled)`, () => {
    const readers = new Map<string, number>();
    for (const { Properties } of [...apiStacks.all, Template.fromStack(dashboard)].flatMap((t) =>
      Object.values(resources(t, 'AWS::Lambda::EventSourceMapping')),
    )) {
      const source = refOf(fromStateful(Properties.EventSourceArn));
      if (Properties.StartingPosition !== undefined) readers.set(source, (readers.get(source) ?? 0) + 1);
    }
    expect(readers.get(logicalIdOf(stateful.tables.main))).toBe(2);
    for (const [table, count] of readers) expect([table, count <= MAX_STREAM_READERS]).toEqual([table, true]);
  });

  it("keeps every queue with a consumer invisible for at least six times the consumer's timeout", () => {
    const queues = resources(data, 'AWS::SQS::Queue');
    const fns = resources(api, 'AWS::Lambda::Function');
    const consumed = Object.values(resources(api, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => m.Properties.StartingPosition === undefined,
    );
    expect(consumed).toHaveLength(WORKERS.filter((w) => w.source.kind === 'queue').length);
    for (const mapping of consumed) {
      const queue = queues[refOf(fromStateful(mapping.Properties.EventSourceArn))];
      const timeout = fns[refOf(mapping.Properties.FunctionName)]?.Properties.Timeout;
      expect(timeout).toBeGreaterThan(0);
      expect(queue?.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
    }
  });

  it("keeps the channel send lease below the sender's timeout (and so below the queue's visibility) and its retry delay", () => {
    const fnId = logicalIdOf(stateless.functions['channel-sender'] as IConstruct);
    const timeout = resources(api, 'AWS::Lambda::Function')[fnId]?.Properties.Timeout;
    expect(SEND_LEASE_MS / 1000).toBeLessThan(timeout);
    expect(timeout).toBeLessThan(QUEUES.channelOutbound.visibilityTimeoutSeconds);
    // A failed first attempt reaches the queue at once: its first receive waits out the attempt's lease.
    const delay = QUEUES.channelOutbound.deliveryDelay?.seconds ?? 0;
    expect(SEND_LEASE_MS / 1000).toBeLessThan(delay);
    const queue = resources(data, 'AWS::SQS::Queue')[logicalIdOf(stateful.queues.channelOutbound)];
    expect(queue?.Properties.DelaySeconds).toBe(delay);
  });
});

describe('function assets', () => {
  // The synthesised assets, each an unzipped directory: its bundle and the data files shipped beside it.
  const assets = readdirSync(app.outdir)
    .filter((name) => name.startsWith('asset.') && statSync(join(app.outdir, name)).isDirectory())
    .map((name) => ({ dir: join(app.outdir, name), files: readdirSync(join(app.outdir, name)) }));

  /**
   * Runs `script` (saved as `probeFile`) beside copies of an asset's `files`, as Node runs code in Lambda:
   * the asset's package.json maps each `#name` to its file beside the bundle. Its last line of output.
   */
  const probeBeside = (assetDir: string, files: string[], probeFile: string, script: string): string => {
    const probe = mkdtempSync(join(tmpdir(), 'beside-'));
    try {
      for (const name of files) cpSync(join(assetDir, name), join(probe, name));
      writeFileSync(join(probe, probeFile), script);
      const out = execFileSync(process.execPath, [join(probe, probeFile)], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      });
      return out.trim().split('\n').at(-1) ?? '';
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  };

  it('ship the OpenAPI document beside its handler, not inside the bundle', () => {
    const withDocument = assets.filter((a) => a.files.includes('openapi.json'));
    expect(withDocument).toHaveLength(1);
    const [asset] = withDocument;
    // Beside it too: Metrics, which an HTTP handler loads only for a server error (below), and jose, which
    // the shared authentication loads only for a session token.
    expect(asset?.files.sort()).toEqual(['index.mjs', 'jose.mjs', 'metrics.mjs', 'openapi.json', 'package.json']);
    const bundle = readFileSync(join(asset?.dir ?? '', 'index.mjs'), 'utf8');
    expect(bundle).not.toContain('listWebhookDeliveries');
    expect(JSON.parse(readFileSync(join(asset?.dir ?? '', 'openapi.json'), 'utf8')).openapi).toMatch(/^3\.1/);
  });

  it('carry each bundle beside exactly where their own bundle loads it', () => {
    const bundles = assets.filter((a) => a.files.includes('index.mjs'));
    for (const name of BUNDLE_NAMES_BESIDE) {
      const loading = bundles.filter((a) =>
        readFileSync(join(a.dir, 'index.mjs'), 'utf8').includes(besideImport(name)),
      );
      const carrying = bundles.filter((a) => a.files.includes(BUNDLES_BESIDE[name].file));
      expect(loading.length).toBeGreaterThan(0);
      expect(carrying.map((a) => a.dir).sort()).toEqual(loading.map((a) => a.dir).sort());
    }
  });

  it("load Node's http as its CommonJS module in every bundle, so that no cold start loads undici", () => {
    const code = assets.flatMap((a) =>
      a.files.filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(join(a.dir, f), 'utf8')),
    );
    // An ES-module import of node:http reads every export, and http.WebSocket's getter loads undici.
    const esmImport = /(from\s*|import\s*\(\s*)["'](node:)?http["']/;
    expect(code.filter((c) => esmImport.test(c))).toEqual([]);
    expect(code.filter((c) => c.includes('"node:http"')).length).toBeGreaterThan(0);
    // And as Lambda loads one: no undici after the import.
    const bundle = assets.find(
      (a) => a.files.includes('index.mjs') && readFileSync(join(a.dir, 'index.mjs'), 'utf8').includes('"node:http"'),
    )!;
    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(join(bundle.dir, 'index.mjs'))}); console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici'))))`,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } },
    );
    expect(JSON.parse(loaded.trim().split('\n').at(-1)!)).toEqual([]);
  });

  /** The assets whose bundle imports the bundle beside `name` on first use. */
  const importing = (name: string) =>
    assets.filter(
      (a) =>
        a.files.includes('index.mjs') && readFileSync(join(a.dir, 'index.mjs'), 'utf8').includes(`import("${name}")`),
    );

  /** Runs the lines of an ES module beside the asset's package.json and the file of `name`, as Lambda resolves it. */
  const probeImport = (asset: { dir: string }, name: BundleBeside, lines: string[]) =>
    probeBeside(asset.dir, ['package.json', BUNDLES_BESIDE[name].file], 'probe.mjs', lines.join('\n'));

  it("ship Metrics beside every HTTP handler's bundle, where the handler's import('#metrics') finds it", () => {
    const handlers = importing('#metrics');
    expect(handlers.length).toBeGreaterThanOrEqual(new Set(ROUTES.map((r) => r.handler)).size);
    for (const asset of handlers) expect(asset.files).toEqual(expect.arrayContaining(['metrics.mjs', 'package.json']));
    // Resolved as Node resolves it in Lambda: the asset's package.json maps the name to the file beside.
    const out = probeImport(handlers[0]!, '#metrics', [
      "const { metrics } = await import('#metrics'); metrics.addMetric('server_error', 'Count', 1); metrics.publishStoredMetrics();",
    ]);
    expect(JSON.parse(out)).toMatchObject({ server_error: 1 });
  });

  it("ship jose beside the handlers that verify a session token on first use, where import('#jose') finds it", () => {
    const handlers = importing('#jose');
    // Every HTTP handler but login and refresh, which sign a token on every call and keep jose inside.
    expect(handlers.length).toBeGreaterThanOrEqual(new Set(ROUTES.map((r) => r.handler)).size - 2);
    for (const asset of handlers) expect(asset.files).toEqual(expect.arrayContaining(['jose.mjs', 'package.json']));
    // Resolved as Node resolves it in Lambda, a token it signs is one it verifies.
    const out = probeImport(handlers[0]!, '#jose', [
      "const { SignJWT, jwtVerify } = await import('#jose');",
      "const key = new TextEncoder().encode('a-test-secret-of-32-bytes-length');",
      "const token = await new SignJWT({ tid: 't1' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u1').sign(key);",
      "const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });",
      'console.log(JSON.stringify(payload));',
    ]);
    expect(JSON.parse(out)).toEqual({ tid: 't1', sub: 'u1' });
  });

  it("ship libphonenumber beside the functions that extract entities, where import('#phone-numbers') finds it", () => {
    const analysing = importing('#phone-numbers');
    // The analysis route: a suggestion reads dates only, and the analysis of each inbound message no entities.
    expect(analysing.length).toBeGreaterThan(0);
    for (const asset of analysing)
      expect(asset.files).toEqual(expect.arrayContaining(['phone-numbers.mjs', 'package.json', 'models']));
    // Resolved as Node resolves it in Lambda, it reads a number with the metadata shipped beside the models.
    const metadata = join(analysing[0]!.dir, 'models', 'phone-numbers.json.gz');
    const out = probeImport(analysing[0]!, '#phone-numbers', [
      "import { readFileSync } from 'node:fs';",
      "import { gunzipSync } from 'node:zlib';",
      "const { parsePhoneNumberFromString } = await import('#phone-numbers');",
      `const metadata = JSON.parse(gunzipSync(readFileSync(${JSON.stringify(metadata)})).toString());`,
      "console.log(parsePhoneNumberFromString('+44 7911 123456', metadata)?.number);",
    ]);
    expect(out).toBe('+447911123456');
  });

  it("ship each language's date parser beside the functions that read dates, where import('#chrono-de') finds it", () => {
    const readingDates = importing('#chrono-de');
    // The analysis and suggestion routes (a suggestion reads the day a customer asks for).
    expect(readingDates.length).toBeGreaterThanOrEqual(2);
    const parsers = ['de', 'en', 'es', 'fr', 'pt'].map((language) => `chrono-${language}.mjs`);
    for (const asset of readingDates) expect(asset.files).toEqual(expect.arrayContaining([...parsers, 'package.json']));
    // Resolved as Node resolves it in Lambda, the German parser reads a German date.
    const out = probeImport(readingDates[0]!, '#chrono-de', [
      "const { casual } = await import('#chrono-de');",
      "const [found] = casual.parse('nächsten Dienstag um 10', new Date('2026-03-27T10:00:00Z'));",
      "console.log(found.start.get('weekday'), found.start.get('hour'));",
    ]);
    expect(out).toBe('2 10');
  });

  it('ship the trained models beside each AI function, and the Snowball stemmers it requires by name', () => {
    const withModels = assets.filter((a) => a.files.includes('models'));
    expect(withModels).toHaveLength([...ROUTES, ...WORKERS].filter((f) => f.ai).length);
    for (const asset of withModels) {
      expect(readdirSync(join(asset.dir, 'models'))).toContain('en.json.gz');
      expect(asset.files).toEqual(
        expect.arrayContaining(['stemmer-de.cjs', 'stemmer-es.cjs', 'stemmer-fr.cjs', 'stemmer-pt.cjs']),
      );
    }
    // Required as Node requires it in Lambda: the asset's package.json maps each name to the file beside.
    const out = probeBeside(
      withModels[0]!.dir,
      ['package.json', 'stemmer-fr.cjs'],
      'probe.cjs',
      "const Stemmer = require('#stemmer-fr'); console.log(typeof Stemmer, typeof Stemmer.prototype.stemWord);",
    );
    expect(out).toBe('function function');
  });
});

describe('stateful stack', () => {
  it('has on-demand, encrypted, point-in-time-recoverable, retained tables with TTL', () => {
    const tables = resources(data, 'AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables)).toHaveLength(Object.keys(TABLES).length);
    for (const [id, table] of Object.entries(tables)) {
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true });
      expect(table.Properties.Replicas[0].PointInTimeRecoverySpecification).toEqual({
        PointInTimeRecoveryEnabled: true,
      });
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
      expect((data.toJSON().Resources as Record<string, { DeletionPolicy?: string }>)[id]?.DeletionPolicy).toBe(
        'Retain',
      );
    }
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it("builds the main table's indexes from the spec, with the conversation lists projecting only what they return", () => {
    const main = Object.values(resources(data, 'AWS::DynamoDB::GlobalTable')).find((t) =>
      JSON.stringify(t.Properties.KeySchema).includes('"sk"'),
    );
    const built = (main?.Properties.GlobalSecondaryIndexes ?? []) as {
      IndexName: string;
      KeySchema: { AttributeName: string; KeyType: string }[];
      Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
    }[];
    expect(built.map((i) => i.IndexName)).toEqual(TABLES.main.indexes.map((i) => i.name));
    for (const spec of TABLES.main.indexes) {
      const index = built.find((i) => i.IndexName === spec.name);
      expect(index?.KeySchema).toEqual([
        { AttributeName: spec.partitionKey, KeyType: 'HASH' },
        { AttributeName: spec.sortKey, KeyType: 'RANGE' },
      ]);
      expect(index?.Projection).toEqual(
        'include' in spec
          ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...spec.include] }
          : { ProjectionType: 'ALL' },
      );
    }
    // Conversation list entries carry the `conversation` map and nothing else.
    expect(built.filter((i) => i.Projection.ProjectionType === 'INCLUDE').map((i) => i.IndexName)).toEqual([
      'convAll',
      'convStatus',
      'convCustomer',
      'convAssignee',
    ]);
  });

  it('has encrypted, TLS-only queues that redrive to their DLQs, and a depth alarm on every queue of failures', () => {
    const queues = resources(data, 'AWS::SQS::Queue');
    expect(Object.keys(queues)).toHaveLength(Object.keys(QUEUES).length);
    const withRedrive = Object.entries(queues).filter(([, q]) => q.Properties.RedrivePolicy);
    expect(withRedrive.map(([id]) => id.replace(/Queue.*$/, '')).sort()).toEqual([
      'ChannelOutbound',
      'MediaFetch',
      'SettledPasses',
      'WebhookDelivery',
      'WhatsAppInbound',
    ]);
    const delivery = withRedrive.find(([id]) => id.startsWith('WebhookDelivery'))?.[1];
    const redrive = delivery?.Properties.RedrivePolicy;
    expect(redrive.maxReceiveCount).toBe(5);
    const dlqId = refOf(redrive.deadLetterTargetArn);
    expect(dlqId).toMatch(/^WebhookDeliveryDlq/);
    expect(queues[dlqId]).toBeDefined();
    for (const q of Object.values(queues)) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    expect(
      Object.values(resources(data, 'AWS::SQS::QueuePolicy')).filter((p) =>
        JSON.stringify(p.Properties).includes('"aws:SecureTransport":"false"'),
      ),
    ).toHaveLength(Object.keys(QUEUES).length);
    const alarms = Object.values(resources(data, 'AWS::CloudWatch::Alarm'));
    expect(failureQueues().sort()).toEqual([
      'channelOutboundDlq',
      'mediaFetchDlq',
      'settledPassesDlq',
      'streamFailures',
      'webhookDeliveryDlq',
      'whatsappInboundDlq',
    ]);
    for (const key of failureQueues()) {
      const id = logicalIdOf(stateful.queues[key]);
      expect(
        alarms.some(
          (a) =>
            a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
            refOf(a.Properties.Dimensions[0].Value) === id,
        ),
      ).toBe(true);
    }
    // Messages moved to a DLQ by a redrive policy are never counted as sent: such an alarm could not fire.
    expect(alarms.filter((a) => a.Properties.MetricName === 'NumberOfMessagesSent')).toEqual([]);
    data.hasOutput('WebhookDeliveryQueueUrl', {});
    data.hasOutput('WebhookDeliveryDlqQueueUrl', {});
    data.hasOutput('StreamFailuresQueueUrl', {});
  });

  it("keeps the JWT key, the platform token, the data key and the Meta app's secret in Secrets Manager", () => {
    expect(
      Object.keys(resources(data, 'AWS::SecretsManager::Secret')).map((id) => id.replace(/[0-9A-F]{8}$/, '')),
    ).toEqual(expect.arrayContaining(['JwtSigningSecret', 'PlatformToken', 'DataKey', 'WhatsAppAppSecret']));
    expect(Object.keys(resources(data, 'AWS::SecretsManager::Secret'))).toHaveLength(4);
  });
});

describe('alarms', () => {
  const topicId = () => logicalIdOf(stateful.alarmTopic);

  it('every alarm of every stack notifies the one alarm topic', () => {
    const all = [data, ...apiStacks.all].flatMap((t) => Object.values(resources(t, 'AWS::CloudWatch::Alarm')));
    expect(all.length).toBeGreaterThanOrEqual(failureQueues().length + 1 + 2 * WORKERS.length);
    for (const alarm of all) {
      expect(alarm.Properties.AlarmActions).toHaveLength(1);
      expect(fromStateful(alarm.Properties.AlarmActions[0])).toEqual({ Ref: topicId() });
    }
  });

  it('alarms when a webhook delivery or a queued outbound message has been overdue for 5 minutes (the sweepers publish their age)', () => {
    const alarms = Object.values(resources(data, 'AWS::CloudWatch::Alarm'));
    for (const metric of [OVERDUE_DELIVERY_METRIC, OVERDUE_OUTBOUND_METRIC]) {
      const alarm = alarms.find((a) => a.Properties.MetricName === metric);
      expect(alarm?.Properties).toMatchObject({
        Namespace: METRICS.namespace,
        Dimensions: [{ Name: 'service', Value: METRICS.service }],
        Statistic: 'Maximum',
        Threshold: 300,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
    // The sweeper that publishes them runs on a schedule, and drains the channel dead-letter queue.
    const sweeper = WORKERS.find((w) => w.id === 'sweeper');
    expect(sweeper?.source.kind).toBe('schedule');
    expect(sweeper?.metricAlarms?.map((a) => a.metric).sort()).toEqual(
      [OVERDUE_DELIVERY_METRIC, OVERDUE_OUTBOUND_METRIC].sort(),
    );
    const policy = JSON.stringify(statementsOf(api, logicalIdOf(stateless.functions.sweeper as IConstruct)));
    expect(policy).toContain('sqs:ReceiveMessage');
    expect(policy).toContain('sqs:DeleteMessage');
  });

  it('watches every worker for errors and throttles (and an invoked one for failures it could not queue)', () => {
    const alarms = Object.values(resources(api, 'AWS::CloudWatch::Alarm'));
    // An alarm's metrics: its own, or those of its math expression.
    const metricsOf = (a: any): any[] =>
      a.Properties.MetricName
        ? [a.Properties]
        : (a.Properties.Metrics ?? []).flatMap((m: any) => (m.MetricStat ? [m.MetricStat.Metric] : []));
    const watched = (fnId: string, metric: string) =>
      alarms.some((a) =>
        metricsOf(a).some(
          (m) => m.MetricName === metric && m.Namespace === 'AWS/Lambda' && refOf(m.Dimensions[0].Value) === fnId,
        ),
      );
    for (const worker of WORKERS) {
      const fnId = logicalIdOf(stateless.functions[worker.id] as IConstruct);
      for (const metric of ['Errors', 'Throttles']) expect(watched(fnId, metric)).toBe(true);
      expect(watched(fnId, 'DestinationDeliveryFailures')).toBe(worker.asyncInvoke !== undefined);
    }
  });

  it('publishes to an encrypted, TLS-only topic that CloudWatch may use (no subscription unless configured)', () => {
    const topic = resources(data, 'AWS::SNS::Topic')[topicId()];
    const keyId = refOf(topic?.Properties.KmsMasterKeyId);
    const key = resources(data, 'AWS::KMS::Key')[keyId];
    expect(key?.Properties.EnableKeyRotation).toBe(true);
    expect(key?.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );
    const policy = Object.values(resources(data, 'AWS::SNS::TopicPolicy'))[0]?.Properties.PolicyDocument.Statement;
    expect(policy).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    expect(policy).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
      }),
    );
    data.resourceCountIs('AWS::SNS::Subscription', 0);
    data.hasOutput('AlarmTopicArn', {});
  });
});

describe('growth and coupling', () => {
  const counts = () =>
    [
      [stateful.stackName, Object.keys(data.toJSON().Resources).length],
      [dashboard.stackName, Object.keys(Template.fromStack(dashboard).toJSON().Resources).length],
      [edge.stackName, Object.keys(Template.fromStack(edge).toJSON().Resources).length],
      ...apiStacks.all.map((t, i) => [
        i === 0 ? stateless.stackName : apiStacks.nested[i - 1]?.id,
        Object.keys(t.toJSON().Resources).length,
      ]),
    ] as [string, number][];

  it('keeps every stack, nested ones included, at or under 350 resources', () => {
    for (const [name, count] of counts()) expect([name, count <= 350]).toEqual([name, true]);
  });

  it('references the stateful stack weakly: no imports, and no exports that an update would have to keep', () => {
    for (const t of apiStacks.all) expect(json(t)).not.toContain('Fn::ImportValue');
    expect(json(api)).toContain('Fn::GetStackOutput');
    const exports = Object.values(data.toJSON().Outputs as Record<string, { Export?: { Name: string } }>).flatMap(
      (o) => (o.Export ? [o.Export.Name] : []),
    );
    // Only the named queue URLs (for other tools); none generated for the API stack.
    expect(exports.every((name) => /^MessagingStateful-\w+QueueUrl$/.test(name))).toBe(true);
    // Each stack output read is one the stateful stack has (the web ACL's ARN comes from the edge stack).
    const outputsOf = { [stateful.stackName]: data, [edge.stackName]: Template.fromStack(edge) };
    for (const t of apiStacks.all) {
      for (const ref of stackOutputReads(t.toJSON())) {
        expect(Object.keys(outputsOf)).toContain(ref.StackName);
        expect(outputsOf[ref.StackName]?.toJSON().Outputs).toHaveProperty([ref.OutputName]);
      }
    }
  });

  // Half again, not double: an HTTP API takes 300 routes (two prefixes a route, and $default), and the API's
  // stack holds two routes and an integration per route. Doubling needs routes in the features' stacks.
  it('has room to grow the routes by half: a route table 1.5 times as large synthesizes with every stack under 500 resources', () => {
    const doubled: RouteDef[] = [
      ...ROUTES,
      ...ROUTES.slice(0, Math.ceil(ROUTES.length / 2)).map((r) => ({
        ...r,
        id: `${r.id}-twin`,
        path: `/twin${r.path}`,
      })),
    ];
    const twin = buildCdkApp(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), { routes: doubled });
    twin.app.synth();
    const stacks = templatesOf(twin.stateless);
    expect(Object.values(resources(stacks.parent, 'AWS::ApiGatewayV2::Route'))).toHaveLength(
      doubled.length * API_PREFIXES.length + 1,
    );
    expect(doubled.length * API_PREFIXES.length + 1).toBeLessThanOrEqual(300);
    for (const t of [Template.fromStack(twin.stateful), Template.fromStack(twin.dashboard), ...stacks.all])
      expect(Object.keys(t.toJSON().Resources).length).toBeLessThanOrEqual(500);
  }, 120_000);
});

describe('context values', () => {
  // A second synth (without bundling) with every deploy-time setting.
  const configured = buildCdkApp(
    new App({
      context: {
        'aws:cdk:bundling-stacks': [],
        alarmEmail: 'ops@example.com',
        apiRateLimit: '50',
        apiBurstLimit: '80',
        'workerConcurrency.webhook-delivery': '3',
        '@aws-cdk/core:defaultCrossStackReferences': 'both',
        apiGatewayCloudWatchRole: 'create',
      },
    }),
  );
  configured.app.synth();
  const cApi = withWorkers(configured.stateless);
  const cData = Template.fromStack(configured.stateful);

  it('subscribes alarmEmail to the alarm topic', () => {
    cData.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: logicalIdOf(configured.stateful.alarmTopic) },
    });
  });

  it("sets stage throttling and a worker's reserved concurrency (and its queue mapping follows)", () => {
    cApi.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 80 },
    });
    const fnId = logicalIdOf(configured.stateless.functions['webhook-delivery'] as IConstruct);
    const reserved = Object.entries(resources(cApi, 'AWS::Lambda::Function')).filter(
      ([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved.map(([id, f]) => [id, f.Properties.ReservedConcurrentExecutions])).toEqual([[fnId, 3]]);
    cApi.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      ScalingConfig: { MaximumConcurrency: 3 },
    });
  });

  it("sets API Gateway's account logging role when asked (retained, like the role), and never by default", () => {
    const accounts = resources(cData, 'AWS::ApiGateway::Account');
    expect(Object.keys(accounts)).toHaveLength(1);
    const [accountId, account] = Object.entries(accounts)[0] ?? [];
    const roleId = refOf(account?.Properties.CloudWatchRoleArn);
    const role = resources(cData, 'AWS::IAM::Role')[roleId];
    expect(role?.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
      Service: 'apigateway.amazonaws.com',
    });
    expect(JSON.stringify(role?.Properties.ManagedPolicyArns)).toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    const all = cData.toJSON().Resources as Record<string, { DeletionPolicy?: string }>;
    expect([all[accountId ?? '']?.DeletionPolicy, all[roleId]?.DeletionPolicy]).toEqual(['Retain', 'Retain']);
    for (const t of [data, ...apiStacks.all]) expect(Object.keys(resources(t, 'AWS::ApiGateway::Account'))).toEqual([]);
    expect(() =>
      buildCdkApp(new App({ context: { 'aws:cdk:bundling-stacks': [], apiGatewayCloudWatchRole: 'yes' } })),
    ).toThrow(/apiGatewayCloudWatchRole must be "create" or "existing"/);
  });

  it('"both" (the step from strong references) keeps the generated exports but imports nothing', () => {
    expect(JSON.stringify(cApi.toJSON())).not.toContain('Fn::ImportValue');
    expect(JSON.stringify(cData.toJSON().Outputs)).toMatch(/"Name":"MessagingStateful:ExportsOutput/);
  });

  it("refuses values that are not positive integers, a queue worker below its mapping's minimum, and unknown workers", () => {
    const noBundling = { 'aws:cdk:bundling-stacks': [] };
    expect(() => buildCdkApp(new App({ context: { ...noBundling, apiRateLimit: 'lots' } }))).toThrow(
      /apiRateLimit must be a positive integer/,
    );
    expect(() => buildCdkApp(new App({ context: { ...noBundling, 'workerConcurrency.channel-sender': '1' } }))).toThrow(
      /channel-sender must be an integer of at least 2/,
    );
    expect(() =>
      buildCdkApp(new App({ context: { ...noBundling, 'workerConcurrency.webhook-deliveries': '4' } })),
    ).toThrow(/No such worker: workerConcurrency.webhook-deliveries/);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('has zero unacknowledged findings', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(
      report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });
});
