import { App, Validations, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks } from 'cdk-nag';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { buildCdkApp } from '../../lib/app';
import { HASHED_ASSETS_PATH, RUNTIME_CONFIG_KEY, type DashboardStack } from '../../lib/dashboard-hosting';
import { assembly, built, dashboardDist } from './synth';

// The infra tests' one real synth (./synth.ts), with a tiny stand-in dashboard build; the placeholder
// case below has no build and needs no function bundling.
const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };
const site = Template.fromStack(built.dashboard);
const apiTemplate = Template.fromStack(built.stateless);

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (t: Template, type: string) => Object.entries(t.findResources(type) as Record<string, Resource>);
const only = (t: Template, type: string): [string, Resource] => {
  const found = resources(t, type);
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};
const logicalId = (stack: DashboardStack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);
const distributionConfig = (t: Template) => only(t, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
const behaviors = (t: Template) => {
  const config = distributionConfig(t);
  return {
    default: config.DefaultCacheBehavior,
    ...Object.fromEntries((config.CacheBehaviors as any[]).map((b) => [b.PathPattern, b])),
  } as Record<string, any>;
};
const headersPolicy = (t: Template, ref: any) =>
  (t.toJSON().Resources[ref.Ref] as Resource).Properties.ResponseHeadersPolicyConfig;

/** What a `Fn::GetStackOutput` of the API stack stands for there (weak references). */
function fromApi(value: any): any {
  const ref = value?.['Fn::GetStackOutput'];
  expect(ref?.StackName).toBe(built.stateless.stackName);
  return (apiTemplate.toJSON().Outputs as Record<string, { Value: unknown }>)[ref.OutputName]?.Value;
}
/** The API's public host name, its CloudFront distribution's (lib/api-edge.ts), which the API stack outputs. */
const apiDomain = (value: any) => {
  const [nestedId, attribute] = value['Fn::GetAtt'];
  const front = built.stateless.front;
  expect(nestedId).toBe(built.stateless.getLogicalId(front.nestedStackResource as CfnElement));
  const outputs = Template.fromStack(front).toJSON().Outputs as Record<string, { Value: unknown }>;
  expect(outputs[String(attribute).replace(/^Outputs\./, '')]?.Value).toEqual({
    'Fn::GetAtt': [front.getLogicalId(front.distribution.node.defaultChild as CfnElement), 'DomainName'],
  });
  return true;
};

/** The files of a deployed source, as staged in the cloud assembly. */
function stagedFiles(objectKey: string, names: string[]): Record<string, string> {
  const dir = join(assembly.directory, `asset.${objectKey.replace(/\.zip$/, '')}`);
  expect(existsSync(dir)).toBe(true);
  return Object.fromEntries(
    names.filter((name) => existsSync(join(dir, name))).map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}
const deployment = (t: Template) => only(t, 'Custom::CDKBucketDeployment')[1].Properties;

describe('dashboard hosting', () => {
  it('keeps the build in a private, encrypted, TLS-only bucket without website hosting, readable only by the distribution (OAC)', () => {
    const bucketId = logicalId(built.dashboard, built.dashboard.bucket);
    const bucket = site.toJSON().Resources[bucketId] as Resource;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(built.dashboard, built.dashboard.logBucket) } },
    });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    // Build output, not data: removed with the stack (its objects too).
    expect((bucket as any).DeletionPolicy).toBe('Delete');

    const policy = resources(site, 'AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === bucketId)?.[1];
    const statements = policy?.Properties.PolicyDocument.Statement as any[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const [distributionId] = only(site, 'AWS::CloudFront::Distribution');
    const reads = statements.filter((s) => s.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(reads[0].Condition)).toContain(distributionId);
    // Nobody else: no public principal is allowed anything.
    expect(statements.filter((s) => s.Effect === 'Allow' && s.Principal === '*')).toEqual([]);

    const [oacId, oac] = only(site, 'AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const origins = distributionConfig(site).Origins as any[];
    expect(origins).toHaveLength(1);
    expect(origins[0].OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(origins[0].DomainName).toEqual({ 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] });
  });

  it('serves HTTPS only, with a strict CSP (the API origin allowed for connections), HSTS and the other security headers', () => {
    const all = behaviors(site);
    expect(Object.keys(all).sort()).toEqual([`/${RUNTIME_CONFIG_KEY}`, HASHED_ASSETS_PATH, 'default'].sort());
    for (const b of Object.values(all)) {
      expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(b.AllowedMethods).toEqual(['GET', 'HEAD']);
      const config = headersPolicy(site, b.ResponseHeadersPolicyId);
      const security = config.SecurityHeadersConfig;
      const csp = security.ContentSecurityPolicy.ContentSecurityPolicy;
      expect(security.ContentSecurityPolicy.Override).toBe(true);
      // The CSP is a Fn::Join: the API origin is read from the API stack's ApiEndpoint.
      const parts = csp['Fn::Join'][1] as any[];
      const text = parts.map((p) => (typeof p === 'string' ? p : '<api>')).join('');
      // The realtime WebSocket API's URL (wss://<id>.execute-api.<region>.<suffix>/v1) is allowed too, and the
      // media bucket's origin (presigned downloads shown, presigned uploads sent).
      expect(text).toMatch(
        /connect-src 'self' https:\/\/<api> wss:\/\/<api>\.execute-api\.<api>\.<api>\/v1 https:\/\/<api>;/,
      );
      expect(text.replace(/ wss:\/\/\S+\/v1/, '')).toBe(
        [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self'",
          "img-src 'self' data: https://<api>",
          "media-src 'self' https://<api>",
          "font-src 'self' data:",
          "connect-src 'self' https://<api> https://<api>",
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'none'",
        ].join('; '),
      );
      const fromStack = (stack: { stackName: string }) =>
        parts.filter((p) => typeof p !== 'string' && p['Fn::GetStackOutput']?.StackName === stack.stackName);
      expect(apiDomain(fromApi(fromStack(built.stateless)[0]))).toBe(true);
      // The media origin is the stateful stack's bucket (its regional domain name).
      expect(fromStack(built.stateful)).toHaveLength(3);
      expect(text).not.toMatch(/unsafe/);
      expect(security).toMatchObject({
        StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
        ContentTypeOptions: { Override: true },
        FrameOptions: { FrameOption: 'DENY', Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
      });
    }
    // The default certificate (no custom domain): CloudFront's own *.cloudfront.net.
    expect(distributionConfig(site).ViewerCertificate).toBeUndefined();
  });

  it('falls back to index.html for app routes only: never for /config.json or a missing asset', () => {
    const all = behaviors(site);
    const associations = all.default.FunctionAssociations as any[];
    expect(associations).toHaveLength(1);
    expect(associations[0].EventType).toBe('viewer-request');
    expect(all[`/${RUNTIME_CONFIG_KEY}`].FunctionAssociations).toBeUndefined();
    expect(all[HASHED_ASSETS_PATH].FunctionAssociations).toBeUndefined();
    // No distribution-wide error pages: those would turn a missing config.json into index.html too.
    expect(distributionConfig(site).CustomErrorResponses).toBeUndefined();
    expect(distributionConfig(site).DefaultRootObject).toBe('index.html');

    const [fnId, fn] = only(site, 'AWS::CloudFront::Function');
    expect(associations[0].FunctionARN).toEqual({ 'Fn::GetAtt': [fnId, 'FunctionARN'] });
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const handler = runInNewContext(`${fn.Properties.FunctionCode}; handler`) as (e: unknown) => { uri: string };
    const served = (uri: string) => handler({ request: { uri, headers: {} } }).uri;
    expect(served('/')).toBe('/index.html');
    expect(served('/settings/webhooks')).toBe('/index.html');
    expect(served('/inbox/01J9ZK3M7Q')).toBe('/index.html');
    expect(served('/config.json')).toBe('/config.json');
    expect(served('/assets/index-3f9a1c.js')).toBe('/assets/index-3f9a1c.js');
    expect(served('/favicon.svg')).toBe('/favicon.svg');
  });

  it('never caches index.html or config.json, and caches hashed assets for a year', () => {
    const all = behaviors(site);
    const cacheControl = (b: any) =>
      (headersPolicy(site, b.ResponseHeadersPolicyId).CustomHeadersConfig.Items as any[]).find(
        (h) => h.Header === 'Cache-Control',
      );
    for (const key of ['default', `/${RUNTIME_CONFIG_KEY}`]) {
      expect(all[key].CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(cacheControl(all[key])).toEqual({ Header: 'Cache-Control', Value: 'no-cache', Override: true });
    }
    const assets = all[HASHED_ASSETS_PATH];
    expect(assets.CachePolicyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
    expect(cacheControl(assets)?.Value).toBe('public, max-age=31536000, immutable');
  });

  it('deploys the build and config.json with the API URL, filled in at deploy time', () => {
    const props = deployment(site);
    expect(props.DestinationBucketName).toEqual({ Ref: logicalId(built.dashboard, built.dashboard.bucket) });
    expect(props.Prune).toBe(false);
    expect(props.SourceObjectKeys).toHaveLength(2);
    const [buildKey, configKey] = props.SourceObjectKeys as string[];
    expect(built.dashboard.placeholder).toBe(false);
    expect(stagedFiles(buildKey as string, ['index.html', 'assets/index-3f9a1c.js', RUNTIME_CONFIG_KEY])).toEqual({
      'index.html': '<!doctype html><title>Dashboard build</title>',
      'assets/index-3f9a1c.js': 'console.log(1);',
    });
    const config = stagedFiles(configKey as string, [RUNTIME_CONFIG_KEY])[RUNTIME_CONFIG_KEY] ?? '';
    const [marker, value] = Object.entries(props.SourceMarkers[1] as Record<string, unknown>)[0] ?? [];
    expect(JSON.parse(config)).toEqual({ apiUrl: `https://${marker}` });
    // The marker is the API's URL (https://<id>.cloudfront.net, no slash).
    expect(apiDomain(fromApi(value))).toBe(true);
    // The deployment function keeps its logs a month, like the API's functions.
    const [, logs] = only(site, 'AWS::Logs::LogGroup');
    expect(logs.Properties.RetentionInDays).toBe(30);
  });

  it('outputs DashboardUrl and logs CloudFront and S3 access to an expiring log bucket', () => {
    const [distributionId] = only(site, 'AWS::CloudFront::Distribution');
    expect(site.toJSON().Outputs.DashboardUrl.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']],
    });
    const logBucketId = logicalId(built.dashboard, built.dashboard.logBucket);
    expect(distributionConfig(site).Logging.Bucket).toEqual({ 'Fn::GetAtt': [logBucketId, 'RegionalDomainName'] });
    const logBucket = site.toJSON().Resources[logBucketId] as Resource;
    expect(logBucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] },
    });
  });

  it('reads the API and stateful stacks weakly and is not read by them (no cycle), within the resource limit', () => {
    const text = JSON.stringify(site.toJSON());
    expect(text).not.toContain('Fn::ImportValue');
    expect(text).toContain('Fn::GetStackOutput');
    // The API's origins from the API stack; the media bucket's origin (for the CSP) from the stateful stack.
    const outputs = { ...apiTemplate.toJSON().Outputs, ...Template.fromStack(built.stateful).toJSON().Outputs };
    for (const [, outputName] of text.matchAll(/"OutputName":"([^"]+)"/g))
      expect(outputs).toHaveProperty([outputName as string]);
    for (const stack of [built.stateless, built.stateful])
      expect(JSON.stringify(Template.fromStack(stack).toJSON())).not.toContain(built.dashboard.stackName);
    expect(built.dashboard.dependencies.map((s) => s.stackName).sort()).toEqual(
      [built.stateless.stackName, built.stateful.stackName].sort(),
    );
    expect(Object.keys(site.toJSON().Resources).length).toBeLessThanOrEqual(50);
  });

  it('has zero unacknowledged cdk-nag findings, acknowledging only what must be (each with its reason)', () => {
    const report = new AwsSolutionsChecks().validateScope(built.dashboard);
    expect(
      report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
    const acknowledged = built.dashboard.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    for (const [, reason] of acknowledged) expect(reason.length).toBeGreaterThan(20);
    expect(acknowledged.map(([id]) => id.replace(/^Annotation::/, '').replace(/\[.*$/, '')).sort()).toEqual(
      [
        'AwsSolutions-CFR1', // geo restriction
        'AwsSolutions-CFR2', // WAF
        'AwsSolutions-CFR4', // the default certificate
        'AwsSolutions-IAM4', // BucketDeployment's function: basic execution role
        ...Array(7).fill('AwsSolutions-IAM5'), // BucketDeployment's function: CDK's S3 grants
        'AwsSolutions-L1', // BucketDeployment's function: CDK's runtime
      ].sort(),
    );
  });
});

describe('dashboard hosting without a build, and with its own domain', () => {
  const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-1111-2222-3333-444455556666';
  const configured = buildCdkApp(
    new App({
      context: { ...NO_BUNDLING, dashboardDomainName: 'dashboard.example.com', dashboardCertificateArn: CERT },
    }),
    { dashboardDist: join(dashboardDist, 'not-built') },
  );
  const configuredAssembly = configured.app.synth();
  const t = Template.fromStack(configured.dashboard);

  it('deploys a page saying the dashboard was not built when there is no build (synth stays offline)', () => {
    expect(configured.dashboard.placeholder).toBe(true);
    const [buildKey] = deployment(t).SourceObjectKeys as string[];
    const dir = join(configuredAssembly.directory, `asset.${(buildKey as string).replace(/\.zip$/, '')}`);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('The dashboard was not built');
  });

  it('serves its own domain with TLS 1.2 or later, and needs no CFR4 acknowledgement then', () => {
    expect(distributionConfig(t)).toMatchObject({
      Aliases: ['dashboard.example.com'],
      ViewerCertificate: {
        AcmCertificateArn: CERT,
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      },
    });
    expect(t.toJSON().Outputs.DashboardUrl.Value).toBe('https://dashboard.example.com/');
    const report = new AwsSolutionsChecks().validateScope(configured.dashboard);
    expect(report.violations).toEqual([]);
    const ids = configured.dashboard.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.keys(m.data as Record<string, string>));
    expect(ids.some((id) => id.includes('CFR4'))).toBe(false);
  });

  it('refuses half a domain setting and a certificate outside us-east-1', () => {
    expect(() => buildCdkApp(new App({ context: { ...NO_BUNDLING, dashboardDomainName: 'x.example.com' } }))).toThrow(
      /dashboardDomainName and dashboardCertificateArn go together/,
    );
    expect(() =>
      buildCdkApp(
        new App({
          context: {
            ...NO_BUNDLING,
            dashboardDomainName: 'x.example.com',
            dashboardCertificateArn: CERT.replace('us-east-1', 'eu-west-1'),
          },
        }),
      ),
    ).toThrow(/must be an ACM certificate in us-east-1/);
  });
});
