import { readFileSync } from 'node:fs';
import {
  appFacts,
  formatChecks,
  preflightChecks,
  type AccountFacts,
  type Check,
  type StackDescription,
} from '../../scripts/preflight';

/** The preflight's judgement on recorded AWS responses (test/fixtures/preflight/), for app templates made here. */
const fixture = <T = AccountFacts>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/preflight/${name}.json`, import.meta.url), 'utf8')) as T;

/** The rule the CDK adds to every template: bootstrap version 6 or later. */
const BOOTSTRAP_RULE = {
  CheckBootstrapVersion: {
    Assertions: [
      {
        Assert: { 'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }] },
        AssertDescription:
          "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
      },
    ],
  },
};

function template(resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>) {
  return { name: 'MessagingApi', body: JSON.stringify({ Resources: resources, Rules: BOOTSTRAP_RULE }) };
}

const worker = (reserved?: number) => ({
  Type: 'AWS::Lambda::Function',
  Properties: {
    Runtime: 'nodejs22.x',
    ...(reserved ? { ReservedConcurrentExecutions: reserved } : {}),
    Environment: { Variables: { MAIN_TABLE_NAME: { 'Fn::GetStackOutput': { OutputName: 'MainTableName' } } } },
  },
});

const defaultApp = appFacts([template({ A: worker(), B: worker() })], {});
const byName = (checks: Check[], name: string) => checks.find((c) => c.name === name);

it('reads what the app needs from its templates', () => {
  expect(defaultApp).toMatchObject({
    reservedConcurrency: 0,
    bootstrapVersion: 6,
    stagesNeedingAccountRole: [],
    createsAccountRole: false,
    cloudFrontWebAcls: [],
  });
  const realtime = appFacts(
    [
      template({
        A: worker(40),
        B: worker(8),
        Ws: { Type: 'AWS::ApiGatewayV2::Api', Properties: { ProtocolType: 'WEBSOCKET' } },
        WsStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'Ws' } } },
        Http: { Type: 'AWS::ApiGatewayV2::Api', Properties: { ProtocolType: 'HTTP' } },
        HttpStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'Http' } } },
        Acl: { Type: 'AWS::WAFv2::WebACL', Properties: { Scope: 'CLOUDFRONT' } },
      }),
    ],
    { bedrockModelId: 'anthropic.claude-3-5-haiku-20241022-v1:0', apiGatewayCloudWatchRole: 'create' },
  );
  expect(realtime).toMatchObject({
    reservedConcurrency: 48,
    stagesNeedingAccountRole: ['MessagingApi/WsStage'],
    createsAccountRole: true,
    cloudFrontWebAcls: ['MessagingApi/Acl'],
    bedrockModelId: 'anthropic.claude-3-5-haiku-20241022-v1:0',
  });
});

describe('a new account (concurrency quota 10, not bootstrapped, no API Gateway role)', () => {
  const account = fixture('new-account');

  it('fails on the missing bootstrap, and only warns about the low quota when the app reserves nothing', () => {
    const checks = preflightChecks(defaultApp, account);
    expect(byName(checks, 'CDK bootstrap')).toMatchObject({
      status: 'fail',
      action: 'npx cdk bootstrap aws://<account>/us-east-1',
    });
    expect(byName(checks, 'Lambda concurrency')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('quota 10, unreserved 10; the app reserves 0'),
      action: expect.stringContaining('L-B99A9384'),
    });
    // Nothing needs the role yet: a warning for the realtime API to come.
    expect(byName(checks, 'API Gateway account role')).toMatchObject({
      status: 'warn',
      action: expect.stringContaining('apiGatewayCloudWatchRole=create'),
    });
    expect(byName(checks, 'Bedrock model access')?.status).toBe('info');
    const report = formatChecks(checks);
    expect(report.ready).toBe(false);
    expect(report.text).toMatch(/^\[FAIL\] {2}CDK bootstrap: no CDKToolkit stack in us-east-1/m);
    expect(report.text).toContain('        → npx cdk bootstrap aws://<account>/us-east-1');
  });

  it('fails a reservation the quota cannot give, naming the quota to ask for', () => {
    const reserving = { ...defaultApp, reservedConcurrency: 48 };
    expect(byName(preflightChecks(reserving, account), 'Lambda concurrency')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining("leaves -38 unreserved, below Lambda's minimum of 100"),
      action: expect.stringContaining('at least 148'),
    });
  });

  it('fails a WebSocket stage without the account role, unless the app sets it', () => {
    const realtime = { ...defaultApp, stagesNeedingAccountRole: ['MessagingRealtime/Stage'] };
    expect(byName(preflightChecks(realtime, account), 'API Gateway account role')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('CloudWatch Logs role ARN must be set in account settings'),
    });
    expect(
      byName(preflightChecks({ ...realtime, createsAccountRole: true }, account), 'API Gateway account role')?.status,
    ).toBe('pass');
  });

  it('warns that a model without access falls back to the local one', () => {
    const ai = { ...defaultApp, bedrockModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' };
    expect(byName(preflightChecks(ai, account), 'Bedrock model access')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/not authorized for this account.*falls back to the local model/),
      action: expect.stringContaining('Model access'),
    });
  });
});

describe('a production account (bootstrapped, quota 1000, role set, model access granted)', () => {
  const account = fixture('production-account');

  it('passes, with 900 unreserved covering a reservation of 48', () => {
    const app = {
      ...defaultApp,
      reservedConcurrency: 48,
      bedrockModelId: 'eu.anthropic.claude-3-5-haiku-20241022-v1:0',
    };
    const checks = preflightChecks(app, account);
    expect(checks.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
    expect(byName(checks, 'CDK bootstrap')?.detail).toContain('version 28 (6 or later needed), UPDATE_COMPLETE');
    expect(formatChecks(checks).ready).toBe(true);
  });

  it('refuses a cross-region inference profile of another geography', () => {
    const app = { ...defaultApp, bedrockModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' };
    expect(byName(preflightChecks(app, account), 'Bedrock model access')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('which eu-west-1 does not offer'),
    });
  });

  it('fails a bootstrap stack older than the templates need, and one that is not usable', () => {
    const old = { ...account, bootstrap: { response: fixture<StackDescription>('old-bootstrap') } };
    expect(byName(preflightChecks(defaultApp, old), 'CDK bootstrap')).toMatchObject({
      status: 'fail',
      detail: 'CDKToolkit in eu-west-1 is version 0; the templates need 6 or later',
    });
    const stacks = (account.bootstrap as { response: StackDescription }).response.Stacks ?? [];
    const rolledBack = {
      ...account,
      bootstrap: { response: { Stacks: [{ ...stacks[0], StackStatus: 'ROLLBACK_COMPLETE' }] } },
    };
    expect(byName(preflightChecks(defaultApp, rolledBack), 'CDK bootstrap')?.status).toBe('fail');
  });

  it('checks the us-east-1 bootstrap when a CloudFront web ACL deploys there', () => {
    const app = { ...defaultApp, cloudFrontWebAcls: ['MessagingEdge/Acl'] };
    const missing = {
      ...account,
      bootstrapUsEast1: { error: { name: 'ValidationError', message: 'Stack with id CDKToolkit does not exist' } },
    };
    expect(byName(preflightChecks(app, missing), 'WAF for CloudFront (us-east-1)')).toMatchObject({
      status: 'fail',
      action: 'npx cdk bootstrap aws://<account>/us-east-1',
    });
    const there = { ...account, bootstrapUsEast1: account.bootstrap };
    expect(byName(preflightChecks(app, there), 'WAF for CloudFront (us-east-1)')?.status).toBe('pass');
  });

  it('says what to do when the credentials may not read a fact', () => {
    const denied = {
      ...account,
      lambda: {
        error: {
          name: 'AccessDeniedException',
          message: 'User is not authorized to perform: lambda:GetAccountSettings',
        },
      },
    };
    expect(byName(preflightChecks(defaultApp, denied), 'Lambda concurrency')).toMatchObject({
      status: 'fail',
      action: expect.stringContaining('use credentials that may call it'),
    });
  });
});

it("reports the app's use of each quota against its limit", () => {
  const checks = preflightChecks(defaultApp, fixture('production-account'));
  expect(byName(checks, 'Quota: environmentBytes')).toMatchObject({
    status: 'pass',
    detail: expect.stringContaining("of 4096 bytes, kept under 3072 (MessagingApi/A): a Lambda function's environment"),
  });
});
