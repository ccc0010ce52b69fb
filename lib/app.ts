import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from './stateful-stack';
import { StatelessStack, inferenceProfileModel } from './stateless-stack';

/** Builds the whole CDK app: used by bin/app.ts (cdk synth/deploy) and by the infra tests. */
export function buildCdkApp(app = new App()): { app: App; stateful: StatefulStack; stateless: StatelessStack } {
  // Strong references: the API stack cannot be deployed against a stateful stack that lacks its exports.
  app.node.setContext('@aws-cdk/core:defaultCrossStackReferences', 'strong');
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const stateful = new StatefulStack(app, 'MessagingStateful', { env });
  const bedrockModelId = (app.node.tryGetContext('bedrockModelId') as string | undefined) || undefined;
  const stateless = new StatelessStack(app, 'MessagingApi', { env, stateful, bedrockModelId });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  acknowledgeNagFindings(stateful, stateless, bedrockModelId);
  return { app, stateful, stateless };
}

/** Each acknowledged cdk-nag finding, with the reason it is acceptable here. */
function acknowledgeNagFindings(stateful: StatefulStack, stateless: StatelessStack, bedrockModelId: string | undefined) {
  Validations.of(stateful).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason: 'The JWT key and platform token are rotated by operators: rotating either ends every session or the operator token at once (README, Deployment).',
  });
  const acknowledgements = [
    ['AwsSolutions-APIG4', 'Authorization runs in each Lambda (API keys, JWT sessions, platform token): it needs tenant data and per-route roles.'],
    ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', 'Only lets a function write its own logs.'],
    ['AwsSolutions-IAM5[Resource::*]', 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.'],
    ['AwsSolutions-L1', 'DESIGN §8 pins the nodejs22.x runtime.'],

  ];
  const profile = bedrockModelId ? inferenceProfileModel(bedrockModelId) : undefined;
  if (profile) {
    acknowledgements.push([
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile}]`,
      'A cross-region inference profile routes to its one base model in whichever of its regions has capacity; the grant names that model only.',
    ]);
  }
  for (const [id, reason] of acknowledgements) Validations.of(stateless).acknowledge({ id: id ?? '', reason: reason ?? '' });
}
