import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { buildCdkApp } from '../../lib/app';
import { COUNTED_COMMON_RULES, WEB_ACL_ARN_OUTPUT } from '../../lib/api-edge';
import {
  AUTH_ROUTE_IDS,
  DEFAULT_EDGE_TENANT_LIMIT,
  EDGE_AUTH_LIMIT_PER_IP,
  EDGE_WINDOW_SECONDS,
  ORIGIN_VERIFY_HEADER,
  PROVIDER_WEBHOOK_ROUTE_IDS,
  PUBLIC_DOCUMENT_ROUTE_IDS,
  CUSTOMER_PAGE_ROUTE_IDS,
  ROUTE_THROTTLES,
  VIEWER_IP_HEADER,
  routePaths,
} from '../../catalog/edge';
import { problemType } from '../../catalog/problems';
import { ROUTES, gatewayMethodOf } from '../../catalog/routes';
import { WORKERS } from '../../catalog/workers';

// The app's stacks in eu-central-1 (as `cdk deploy` with that region would make them), without bundling.
// The web ACL's stack is in us-east-1 whatever the region: CloudFront only takes web ACLs from there.
function synthIn(region: string, context: Record<string, unknown> = {}) {
  const saved = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  process.env.CDK_DEFAULT_ACCOUNT = '111122223333';
  process.env.CDK_DEFAULT_REGION = region;
  try {
    const built = buildCdkApp(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }));
    built.app.synth();
    return built;
  } finally {
    for (const [name, value] of [
      ['CDK_DEFAULT_ACCOUNT', saved.account],
      ['CDK_DEFAULT_REGION', saved.region],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}

const built = synthIn('eu-central-1');
const api = Template.fromStack(built.stateless);
const edge = Template.fromStack(built.edge);
// The API's front: a nested stack of the API stack with the origin check and CloudFront.
const front = Template.fromStack(built.stateless.front);
const frontId = built.stateless.getLogicalId(built.stateless.front.nestedStackResource as CfnElement);

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
const resources = (t: Template, type: string) => Object.entries(t.findResources(type) as Record<string, Resource>);
const only = (t: Template, type: string): [string, Resource] => {
  const found = resources(t, type);
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};
const logicalIdOf = (construct: IConstruct) =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

const webAcl = only(edge, 'AWS::WAFv2::WebACL')[1].Properties;
const rules = webAcl.Rules as any[];
const rule = (name: string) => {
  const found = rules.find((r) => r.Name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
};
/** The paths, under both prefixes, of these routes. */
const pathsOf = (ids: readonly string[]) => ROUTES.filter((r) => ids.includes(r.id)).flatMap(routePaths);
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');
const allPaths = ROUTES.flatMap(routePaths).map(concrete);
const regexOf = (statement: any) => new RegExp(statement.RegexMatchStatement.RegexString);
const distribution = () => only(front, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
/** A value the front stack takes from the API stack (a nested-stack parameter): what it is there. */
const fromParent = (value: any): any => {
  const parameters = (api.toJSON().Resources[frontId] as Resource).Properties.Parameters ?? {};
  return value?.Ref && value.Ref in parameters ? parameters[value.Ref] : value;
};
/** A front output read by the API stack (`Fn::GetAtt [front, Outputs.X]`): its value in the front stack. */
const fromFront = (value: any): any => {
  const [id, attribute] = value['Fn::GetAtt'];
  expect(id).toBe(frontId);
  return front.toJSON().Outputs[String(attribute).replace(/^Outputs\./, '')]?.Value;
};

describe('the web ACL stack (us-east-1) and the API in another region', () => {
  it('puts the web ACL in us-east-1 and the other stacks in the deployment region', () => {
    expect(built.edge.region).toBe('us-east-1');
    for (const stack of [built.stateful, built.stateless, built.dashboard]) expect(stack.region).toBe('eu-central-1');
    expect(webAcl.Scope).toBe('CLOUDFRONT');
    expect(webAcl.DefaultAction).toEqual({ Allow: {} });
  });

  it('attaches it to the API’s distribution by reading its output across regions, after deploying it', () => {
    expect(edge.toJSON().Outputs[WEB_ACL_ARN_OUTPUT].Value).toEqual({
      'Fn::GetAtt': [only(edge, 'AWS::WAFv2::WebACL')[0], 'Arn'],
    });
    expect(fromParent(distribution().WebACLId)).toEqual({
      'Fn::GetStackOutput': { StackName: built.edge.stackName, Region: 'us-east-1', OutputName: WEB_ACL_ARN_OUTPUT },
    });
    expect(built.stateless.dependencies.map((s) => s.stackName)).toContain(built.edge.stackName);
    // Nothing else crosses: no exports, no custom resources copying values between regions.
    expect(JSON.stringify(api.toJSON())).not.toContain('Fn::ImportValue');
    expect(Object.keys(edge.toJSON().Resources)).toHaveLength(1);
  });

  it('also synthesizes for a deployment in us-east-1 and without a configured region', () => {
    expect(synthIn('us-east-1').stateless.region).toBe('us-east-1');
    const agnostic = buildCdkApp(new App({ context: { 'aws:cdk:bundling-stacks': [] } }));
    agnostic.app.synth();
    expect(agnostic.edge.region).toBe('us-east-1');
  });
});

describe('the WAF rules', () => {
  it('run the AWS common and known-bad-inputs rule groups, blocking as AWS sets them', () => {
    for (const name of ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']) {
      expect(rule(name)).toMatchObject({
        OverrideAction: { None: {} },
        Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: name } },
        VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
      });
    }
    expect(rule('AWSManagedRulesKnownBadInputsRuleSet').Statement.ManagedRuleGroupStatement.RuleActionOverrides).toBe(
      undefined,
    );
  });

  it('count (rather than block) the common set’s body rules: the 8 KB size rule and the patterns free text trips', () => {
    const overrides = rule('AWSManagedRulesCommonRuleSet').Statement.ManagedRuleGroupStatement.RuleActionOverrides;
    expect(overrides).toEqual(COUNTED_COMMON_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })));
    expect(COUNTED_COMMON_RULES).toContain('SizeRestrictions_BODY');
    expect(COUNTED_COMMON_RULES.every((name) => name.endsWith('_BODY'))).toBe(true);
  });

  it('limit login and refresh per source address, above the login guard in the handler', () => {
    const auth = rule('AuthPerSourceAddress');
    const rate = auth.Statement.RateBasedStatement;
    expect(rate).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_AUTH_LIMIT_PER_IP,
      EvaluationWindowSec: EDGE_WINDOW_SECONDS,
    });
    // The handler allows 30 logins a minute per address: its exact 429 answers first.
    expect(EDGE_AUTH_LIMIT_PER_IP).toBeGreaterThan((30 * EDGE_WINDOW_SECONDS) / 60);
    const scope = regexOf(rate.ScopeDownStatement);
    expect(allPaths.filter((p) => scope.test(p)).sort()).toEqual(pathsOf(AUTH_ROUTE_IDS).sort());
    expect(scope.test('/api/v1/auth/login/')).toBe(true);
    // Matched after decoding and normalising, so `/api/v1/auth/%6Cogin` or `//v1/auth/login` count too.
    expect(rate.ScopeDownStatement.RegexMatchStatement.TextTransformations.map((t: any) => t.Type)).toEqual([
      'URL_DECODE',
      'NORMALIZE_PATH',
    ]);
    expect(auth.Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      CustomResponseBodyKey: 'login_rate_limited',
    });
  });

  it('put a ceiling on each tenant credential (X-Tenant-ID and Authorization) far above every plan', () => {
    const ceiling = rule('TenantCredentialCeiling');
    expect(ceiling.Statement.RateBasedStatement).toEqual({
      Limit: DEFAULT_EDGE_TENANT_LIMIT,
      EvaluationWindowSec: EDGE_WINDOW_SECONDS,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [
        { Header: { Name: 'x-tenant-id', TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }] } },
        { Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
      ],
    });
    // The largest fixed plan allows 1,000 an hour; the ceiling is per five minutes.
    expect(DEFAULT_EDGE_TENANT_LIMIT).toBeGreaterThanOrEqual(50 * 1000);
    expect(ceiling.Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      CustomResponseBodyKey: 'rate_limited',
    });
    const configured = synthIn('eu-central-1', { edgeTenantLimit: '200000' });
    const configuredRules = Template.fromStack(configured.edge).toJSON().Resources.WebAcl.Properties.Rules as any[];
    expect(configuredRules.find((r) => r.Name === 'TenantCredentialCeiling').Statement.RateBasedStatement.Limit).toBe(
      200000,
    );
    expect(() => synthIn('eu-central-1', { edgeTenantLimit: '5' })).toThrow(/edgeTenantLimit must be from 10/);
  });

  it('answer their refusals as the API does: documented problem codes and Retry-After', () => {
    const sections = [
      ...readFileSync(new URL('../../docs/problems.md', import.meta.url), 'utf8').matchAll(/^## (.+)$/gm),
    ].map((m) => m[1]);
    for (const name of ['AuthPerSourceAddress', 'TenantCredentialCeiling']) {
      const response = rule(name).Action.Block.CustomResponse;
      expect(response.ResponseHeaders).toContainEqual({ Name: 'Retry-After', Value: String(EDGE_WINDOW_SECONDS) });
      const body = webAcl.CustomResponseBodies[response.CustomResponseBodyKey];
      expect(body.ContentType).toBe('APPLICATION_JSON');
      const problem = JSON.parse(body.Content);
      expect(problem).toMatchObject({ status: 429, title: 'Too Many Requests', type: problemType(problem.code) });
      expect(sections).toContain(problem.code);
    }
  });

  it('never refuse the provider webhooks: outside every rule’s scope, and keyed on headers Meta does not send', () => {
    const webhookPaths = pathsOf(PROVIDER_WEBHOOK_ROUTE_IDS);
    expect(webhookPaths.length).toBeGreaterThanOrEqual(4);
    for (const r of rules) {
      const statement = r.Statement;
      if (statement.ManagedRuleGroupStatement) {
        const excluded = regexOf(statement.ManagedRuleGroupStatement.ScopeDownStatement.NotStatement.Statement);
        expect(allPaths.filter((p) => excluded.test(p)).sort()).toEqual(webhookPaths.map(concrete).sort());
      } else if (r.Name === 'AuthPerSourceAddress') {
        const scope = regexOf(statement.RateBasedStatement.ScopeDownStatement);
        for (const path of webhookPaths.map(concrete)) expect(scope.test(path)).toBe(false);
      } else {
        // A request without a key header is never counted by a custom-key rate rule.
        expect(r.Name).toBe('TenantCredentialCeiling');
        expect(statement.RateBasedStatement.CustomKeys.map((k: any) => k.Header.Name)).toContain('x-tenant-id');
      }
    }
    expect(rules).toHaveLength(4);
  });

  it('place every unauthenticated route (a new provider webhook must be placed before it ships)', () => {
    const placed = [
      ...AUTH_ROUTE_IDS,
      ...PROVIDER_WEBHOOK_ROUTE_IDS,
      ...PUBLIC_DOCUMENT_ROUTE_IDS,
      ...CUSTOMER_PAGE_ROUTE_IDS,
    ];
    expect(
      ROUTES.filter((r) => r.auth === 'none')
        .map((r) => r.id)
        .sort(),
    ).toEqual([...placed].sort());
    expect(new Set(placed).size).toBe(placed.length);
    for (const pattern of rules.flatMap((r) => JSON.stringify(r).match(/"RegexString":"(?:[^"\\]|\\.)*"/g) ?? []))
      expect(JSON.parse(`{${pattern}}`).RegexString.length).toBeLessThanOrEqual(512);
  });
});

describe('the origin check (the API refuses what did not come through CloudFront)', () => {
  const authorizerFnId = logicalIdOf(built.stateless.front.authorizerFunction);
  const secretId = logicalIdOf(built.stateless.front.secret);

  it('guards every route, the $default one too, with the origin authorizer', () => {
    const [authorizerId, authorizer] = only(front, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      // Without this header API Gateway answers 401 itself: no function runs.
      IdentitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`],
      AuthorizerResultTtlInSeconds: 300,
      EnableSimpleResponses: true,
      AuthorizerPayloadFormatVersion: '2.0',
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(authorizerFnId);
    const routes = resources(api, 'AWS::ApiGatewayV2::Route');
    expect(routes.length).toBe(ROUTES.length * 2 + 1);
    for (const [, route] of routes)
      expect([
        route.Properties.RouteKey,
        route.Properties.AuthorizationType,
        fromFront(route.Properties.AuthorizerId),
      ]).toEqual([route.Properties.RouteKey, 'CUSTOM', { Ref: authorizerId }]);
    // API Gateway may invoke it for this API's authorizer only.
    const permissions = resources(front, 'AWS::Lambda::Permission').filter(([, p]) =>
      JSON.stringify(p.Properties.SourceArn).includes('/authorizers/'),
    );
    expect(permissions).toHaveLength(1);
    const permission = permissions[0]?.[1];
    expect(JSON.stringify(permission?.Properties.SourceArn)).toContain(`/authorizers/",{"Ref":"${authorizerId}"}`);
    expect(permission?.Properties.FunctionName).toEqual({ 'Fn::GetAtt': [authorizerFnId, 'Arn'] });
    expect(routes.map(([, r]) => r.Properties.RouteKey)).toContain('$default');
  });

  it('has CloudFront send the secret that the authorizer reads, and nothing else may read it', () => {
    const [origin] = distribution().Origins as any[];
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: ORIGIN_VERIFY_HEADER,
        HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] },
      },
    ]);
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    // Operators find it for a rotation by the API stack's output.
    expect(fromFront(api.toJSON().Outputs.OriginSecretArn.Value)).toEqual({ Ref: secretId });
    const fn = front.toJSON().Resources[authorizerFnId] as Resource;
    expect(fn.Properties.Environment.Variables.ORIGIN_SECRET_SECRET_ARN).toEqual({ Ref: secretId });
    const readers = resources(front, 'AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.PolicyDocument).includes(`"Ref":"${secretId}"`),
    );
    expect(readers).toHaveLength(1);
    const statements = JSON.stringify(readers[0]?.[1].Properties.PolicyDocument.Statement);
    expect(statements).not.toMatch(/dynamodb:|sqs:|bedrock:/);
  });

  it('pins the header to a secret version after a rotation (-c originSecretVersion), so CloudFront reads it again', () => {
    const version = '3f6a2b1c-0d4e-4f5a-9b8c-7d6e5f4a3b2c';
    const rotated = synthIn('eu-central-1', { originSecretVersion: version });
    const config = only(Template.fromStack(rotated.stateless.front), 'AWS::CloudFront::Distribution')[1].Properties
      .DistributionConfig;
    expect(JSON.stringify(config.Origins[0].OriginCustomHeaders[0].HeaderValue)).toContain(
      `:SecretString:::${version}}}`,
    );
  });

  it('forwards every viewer header but Host, caches nothing, and gives the API the viewer’s address', () => {
    const behavior = distribution().DefaultCacheBehavior;
    expect(behavior).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
    });
    expect(behavior.AllowedMethods).toEqual(
      expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'POST', 'PATCH', 'DELETE']),
    );
    const [fnId, fn] = only(front, 'AWS::CloudFront::Function');
    expect(behavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
    // The function as CloudFront runs it: a viewer cannot choose the address the API sees.
    const handler = runInNewContext(`${fn.Properties.FunctionCode}; handler`) as (e: unknown) => any;
    const request = handler({
      viewer: { ip: '198.51.100.23' },
      request: { uri: '/api/v1/auth/login', headers: { [VIEWER_IP_HEADER]: { value: '10.0.0.1' } } },
    });
    expect(request.headers[VIEWER_IP_HEADER]).toEqual({ value: '198.51.100.23' });
    // Route functions take it from there; workers have no viewer.
    const functions = Object.fromEntries(
      [built.stateless, built.stateless.workerStack, ...Object.values(built.stateless.routeStacks)].flatMap((s) =>
        resources(Template.fromStack(s), 'AWS::Lambda::Function'),
      ),
    );
    for (const route of ROUTES)
      expect(
        functions[logicalIdOf(built.stateless.functions[route.id] as IConstruct)]?.Properties.Environment.Variables
          .VIEWER_IP_FROM_EDGE,
      ).toBe('true');
    for (const worker of WORKERS)
      expect(
        functions[logicalIdOf(built.stateless.functions[worker.id] as IConstruct)]?.Properties.Environment.Variables
          .VIEWER_IP_FROM_EDGE,
      ).toBeUndefined();
  });

  it('outputs the CloudFront URL as the API URL (the dashboard gets it too: dashboard.test.ts)', () => {
    const [distributionId] = only(front, 'AWS::CloudFront::Distribution');
    const { ApiUrl, OpenApiUrl } = api.toJSON().Outputs;
    const [, [scheme, domain, path]] = ApiUrl.Value['Fn::Join'];
    expect([scheme, fromFront(domain), path]).toEqual([
      'https://',
      { 'Fn::GetAtt': [distributionId, 'DomainName'] },
      '/',
    ]);
    expect(OpenApiUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', domain, '/api/v1/openapi.json']] });
  });
});

describe('route throttles at the stage', () => {
  const [, stage] = only(api, 'AWS::ApiGatewayV2::Stage');

  it('give every unauthenticated and operator route, under both prefixes, its own limit below the stage default', () => {
    const settings = stage.Properties.RouteSettings as Record<string, any>;
    const throttled = ROUTES.filter((r) => r.auth !== 'tenant');
    expect(throttled.map((r) => r.id).sort()).toEqual(Object.keys(ROUTE_THROTTLES).sort());
    const expected = Object.fromEntries(
      throttled.flatMap((route) =>
        routePaths(route).map((path) => [
          `${gatewayMethodOf(route)} ${path}`,
          {
            ThrottlingRateLimit: ROUTE_THROTTLES[route.id]?.rateLimit,
            ThrottlingBurstLimit: ROUTE_THROTTLES[route.id]?.burstLimit,
          },
        ]),
      ),
    );
    expect(settings).toEqual(expected);
    const defaults = stage.Properties.DefaultRouteSettings;
    for (const s of Object.values(settings)) {
      expect(s.ThrottlingRateLimit).toBeLessThan(defaults.ThrottlingRateLimit);
      expect(s.ThrottlingBurstLimit).toBeLessThan(defaults.ThrottlingBurstLimit);
    }
  });

  it('deploy the stage after the routes it names (a missing route key fails the deployment)', () => {
    const routeIds = Object.fromEntries(
      resources(api, 'AWS::ApiGatewayV2::Route').map(([id, r]) => [r.Properties.RouteKey, id]),
    );
    for (const key of Object.keys(stage.Properties.RouteSettings)) expect(stage.DependsOn).toContain(routeIds[key]);
  });

  it('never exceed a lower stage default (-c apiRateLimit)', () => {
    const low = synthIn('eu-central-1', { apiRateLimit: '30', apiBurstLimit: '60' });
    const settings = only(Template.fromStack(low.stateless), 'AWS::ApiGatewayV2::Stage')[1].Properties.RouteSettings;
    expect(settings['POST /api/v1/channels/whatsapp/webhook']).toEqual({
      ThrottlingRateLimit: 30,
      ThrottlingBurstLimit: 60,
    });
    expect(settings['POST /api/v1/auth/login']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
  });
});
