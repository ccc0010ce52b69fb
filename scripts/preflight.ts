/**
 * `npm run ops -- preflight`: read-only checks of an AWS account before a deploy. This module is the pure
 * part: what the app needs (read from its synthesized templates) against what the account has (AWS's
 * responses, gathered by scripts/preflight-aws.ts), as checks with a status and what to do.
 * test/unit/preflight.test.ts runs it on recorded responses (test/fixtures/preflight/).
 */
import { QUOTAS, highestUsage, quotaUsage, type SynthesizedTemplate } from './quotas';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (for warn and fail). */
  action?: string;
}

/** An AWS call's outcome, as recorded: its response, or the error it raised. */
export type Outcome<T> = { response: T } | { error: { name: string; message: string } };

/** What the app needs of the account, from its synthesized templates and context values. */
export interface AppFacts {
  /** Concurrency reserved by the app's functions (`-c workerConcurrency.<id>=N`). */
  reservedConcurrency: number;
  /** The lowest CDK bootstrap version the templates accept (their CheckBootstrapVersion rule). */
  bootstrapVersion: number;
  /** REST or WebSocket stages in the templates: they log only through API Gateway's account role. */
  stagesNeedingAccountRole: string[];
  /** The app sets the account role itself (`-c apiGatewayCloudWatchRole=create`). */
  createsAccountRole: boolean;
  /** WAF web ACLs for CloudFront (scope CLOUDFRONT): they exist only in us-east-1. */
  cloudFrontWebAcls: string[];
  bedrockModelId?: string;
  templates: SynthesizedTemplate[];
}

/** AWS's responses (recorded in the fixtures), as the SDK returns them without $metadata. */
export interface AccountFacts {
  region: string;
  /** Lambda GetAccountSettings. */
  lambda: Outcome<{ AccountLimit?: { ConcurrentExecutions?: number; UnreservedConcurrentExecutions?: number } }>;
  /** CloudFormation DescribeStacks of CDKToolkit in the deploy region (and in us-east-1 when a CloudFront WAF needs it). */
  bootstrap: Outcome<StackDescription>;
  bootstrapUsEast1?: Outcome<StackDescription>;
  /** API Gateway GetAccount. */
  apiGatewayAccount: Outcome<{ cloudwatchRoleArn?: string }>;
  /** Bedrock GetFoundationModelAvailability of the model (the base model of an inference profile). */
  bedrockModel?: Outcome<{
    modelId?: string;
    agreementAvailability?: { status?: string; errorMessage?: string };
    authorizationStatus?: string;
    entitlementAvailability?: string;
    regionAvailability?: string;
  }>;
}

export interface StackDescription {
  Stacks?: { StackName?: string; StackStatus?: string; Outputs?: { OutputKey?: string; OutputValue?: string }[] }[];
}

/** Lambda keeps this much of the account's concurrency unreserved, whatever functions ask for. */
export const MIN_UNRESERVED_CONCURRENCY = 100;
/** The concurrency quota AWS's documentation names as the default; new accounts often start at 10. */
const PRODUCTION_CONCURRENCY = 1000;

type Template = {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Rules?: Record<string, { Assertions?: { Assert?: unknown }[] }>;
};

/** The app's side, read from its templates (and the context values that no template shows). */
export function appFacts(
  templates: SynthesizedTemplate[],
  context: { bedrockModelId?: string; apiGatewayCloudWatchRole?: string },
): AppFacts {
  let reserved = 0;
  let bootstrapVersion = 0;
  const stages: string[] = [];
  const acls: string[] = [];
  for (const { name, body } of templates) {
    const template = JSON.parse(body) as Template;
    const resources = Object.entries(template.Resources ?? {});
    const webSocketApis = new Set(
      resources
        .filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Api' && r.Properties?.ProtocolType === 'WEBSOCKET')
        .map(([id]) => id),
    );
    for (const [id, r] of resources) {
      if (r.Type === 'AWS::Lambda::Function') reserved += Number(r.Properties?.ReservedConcurrentExecutions ?? 0);
      if (r.Type === 'AWS::ApiGateway::Stage') stages.push(`${name}/${id}`);
      const apiId = (r.Properties?.ApiId as { Ref?: string } | undefined)?.Ref;
      if (r.Type === 'AWS::ApiGatewayV2::Stage' && apiId && webSocketApis.has(apiId)) stages.push(`${name}/${id}`);
      if (r.Type === 'AWS::WAFv2::WebACL' && r.Properties?.Scope === 'CLOUDFRONT') acls.push(`${name}/${id}`);
    }
    // The rule the CDK adds: Fn::Not [Fn::Contains [["1", …, "5"], {Ref: BootstrapVersion}]].
    const refused = JSON.stringify(template.Rules?.CheckBootstrapVersion ?? {}).match(/\[((?:"\d+",?)+)\]/);
    if (refused?.[1])
      bootstrapVersion = Math.max(bootstrapVersion, ...refused[1].split(',').map((v) => Number(JSON.parse(v)) + 1));
  }
  return {
    reservedConcurrency: reserved,
    bootstrapVersion,
    stagesNeedingAccountRole: stages,
    createsAccountRole: context.apiGatewayCloudWatchRole === 'create',
    cloudFrontWebAcls: acls,
    bedrockModelId: context.bedrockModelId || undefined,
    templates,
  };
}

const failed = <T>(outcome: Outcome<T> | undefined): outcome is { error: { name: string; message: string } } =>
  !!outcome && 'error' in outcome;

const accessDenied = (name: string, what: string, error: { name: string; message: string }): Check => ({
  name,
  status: 'fail',
  detail: `could not read ${what}: ${error.name}: ${error.message}`,
  action: /AccessDenied|UnrecognizedClient|ExpiredToken|Credentials/i.test(error.name)
    ? `use credentials that may call it (the deploy role's, or an administrator's), then run the preflight again`
    : 'check the region and the network, then run the preflight again',
});

function lambdaConcurrency(app: AppFacts, account: AccountFacts): Check {
  const name = 'Lambda concurrency';
  if (failed(account.lambda))
    return accessDenied(name, 'Lambda account settings (GetAccountSettings)', account.lambda.error);
  const quota = account.lambda.response.AccountLimit?.ConcurrentExecutions ?? 0;
  const unreserved = account.lambda.response.AccountLimit?.UnreservedConcurrentExecutions ?? quota;
  const reserved = app.reservedConcurrency;
  const left = unreserved - reserved;
  // On an upgrade, what the deployed app already reserves is out of `unreserved` too: counted twice, erring safe.
  const detail = `quota ${quota}, unreserved ${unreserved}; the app reserves ${reserved}${reserved > 0 ? ' (on an upgrade, its current reservations are counted twice)' : ''}`;
  if (reserved > 0 && left < MIN_UNRESERVED_CONCURRENCY)
    return {
      name,
      status: 'fail',
      detail: `${detail}: that leaves ${left} unreserved, below Lambda's minimum of ${MIN_UNRESERVED_CONCURRENCY}, so the deploy would roll back ("decreases account's UnreservedConcurrentExecution below its minimum value")`,
      action: `deploy without the workerConcurrency.* values, or request a Lambda "Concurrent executions" quota of at least ${quota - unreserved + reserved + MIN_UNRESERVED_CONCURRENCY} (Service Quotas, L-B99A9384) first`,
    };
  if (quota < PRODUCTION_CONCURRENCY)
    return {
      name,
      status: 'warn',
      detail: `${detail}: the deploy works (nothing is reserved), but every function of the account shares ${quota} concurrent executions, so a burst of requests is throttled (429)`,
      action: `before production traffic, request a Lambda "Concurrent executions" quota of ${PRODUCTION_CONCURRENCY} (Service Quotas, L-B99A9384)`,
    };
  return { name, status: 'pass', detail };
}

/** A stack in one of these can be deployed with (an update that rolled back left the last good one). */
const USABLE_STACK_STATUSES = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE'];

function bootstrapCheck(
  name: string,
  outcome: Outcome<StackDescription> | undefined,
  region: string,
  needed: number,
): Check {
  const command = `npx cdk bootstrap aws://<account>/${region}`;
  if (!outcome) return { name, status: 'info', detail: 'not checked' };
  if (failed(outcome)) {
    if (/does not exist/i.test(outcome.error.message))
      return {
        name,
        status: 'fail',
        detail: `no CDKToolkit stack in ${region}: the deploy has no bucket for its assets and no roles to deploy with`,
        action: command,
      };
    return accessDenied(name, `the CDKToolkit stack in ${region} (DescribeStacks)`, outcome.error);
  }
  const stack = outcome.response.Stacks?.[0];
  const status = stack?.StackStatus ?? 'unknown';
  const version = Number(stack?.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue ?? 0);
  if (!USABLE_STACK_STATUSES.includes(status))
    return {
      name,
      status: 'fail',
      detail: `CDKToolkit in ${region} is ${status}`,
      action: `wait for it to finish; if it failed or rolled back, delete it and run ${command}`,
    };
  if (version < needed)
    return {
      name,
      status: 'fail',
      detail: `CDKToolkit in ${region} is version ${version}; the templates need ${needed} or later`,
      action: `${command} (upgrades it in place)`,
    };
  return {
    name,
    status: 'pass',
    detail: `CDKToolkit in ${region}, version ${version} (${needed} or later needed), ${status}`,
  };
}

function apiGatewayRole(app: AppFacts, account: AccountFacts): Check {
  const name = 'API Gateway account role';
  const needed = app.stagesNeedingAccountRole;
  const why =
    needed.length > 0
      ? `${needed.length} REST or WebSocket stage(s) log through it (${needed.slice(0, 3).join(', ')})`
      : 'no stage of this version needs it (HTTP API stages log without it); a WebSocket or REST stage will';
  const howTo =
    'deploy with -c apiGatewayCloudWatchRole=create (the app sets a role with AmazonAPIGatewayPushToCloudWatchLogs, retained), or set one yourself in the API Gateway console (Settings, CloudWatch log role ARN)';
  if (app.createsAccountRole)
    return {
      name,
      status: 'pass',
      detail: `the app sets it (apiGatewayCloudWatchRole=create); ${why}`,
      ...(!failed(account.apiGatewayAccount) && account.apiGatewayAccount.response.cloudwatchRoleArn
        ? {
            detail: `the app sets it (apiGatewayCloudWatchRole=create), replacing ${account.apiGatewayAccount.response.cloudwatchRoleArn} for every API in ${account.region}; ${why}`,
          }
        : {}),
    };
  if (failed(account.apiGatewayAccount))
    return needed.length > 0
      ? accessDenied(name, "API Gateway's account settings (GetAccount)", account.apiGatewayAccount.error)
      : { name, status: 'info', detail: `${why}; could not read it: ${account.apiGatewayAccount.error.name}` };
  const arn = account.apiGatewayAccount.response.cloudwatchRoleArn;
  if (arn) return { name, status: 'pass', detail: `${arn}; ${why}` };
  return needed.length > 0
    ? {
        name,
        status: 'fail',
        detail: `none set in ${account.region}; ${why}: the deploy fails with "CloudWatch Logs role ARN must be set in account settings to enable logging"`,
        action: howTo,
      }
    : {
        name,
        status: 'warn',
        detail: `none set in ${account.region}; ${why}`,
        action: `before the realtime API: ${howTo}`,
      };
}

/** Cross-region inference profiles by prefix, and the regions they are offered in. */
const PROFILE_REGIONS: Record<string, RegExp> = {
  us: /^us-/,
  eu: /^eu-/,
  apac: /^ap-/,
  'us-gov': /^us-gov-/,
  global: /./,
};

function bedrockAccess(app: AppFacts, account: AccountFacts): Check {
  const name = 'Bedrock model access';
  const model = app.bedrockModelId;
  if (!model) return { name, status: 'info', detail: 'no bedrockModelId: AI runs on the local model' };
  const prefix = /^(us-gov|us|eu|apac|global)\./.exec(model)?.[1];
  if (prefix && !PROFILE_REGIONS[prefix]?.test(account.region))
    return {
      name,
      status: 'fail',
      detail: `${model} is a "${prefix}." cross-region inference profile, which ${account.region} does not offer`,
      action: `deploy to a region it serves, or pick the profile of ${account.region}'s geography`,
    };
  const fallback = 'until then every AI call falls back to the local model (and says so)';
  if (!account.bedrockModel) return { name, status: 'info', detail: `${model}: not checked` };
  if (failed(account.bedrockModel))
    return {
      name,
      status: 'warn',
      detail: `${model}: could not read its availability (${account.bedrockModel.error.name}: ${account.bedrockModel.error.message}); ${fallback}`,
      action: 'check the model id, and model access in the Bedrock console of this region',
    };
  const r = account.bedrockModel.response;
  const problems = [
    r.regionAvailability !== 'AVAILABLE' && `not offered in ${account.region}`,
    r.entitlementAvailability !== 'AVAILABLE' && 'no entitlement (a Marketplace subscription is missing)',
    r.authorizationStatus !== 'AUTHORIZED' && 'not authorized for this account',
    r.agreementAvailability?.status !== 'AVAILABLE' &&
      `its agreement is ${r.agreementAvailability?.status ?? 'missing'}${r.agreementAvailability?.errorMessage ? ` (${r.agreementAvailability.errorMessage})` : ''}`,
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length === 0) return { name, status: 'pass', detail: `${model}: available to this account` };
  return {
    name,
    status: 'warn',
    detail: `${model}: ${problems.join('; ')}; ${fallback}`,
    action: `in the Bedrock console of ${account.region}, Model access: request ${r.modelId ?? model} (Anthropic models ask for a use-case form once)`,
  };
}

function cloudFrontWaf(app: AppFacts, account: AccountFacts): Check {
  const name = 'WAF for CloudFront (us-east-1)';
  if (app.cloudFrontWebAcls.length === 0)
    return {
      name,
      status: 'info',
      detail:
        'no CloudFront web ACL in this version. Web ACLs for CloudFront (scope CLOUDFRONT) exist only in us-east-1: the stack that holds one deploys there, and needs its own bootstrap there',
    };
  if (account.region === 'us-east-1')
    return { name, status: 'pass', detail: `${app.cloudFrontWebAcls.length} web ACL(s), deployed in us-east-1` };
  return bootstrapCheck(name, account.bootstrapUsEast1, 'us-east-1', app.bootstrapVersion);
}

/** The app's use of each quota (its highest), against AWS's limit and the headroom kept. */
function quotaChecks(app: AppFacts): Check[] {
  return highestUsage(quotaUsage(app.templates)).map((row) => {
    const q = QUOTAS[row.quota];
    const over = row.used > q.max;
    return {
      name: `Quota: ${row.quota}`,
      status: row.used > q.limit ? 'fail' : over ? 'warn' : 'pass',
      detail: `${row.used} of ${q.limit} ${q.unit}, kept under ${q.max} (${row.where}): ${q.guards}`,
      ...(over
        ? { action: 'split the stack or the resource before adding more, or request more where adjustable' }
        : {}),
    } satisfies Check;
  });
}

export function preflightChecks(app: AppFacts, account: AccountFacts): Check[] {
  return [
    bootstrapCheck('CDK bootstrap', account.bootstrap, account.region, app.bootstrapVersion),
    lambdaConcurrency(app, account),
    apiGatewayRole(app, account),
    cloudFrontWaf(app, account),
    bedrockAccess(app, account),
    ...quotaChecks(app),
  ];
}

/** The report: one line per check, what to do under it, and a summary; ready unless something failed. */
export function formatChecks(checks: Check[]): { text: string; ready: boolean } {
  const lines = checks.flatMap((c) => [
    `${`[${c.status.toUpperCase()}]`.padEnd(7)} ${c.name}: ${c.detail}`,
    ...(c.action ? [`        → ${c.action}`] : []),
  ]);
  const count = (s: CheckStatus) => checks.filter((c) => c.status === s).length;
  const ready = count('fail') === 0;
  lines.push(
    '',
    `Preflight: ${count('fail')} to fix, ${count('warn')} to consider, ${count('pass')} fine; ${ready ? 'ready to deploy' : 'fix the failures before deploying'}`,
  );
  return { text: lines.join('\n'), ready };
}
