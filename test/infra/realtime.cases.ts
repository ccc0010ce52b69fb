import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { REALTIME_ROUTES, REALTIME_STAGE } from '../../catalog/realtime';
import { TABLES } from '../../catalog/resources';
import { ROUTES } from '../../catalog/routes';
import { NEW_CONNECTION_FILTERS, WORKERS } from '../../catalog/workers';
import { built } from './synth';

// The realtime WebSocket API (lib/realtime-api.ts), from the infra tests' one synth.
const { stateful, stateless } = built;
// It lives in the workers' nested stack, beside the functions that push.
const workers = Template.fromStack(stateless.workerStack);
const realtime = workers;
const data = Template.fromStack(stateful);

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (t: Template, type: string) => Object.entries(t.findResources(type) as Record<string, Resource>);
const logicalIdOf = (construct: IConstruct) =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
const text = (value: unknown) => JSON.stringify(value);

/** The statements of a function's role policy, in the template that holds the function. */
function statementsOf(template: Template, fn: IConstruct): any[] {
  const fnId = logicalIdOf(fn);
  const role = template.toJSON().Resources[fnId].Properties.Role;
  const roleId = role?.['Fn::GetAtt']?.[0] ?? role?.Ref;
  return resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
}
const environmentOf = (template: Template, fn: IConstruct): Record<string, unknown> =>
  template.toJSON().Resources[logicalIdOf(fn)].Properties.Environment.Variables;
const manages = (statements: any[]) =>
  statements.filter((s) => text(s.Action).includes('execute-api:ManageConnections'));

describe('realtime WebSocket API', () => {
  it('routes $connect, $disconnect and $default to their own functions, from catalog/realtime.ts', () => {
    const [[, api]] = resourcesOf(realtime, 'AWS::ApiGatewayV2::Api') as [[string, Resource]];
    expect(api.Properties.ProtocolType).toBe('WEBSOCKET');
    const routes = resourcesOf(realtime, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(routes.sort()).toEqual(REALTIME_ROUTES.map((r) => r.routeKey).sort());
    const integrations = resourcesOf(realtime, 'AWS::ApiGatewayV2::Integration');
    expect(integrations).toHaveLength(REALTIME_ROUTES.length);
    for (const [, integration] of integrations) expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
    // Each function may be invoked by this API only.
    const permissions = resourcesOf(realtime, 'AWS::Lambda::Permission').filter(
      ([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(permissions).toHaveLength(REALTIME_ROUTES.length);
  });

  it('has a throttled, access-logged stage', () => {
    const [[, stage]] = resourcesOf(realtime, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    expect(stage.Properties.StageName).toBe(REALTIME_STAGE);
    expect(stage.Properties.AutoDeploy).toBe(true);
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: expect.any(Number),
      ThrottlingBurstLimit: expect.any(Number),
    });
    expect(stage.Properties.AccessLogSettings.Format).toContain('$context.connectionId');
  });

  it('throttles $connect and $default below the stage, from catalog/realtime.ts (no WAF can sit in front)', () => {
    const [[, stage]] = resourcesOf(realtime, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    const stageDefault = stage.Properties.DefaultRouteSettings;
    const settings = stage.Properties.RouteSettings as Record<string, Record<string, number>>;
    expect(Object.keys(settings).sort()).toEqual(['$connect', '$default']);
    for (const route of REALTIME_ROUTES.filter((r) => r.throttle)) {
      expect(settings[route.routeKey]).toEqual({
        ThrottlingRateLimit: route.throttle?.rateLimit,
        ThrottlingBurstLimit: route.throttle?.burstLimit,
      });
      expect(settings[route.routeKey]?.ThrottlingRateLimit).toBeLessThan(stageDefault.ThrottlingRateLimit);
      expect(settings[route.routeKey]?.ThrottlingBurstLimit).toBeLessThan(stageDefault.ThrottlingBurstLimit);
    }
    // The stage is made after the routes it names (a stage naming a missing route fails to deploy).
    const stageId = resourcesOf(realtime, 'AWS::ApiGatewayV2::Stage')[0]?.[0] ?? '';
    const dependsOn = (realtime.toJSON().Resources[stageId].DependsOn ?? []) as string[];
    const routeIds = resourcesOf(realtime, 'AWS::ApiGatewayV2::Route')
      .filter(([, r]) => ['$connect', '$default'].includes(r.Properties.RouteKey))
      .map(([id]) => id);
    for (const id of routeIds) expect(dependsOn).toContain(id);
    // AWS WAF cannot be associated with a WebSocket API: none is attempted.
    expect(resourcesOf(realtime, 'AWS::WAFv2::WebACLAssociation')).toEqual([]);
  });

  it('grants the route functions the Realtime table only: no Main table, no secret, no queue', () => {
    for (const route of REALTIME_ROUTES) {
      const fn = stateless.realtime.functions[route.routeKey] as IConstruct;
      const statements = text(statementsOf(realtime, fn));
      expect(statements).toContain('dynamodb:PutItem');
      expect(statements).toContain(logicalIdOf(stateful.tables.realtime));
      expect(statements).not.toContain(logicalIdOf(stateful.tables.main));
      expect(statements).not.toContain('secretsmanager:');
      expect(statements).not.toContain('sqs:');
      expect(Object.keys(environmentOf(realtime, fn))).toContain(TABLES.realtime.envVar);
    }
  });

  it("lets only the pushers post to connections, and only on this API's stage", () => {
    const pushers = [
      ['$default', realtime, stateless.realtime.functions.$default],
      ...WORKERS.filter((w) => w.realtime).map((w) => [w.id, workers, stateless.functions[w.id]] as const),
    ] as const;
    expect(pushers.map(([id]) => id).sort()).toEqual(['$default', 'outbox-dispatcher', 'realtime-greeter']);
    for (const [id, template, fn] of pushers) {
      const statements = manages(statementsOf(template, fn as IConstruct));
      expect([id, statements.length]).toEqual([id, 1]);
      const resource = text(statements[0].Resource);
      expect(resource).toContain(`/${REALTIME_STAGE}/POST/@connections/*`);
      expect(resource).toContain(`/${REALTIME_STAGE}/DELETE/@connections/*`);
      expect(resource).not.toContain('/*/@connections');
      expect(Object.keys(environmentOf(template, fn as IConstruct))).toContain('REALTIME_MANAGEMENT_URL');
    }
    for (const route of REALTIME_ROUTES.filter((r) => r.routeKey !== '$default')) {
      expect(manages(statementsOf(realtime, stateless.realtime.functions[route.routeKey] as IConstruct))).toEqual([]);
    }
  });

  it('gives the ticket route the WebSocket URL and the Realtime table; other routes neither', () => {
    const ticketRoutes = ROUTES.filter((r) => r.realtime).map((r) => r.id);
    expect(ticketRoutes).toEqual(['realtime-tickets-create']);
    const fn = stateless.functions['realtime-tickets-create'] as IConstruct;
    const template = Template.fromStack(Stack.of(fn));
    expect(environmentOf(template, fn).REALTIME_URL).toBeDefined();
    expect(text(statementsOf(template, fn))).toContain(logicalIdOf(stateful.tables.realtime));
    const other = stateless.functions['events-list'] as IConstruct;
    const otherTemplate = Template.fromStack(Stack.of(other));
    expect(environmentOf(otherTemplate, other).REALTIME_URL).toBeUndefined();
    expect(text(statementsOf(otherTemplate, other))).not.toContain(logicalIdOf(stateful.tables.realtime));
  });

  it("keeps connections in a TTL table whose own stream feeds the greeter (the Main stream's readers stay two)", () => {
    const table = data.toJSON().Resources[logicalIdOf(stateful.tables.realtime)].Properties;
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: TABLES.realtime.ttlAttribute, Enabled: true });
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const greeter = resourcesOf(workers, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      String(text(m.Properties.FilterCriteria)).includes('CONN#'),
    );
    expect(greeter).toHaveLength(1);
    expect(text(greeter[0]?.[1].Properties.EventSourceArn)).toContain(`${TABLES.realtime.id}Table`);
    expect(JSON.parse(greeter[0]?.[1].Properties.FilterCriteria.Filters[0].Pattern)).toEqual(NEW_CONNECTION_FILTERS[0]);
    // The greeter touches no Main table.
    const statements = text(statementsOf(workers, stateless.functions['realtime-greeter'] as IConstruct));
    expect(statements).not.toContain(logicalIdOf(stateful.tables.main));
  });

  it('names the WebSocket API in the pushers\u2019 own template (no cross-stack reference in a grant)', () => {
    expect(Stack.of(stateless.realtime)).toBe(stateless.workerStack);
  });

  it('outputs the WebSocket URL', () => {
    const outputs = Template.fromStack(stateless).toJSON().Outputs as Record<string, unknown>;
    expect(outputs.RealtimeUrl).toBeDefined();
  });
});
