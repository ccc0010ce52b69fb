import {
  CfnOutput,
  Duration,
  Fn,
  NestedStack,
  RemovalPolicy,
  SecretValue,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import {
  AuthorizerPayloadVersion,
  CfnRoute,
  CfnStage,
  HttpAuthorizer,
  HttpAuthorizerType,
  type HttpApi,
  type HttpRouteAuthorizerBindOptions,
  type HttpRouteAuthorizerConfig,
  type HttpStage,
  type IHttpRouteAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  AUTH_ROUTE_IDS,
  EDGE_AUTH_LIMIT_PER_IP,
  EDGE_WINDOW_SECONDS,
  ORIGIN_VERIFY_HEADER,
  PROVIDER_WEBHOOK_ROUTE_IDS,
  ROUTE_THROTTLES,
  VIEWER_IP_HEADER,
  routePaths,
  routesById,
  type RouteThrottle,
} from '../catalog/edge';
import { functionMemoryMb } from '../catalog/functions';
import { PROBLEM_DOCS_PATH, problemType } from '../catalog/problems';
import { ROUTES, gatewayMethodOf, type RouteDef } from '../catalog/routes';
import { AppFunction } from './api-function';

/** A CloudFront web ACL can only be created in us-east-1, wherever the API runs. */
export const WEB_ACL_REGION = 'us-east-1';
/** The edge stack's output that the API stack reads (Fn::GetStackOutput, across regions). */
export const WEB_ACL_ARN_OUTPUT = 'WebAclArn';

/**
 * Rules of AWSManagedRulesCommonRuleSet that inspect the body, counted instead of blocking: bodies are
 * JSON the handlers validate strictly, and much of them is free text (messages, notes, saved replies) in
 * which `<script>`, `../`, a URL with an IP address or a metadata address are content, not attacks.
 * SizeRestrictions_BODY would refuse every body over 8 KB; the API's own limit is 256 KB (413).
 */
export const COUNTED_COMMON_RULES = [
  'SizeRestrictions_BODY',
  'CrossSiteScripting_BODY',
  'GenericLFI_BODY',
  'GenericRFI_BODY',
  'EC2MetaDataSSRF_BODY',
] as const;

/** A regular expression matching the paths of these routes under every prefix (a trailing slash too). */
export function pathPattern(routes: readonly RouteDef[]): string {
  const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const paths = routes.flatMap(routePaths).map((p) => escape(p).replace(/\\?\{\w+\\?\}/g, '[^/]+'));
  return `^(?:${[...new Set(paths)].join('|')})/?$`;
}

/**
 * The API's problem+json body (sent as application/json: WAF knows no other JSON type). Its `type` is the
 * path the API serves the problem docs at, resolved against the API's own address.
 */
const problemBody = (code: string, detail: string) =>
  JSON.stringify({ type: problemType(code, PROBLEM_DOCS_PATH), title: 'Too Many Requests', status: 429, detail, code });

/** Matches the URL path of these routes, after decoding and normalising it as API Gateway would route it. */
const pathIs = (routes: readonly RouteDef[]): CfnWebACL.StatementProperty => ({
  regexMatchStatement: {
    regexString: pathPattern(routes),
    fieldToMatch: { uriPath: {} },
    textTransformations: [
      { priority: 0, type: 'URL_DECODE' },
      { priority: 1, type: 'NORMALIZE_PATH' },
    ],
  },
});

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

const refuse = (code: 'login_rate_limited' | 'rate_limited'): CfnWebACL.RuleActionProperty => ({
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: code,
      responseHeaders: [
        { name: 'Retry-After', value: String(EDGE_WINDOW_SECONDS) },
        // So a browser (the dashboard) can read the refusal.
        { name: 'Access-Control-Allow-Origin', value: '*' },
      ],
    },
  },
});

export interface ApiWebAclStackProps extends StackProps {
  /** Requests per credential of a tenant per window (`-c edgeTenantLimit=…`). */
  tenantLimit: number;
}

/**
 * The API's WAF web ACL, in us-east-1 as CloudFront requires; the API stack, in any region, attaches it
 * to its distribution by reading the `WebAclArn` output. Rules, in order:
 * 1. login and refresh: at most EDGE_AUTH_LIMIT_PER_IP per source address and window;
 * 2. a ceiling per tenant credential (`X-Tenant-ID` with `Authorization`), above every plan;
 * 3. AWS's common rule set, with the body rules counted (COUNTED_COMMON_RULES);
 * 4. AWS's known-bad-inputs rule set.
 * The provider webhooks are outside rules 3 and 4, and carry no tenant header, so nothing here refuses Meta.
 */
export class ApiWebAclStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclStackProps) {
    super(scope, id, props);
    const notProviderWebhook: CfnWebACL.StatementProperty = {
      notStatement: { statement: pathIs(routesById(PROVIDER_WEBHOOK_ROUTE_IDS)) },
    };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'The messaging API: managed rules and rate ceilings in front of API Gateway',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('MessagingApi'),
      customResponseBodies: {
        login_rate_limited: {
          contentType: 'APPLICATION_JSON',
          content: problemBody(
            'login_rate_limited',
            'Too many login and refresh requests from this address; try again in a few minutes.',
          ),
        },
        rate_limited: {
          contentType: 'APPLICATION_JSON',
          content: problemBody(
            'rate_limited',
            'Far more requests with this credential than any plan allows; try again in a few minutes.',
          ),
        },
      },
      rules: [
        {
          name: 'AuthPerSourceAddress',
          priority: 0,
          action: refuse('login_rate_limited'),
          statement: {
            rateBasedStatement: {
              limit: EDGE_AUTH_LIMIT_PER_IP,
              evaluationWindowSec: EDGE_WINDOW_SECONDS,
              aggregateKeyType: 'IP',
              scopeDownStatement: pathIs(routesById(AUTH_ROUTE_IDS)),
            },
          },
          visibilityConfig: visibility('AuthPerSourceAddress'),
        },
        {
          // A request without either header is not counted (WAF skips requests missing a key).
          name: 'TenantCredentialCeiling',
          priority: 1,
          action: refuse('rate_limited'),
          statement: {
            rateBasedStatement: {
              limit: props.tenantLimit,
              evaluationWindowSec: EDGE_WINDOW_SECONDS,
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [
                { header: { name: 'x-tenant-id', textTransformations: [{ priority: 0, type: 'LOWERCASE' }] } },
                { header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } },
              ],
            },
          },
          visibilityConfig: visibility('TenantCredentialCeiling'),
        },
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 2,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
              scopeDownStatement: notProviderWebhook,
            },
          },
          visibilityConfig: visibility('AWSManagedRulesCommonRuleSet'),
        },
        {
          name: 'AWSManagedRulesKnownBadInputsRuleSet',
          priority: 3,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesKnownBadInputsRuleSet',
              scopeDownStatement: notProviderWebhook,
            },
          },
          visibilityConfig: visibility('AWSManagedRulesKnownBadInputsRuleSet'),
        },
      ],
    });
    new CfnOutput(this, WEB_ACL_ARN_OUTPUT, {
      value: this.webAcl.attrArn,
      description: 'The web ACL of the API’s CloudFront distribution',
    });
  }
}

/**
 * Lets through only requests carrying the origin secret, by a Lambda authorizer whose identity source
 * is ORIGIN_VERIFY_HEADER: API Gateway refuses a request without the header itself (401, the function is
 * not called) and caches the answer for a value five minutes. Created in the front stack when the API
 * binds it to its first route.
 */
class OriginAuthorizer implements IHttpRouteAuthorizer {
  private authorizer?: HttpAuthorizer;

  constructor(
    private readonly scope: Construct,
    private readonly fn: AppFunction,
  ) {}

  bind(options: HttpRouteAuthorizerBindOptions): HttpRouteAuthorizerConfig {
    if (!this.authorizer) {
      const stack = Stack.of(this.scope);
      const { httpApi } = options.route;
      this.authorizer = new HttpAuthorizer(this.scope, 'OriginAuthorizer', {
        httpApi,
        authorizerName: 'OriginAuthorizer',
        type: HttpAuthorizerType.LAMBDA,
        identitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`],
        enableSimpleResponses: true,
        payloadFormatVersion: AuthorizerPayloadVersion.VERSION_2_0,
        resultsCacheTtl: Duration.minutes(5),
        authorizerUri: `arn:${stack.partition}:apigateway:${stack.region}:lambda:path/2015-03-31/functions/${this.fn.functionArn}/invocations`,
      });
      this.fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: stack.formatArn({
          service: 'execute-api',
          resource: httpApi.apiId,
          resourceName: `authorizers/${this.authorizer.authorizerId}`,
        }),
      });
    }
    return { authorizerId: this.authorizer.authorizerId, authorizationType: 'CUSTOM' };
  }
}

/**
 * Viewer requests: the viewer's address in VIEWER_IP_HEADER (whatever the viewer sent under that name),
 * since API Gateway only sees CloudFront's.
 */
const VIEWER_IP_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

export interface ApiFrontAttachProps {
  api: HttpApi;
  stage: HttpStage;
  /** The ARN of the web ACL (from ApiWebAclStack, read across regions). */
  webAclArn: string;
  /** The stage's default throttle: route throttles never exceed it. */
  stageThrottle: RouteThrottle;
  /** Route functions: they learn to take the viewer's address from VIEWER_IP_HEADER. */
  routeFunctions: AppFunction[];
  /** The route table the API was built from. */
  routes?: readonly RouteDef[];
  /** `-c originSecretVersion=<VersionId>` after a rotation: pins CloudFront's header to that version. */
  originSecretVersion?: string;
}

/**
 * The API's front, a nested stack of the API stack (which keeps its room for routes): the origin check
 * (the secret CloudFront sends and the authorizer every route requires), the function the API's
 * `$default` route uses (created here by the API stack), and the CloudFront distribution with the web ACL
 * (`attach`), which also sets the stage's route throttles.
 */
export class ApiFront extends NestedStack {
  readonly secret: Secret;
  readonly authorizerFunction: AppFunction;
  /** The API's default authorizer. */
  readonly authorizer: IHttpRouteAuthorizer;
  private attached?: { distribution: Distribution; url: string };

  constructor(scope: Construct, id: string) {
    super(scope, id, { description: 'The API’s front: origin check, catch-all route function, CloudFront' });
    // Not data: a new one only means a deployment, so it goes with the stack.
    this.secret = new Secret(this, 'OriginSecret', {
      description: 'Origin secret: CloudFront adds it to every API request, the API refuses requests without it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.authorizerFunction = new AppFunction(this, 'OriginAuthorizerFn', {
      handler: 'http/origin-authorizer',
      description: 'Lets through only requests that came through CloudFront (the origin secret)',
      memorySize: functionMemoryMb('origin-authorizer'),
      environment: { ORIGIN_SECRET_SECRET_ARN: this.secret.secretArn },
    });
    this.secret.grantRead(this.authorizerFunction);
    this.authorizer = new OriginAuthorizer(this, this.authorizerFunction);
    new CfnOutput(scope, 'OriginSecretArn', {
      value: this.secret.secretArn,
      description: 'The origin secret CloudFront sends and the API requires (rotate: docs/operations.md)',
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by operators with one put-secret-value and a deployment (docs/operations.md, The request path): CloudFront’s header comes from the stack, so a rotation Lambda could not update it.',
    });
  }

  get distribution(): Distribution {
    if (!this.attached) throw new Error('The API front is not attached yet');
    return this.attached.distribution;
  }

  /** `https://<id>.cloudfront.net`, without a trailing slash (like the API's own endpoint). */
  get url(): string {
    if (!this.attached) throw new Error('The API front is not attached yet');
    return this.attached.url;
  }

  /** CloudFront in front of the API, with the web ACL and the origin secret; the route throttles. */
  attach(props: ApiFrontAttachProps): void {
    const viewerIp = new EdgeFunction(this, 'ViewerIp', {
      comment: 'Passes the viewer address to the API',
      code: FunctionCode.fromInline(VIEWER_IP_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    // A dynamic reference, resolved by CloudFormation at deploy time; pinned to a version after a rotation
    // so the changed reference makes CloudFormation read the secret again.
    const originSecret = SecretValue.secretsManager(this.secret.secretArn, { versionId: props.originSecretVersion });
    const distribution = new Distribution(this, 'Distribution', {
      comment: 'Messaging API',
      defaultBehavior: {
        // "https://<id>.execute-api.<region>.amazonaws.com" → the host name.
        origin: new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          customHeaders: { [ORIGIN_VERIFY_HEADER]: originSecret.unsafeUnwrap() },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // Every header (Authorization, X-Tenant-ID, Idempotency-Key…), query string and cookie, but not
        // Host: API Gateway routes on its own host name.
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: false,
        functionAssociations: [{ function: viewerIp, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      webAclId: props.webAclArn,
    });
    this.attached = { distribution, url: `https://${distribution.distributionDomainName}` };
    for (const fn of props.routeFunctions) fn.addEnvironment('VIEWER_IP_FROM_EDGE', 'true');
    throttleRoutes(props);

    for (const [ruleId, reason] of [
      [
        'AwsSolutions-CFR1',
        'API clients and the WhatsApp webhook (Meta) call from anywhere; every call is authenticated or signed.',
      ],
      [
        'AwsSolutions-CFR3',
        'API Gateway’s access log records every request that reaches the API, and the web ACL’s metrics and sampled requests show what it refused.',
      ],
      [
        'AwsSolutions-CFR4',
        'The default *.cloudfront.net certificate cannot set a minimum TLS version; put the API behind a custom domain to require TLS 1.2.',
      ],
    ] as const)
      Validations.of(distribution).acknowledge({ id: ruleId, reason });
  }
}

/** Route settings of the stage: each listed route, under each prefix, gets its own lower limit. */
function throttleRoutes(props: ApiFrontAttachProps) {
  const stage = props.stage.node.defaultChild as CfnStage;
  const cfnRoutes = props.api.node.findAll().filter((c): c is CfnRoute => c instanceof CfnRoute);
  // RouteSettings is a plain JSON map in CloudFormation's schema: CDK passes its keys through as written.
  const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
  for (const route of props.routes ?? ROUTES) {
    const throttle = ROUTE_THROTTLES[route.id];
    if (!throttle) continue;
    for (const path of routePaths(route)) {
      const routeKey = `${gatewayMethodOf(route)} ${path}`;
      settings[routeKey] = {
        ThrottlingRateLimit: Math.min(throttle.rateLimit, props.stageThrottle.rateLimit),
        ThrottlingBurstLimit: Math.min(throttle.burstLimit, props.stageThrottle.burstLimit),
      };
      // A stage naming a route that does not exist yet fails to deploy.
      const cfnRoute = cfnRoutes.find((r) => r.routeKey === routeKey);
      if (!cfnRoute) throw new Error(`No route ${routeKey} to throttle`);
      stage.addResourceDependency(cfnRoute);
    }
  }
  stage.routeSettings = settings;
}
