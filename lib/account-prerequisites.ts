import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** `-c apiGatewayCloudWatchRole=create|existing`: who provides API Gateway's account-level logging role. */
export const API_GATEWAY_ROLE_CONTEXT = 'apiGatewayCloudWatchRole';
export type ApiGatewayRoleMode = 'create' | 'existing';

/**
 * API Gateway's CloudWatch Logs role, an account-and-region setting (AWS::ApiGateway::Account) that REST
 * and WebSocket stages need before they can log; HTTP API stages do not. There is one per region, shared
 * by every app in the account, so the app sets it only when asked (`create`); by default (`existing`) the
 * account keeps its own, which `npm run ops -- preflight` checks. Both are retained when the stack goes,
 * so deleting it never takes logging away from another API.
 */
export class ApiGatewayAccountRole extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new Role(this, 'Role', {
      description: "API Gateway's account-level role for writing REST and WebSocket stage logs",
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    this.role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const account = new CfnAccount(this, 'Account', { cloudWatchRoleArn: this.role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "AWS's policy for API Gateway's account logging role: log groups and streams API Gateway names itself.",
    });
  }
}

/** The context value, checked: `existing` unless set. */
export function apiGatewayRoleMode(value: unknown): ApiGatewayRoleMode {
  if (value === undefined || value === '' || value === 'existing') return 'existing';
  if (value === 'create') return 'create';
  throw new Error(`Context ${API_GATEWAY_ROLE_CONTEXT} must be "create" or "existing" (got ${JSON.stringify(value)})`);
}
