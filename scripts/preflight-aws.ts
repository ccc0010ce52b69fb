/**
 * The AWS side of `npm run ops -- preflight`: one read-only call per fact, its response or error kept
 * as it came (scripts/preflight.ts judges them). Nothing here writes.
 */
import { APIGatewayClient, GetAccountCommand } from '@aws-sdk/client-api-gateway';
import { BedrockClient, GetFoundationModelAvailabilityCommand } from '@aws-sdk/client-bedrock';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { inferenceProfileModel } from '../lib/stateless-stack';
import type { AccountFacts, AppFacts, Outcome } from './preflight';

/** A call's response without the SDK's $metadata, or its error's name and message. */
async function outcome<T extends object>(call: () => Promise<T & { $metadata?: unknown }>): Promise<Outcome<T>> {
  try {
    const { $metadata: _metadata, ...response } = await call();
    return { response: response as T };
  } catch (error) {
    const e = error as Error;
    return { error: { name: e.name || 'Error', message: e.message || String(error) } };
  }
}

const describeBootstrap = (region: string) => {
  const client = new CloudFormationClient({ region });
  return outcome(() => client.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).finally(() =>
    client.destroy(),
  );
};

export async function regionOfCredentials(): Promise<string> {
  const client = new LambdaClient({});
  try {
    return await client.config.region();
  } finally {
    client.destroy();
  }
}

export async function gatherAccountFacts(region: string, app: AppFacts): Promise<AccountFacts> {
  const lambda = new LambdaClient({ region });
  const apiGateway = new APIGatewayClient({ region });
  const bedrock = new BedrockClient({ region });
  const model = app.bedrockModelId;
  try {
    const [lambdaSettings, bootstrap, bootstrapUsEast1, apiGatewayAccount, bedrockModel] = await Promise.all([
      outcome(() => lambda.send(new GetAccountSettingsCommand({}))),
      describeBootstrap(region),
      app.cloudFrontWebAcls.length > 0 && region !== 'us-east-1' ? describeBootstrap('us-east-1') : undefined,
      outcome(() => apiGateway.send(new GetAccountCommand({}))),
      model
        ? outcome(() =>
            bedrock.send(new GetFoundationModelAvailabilityCommand({ modelId: inferenceProfileModel(model) ?? model })),
          )
        : undefined,
    ]);
    return { region, lambda: lambdaSettings, bootstrap, bootstrapUsEast1, apiGatewayAccount, bedrockModel };
  } finally {
    lambda.destroy();
    apiGateway.destroy();
    bedrock.destroy();
  }
}
