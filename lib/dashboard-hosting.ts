import {
  CfnOutput,
  DefaultStackSynthesizer,
  Duration,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type CfnElement,
  type StackProps,
} from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type ICachePolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardContentSecurityPolicy } from '../catalog/dashboard';

/** What `npm run build:dashboard` produces: index.html and hashed files under assets/ (Vite's layout). */
export const DASHBOARD_DIST = fileURLToPath(new URL('../dashboard/dist', import.meta.url));
/** Vite's output folder for content-hashed files: cached for a year. */
export const HASHED_ASSETS_PATH = '/assets/*';
/** The runtime configuration the dashboard fetches at start: `{ "apiUrl": "https://…" }`. */
export const RUNTIME_CONFIG_KEY = 'config.json';

/** Browser caching: the entry points are revalidated on every load, hashed files never change. */
const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Deep links (`/inbox/…`, `/settings/webhooks`) get index.html; anything with a file extension is served
 * as is, so a missing file stays a 403/404 instead of HTML. Runs on the default behaviour only: neither
 * /config.json nor /assets/* ever falls back to index.html.
 */
const SPA_FALLBACK_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** Shown when the stack is synthesized before `npm run build:dashboard` (tests, fresh clone). */
export const PLACEHOLDER_INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard was not built</h1>
<p>This deployment was made without <code>dashboard/dist</code>. Run <code>npm run build:dashboard</code>, then <code>npx cdk deploy MessagingDashboard</code>.</p>
</body></html>
`;

export interface DashboardCustomDomain {
  /** e.g. dashboard.example.com; point it (CNAME or alias) at the distribution's domain. */
  domainName: string;
  /** An ACM certificate in us-east-1 covering domainName. */
  certificateArn: string;
}

export interface DashboardStackProps extends StackProps {
  /** The API's base URL without a trailing slash (`https://<id>.execute-api.<region>.amazonaws.com`). */
  apiUrl: string;
  /** The realtime WebSocket API's URL (`wss://…/v1`): the pages open sockets to it. */
  realtimeUrl?: string;
  /** The media bucket's origin (`https://<bucket>.s3.<region>.amazonaws.com`): files are shown from, and uploaded to, its presigned URLs. */
  mediaOrigin?: string;
  /** Optional own domain (`-c dashboardDomainName=… -c dashboardCertificateArn=…`); TLS 1.2+ then. */
  customDomain?: DashboardCustomDomain;
  /** Build output to deploy; defaults to dashboard/dist (a placeholder page when it does not exist). */
  distDir?: string;
}

/**
 * The dashboard: its build output in a private bucket, served only through CloudFront (origin access
 * control, HTTPS only, security headers with a strict CSP, SPA fallback), with the API's URL written to
 * /config.json at deploy time.
 */
export class DashboardStack extends Stack {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  readonly deployment: BucketDeployment;
  /** True when dashboard/dist was missing and the placeholder page is deployed instead. */
  readonly placeholder: boolean;

  constructor(scope: Construct, id: string, props: DashboardStackProps) {
    super(scope, id, props);
    // S3 server access logs are allowed by a bucket policy rather than a log-delivery ACL, so the ACL
    // stays CloudFront's (its standard logs need one).
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    // Logs: CloudFront's standard logs (which need ACLs, so object-writer ownership and SSE-S3) and the
    // site bucket's server access logs. Removed with the stack like the other log groups; kept 90 days.
    this.logBucket = new Bucket(this, 'LogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    // Build output, not data: it is deployed again from dashboard/dist, so it is removed with the stack.
    this.bucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3-access/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const apiOrigin = props.apiUrl;
    const headers = (id: string, cacheControl: string) =>
      new ResponseHeadersPolicy(this, id, {
        comment: `Dashboard security headers, Cache-Control: ${cacheControl}`,
        securityHeadersBehavior: {
          contentSecurityPolicy: {
            contentSecurityPolicy: dashboardContentSecurityPolicy(apiOrigin, props.realtimeUrl, props.mediaOrigin),
            override: true,
          },
          strictTransportSecurity: {
            accessControlMaxAge: Duration.days(730),
            includeSubdomains: true,
            override: true,
          },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        },
        customHeadersBehavior: {
          customHeaders: [
            { header: 'Cache-Control', value: cacheControl, override: true },
            { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
            { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()', override: true },
          ],
        },
        removeHeaders: ['Server'],
      });
    const noCacheHeaders = headers('NoCacheHeaders', NO_CACHE);
    const immutableHeaders = headers('ImmutableHeaders', IMMUTABLE);

    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const behavior = (cachePolicy: ICachePolicy, responseHeadersPolicy: ResponseHeadersPolicy): BehaviorOptions => ({
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      compress: true,
      cachePolicy,
      responseHeadersPolicy,
    });
    const spaFallback = new EdgeFunction(this, 'SpaFallback', {
      comment: 'Serves index.html for dashboard routes (paths without a file extension)',
      code: FunctionCode.fromInline(SPA_FALLBACK_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    const domain = props.customDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Messaging dashboard',
      defaultRootObject: 'index.html',
      // index.html and deep links: never cached at the edge, so a deployment shows at once.
      defaultBehavior: {
        ...behavior(CachePolicy.CACHING_DISABLED, noCacheHeaders),
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [`/${RUNTIME_CONFIG_KEY}`]: behavior(CachePolicy.CACHING_DISABLED, noCacheHeaders),
        [HASHED_ASSETS_PATH]: behavior(CachePolicy.CACHING_OPTIMIZED, immutableHeaders),
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });

    // The build when there is one; otherwise a page saying it was not built, so synth never needs it.
    const distDir = props.distDir ?? DASHBOARD_DIST;
    this.placeholder = !existsSync(join(distDir, 'index.html'));
    const site: ISource = this.placeholder ? Source.data('index.html', PLACEHOLDER_INDEX_HTML) : Source.asset(distDir);
    this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [site, Source.jsonData(RUNTIME_CONFIG_KEY, { apiUrl: props.apiUrl })],
      destinationBucket: this.bucket,
      // Hashed files of the previous build stay, so a page loaded before a deployment can still load them.
      prune: false,
      memoryLimit: 512,
      logGroup: new LogGroup(this, 'DeployLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });

    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${domain ? domain.domainName : this.distribution.distributionDomainName}/`,
      description: 'The dashboard (CloudFront)',
    });
    new CfnOutput(this, 'DashboardBucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'DashboardDistributionId', { value: this.distribution.distributionId });

    this.acknowledgeNagFindings(!domain);
  }

  /** Each acknowledged cdk-nag finding of this stack, with the reason it is acceptable here. */
  private acknowledgeNagFindings(defaultCertificate: boolean) {
    const distribution = [
      [
        'AwsSolutions-CFR1',
        'The dashboard is for the tenants’ staff wherever they are; sign-in and every API call are authenticated.',
      ],
      [
        'AwsSolutions-CFR2',
        'Static files only (no forms or APIs behind CloudFront); the API it calls has its own throttling. A web ACL would cost more than the site.',
      ],
    ];
    if (defaultCertificate) {
      distribution.push([
        'AwsSolutions-CFR4',
        'The default *.cloudfront.net certificate cannot set a minimum TLS version; with -c dashboardDomainName and dashboardCertificateArn the distribution requires TLS 1.2 (2021).',
      ]);
    }
    for (const [id, reason] of distribution)
      Validations.of(this.distribution).acknowledge({ id: id ?? '', reason: reason ?? '' });

    // BucketDeployment's singleton function (with its role) copies the build into the bucket at deploy
    // time; CDK writes its policy and picks its runtime.
    const deployer = this.deployment.handlerRole.node.scope;
    if (!deployer) throw new Error('BucketDeployment has no handler function');
    const reading =
      'BucketDeployment reads the uploaded build from the CDK asset bucket: CDK grants read actions (s3:GetObject*, s3:GetBucket*, s3:List*) on that bucket’s objects.';
    const writing =
      'BucketDeployment copies the build into the dashboard bucket: CDK grants write actions (s3:DeleteObject*, s3:Abort*) on that bucket’s objects only.';
    const acknowledgements = [
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'Only lets the deployment function write its own logs.',
      ],
      ['AwsSolutions-IAM5[Action::s3:GetObject*]', reading],
      ['AwsSolutions-IAM5[Action::s3:GetBucket*]', reading],
      ['AwsSolutions-IAM5[Action::s3:List*]', reading],
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${this.assetBucketName()}/*]`, reading],
      ['AwsSolutions-IAM5[Action::s3:DeleteObject*]', writing],
      ['AwsSolutions-IAM5[Action::s3:Abort*]', writing],
      [
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
        writing,
      ],
      [
        'AwsSolutions-L1',
        'The runtime of the deployment function is chosen by aws-cdk-lib (BucketDeployment) and moves with it; it runs only during deployments.',
      ],
    ];
    for (const [id, reason] of acknowledgements)
      Validations.of(deployer).acknowledge({ id: id ?? '', reason: reason ?? '' });
  }

  /** The CDK asset bucket as cdk-nag names it (the bootstrap qualifier; account and region when known). */
  private assetBucketName(): string {
    const qualifier = this.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const account = Token.isUnresolved(this.account) ? '<AWS::AccountId>' : this.account;
    const region = Token.isUnresolved(this.region) ? '<AWS::Region>' : this.region;
    return `cdk-${qualifier}-assets-${account}-${region}`;
  }
}
