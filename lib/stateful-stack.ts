import { Duration, RemovalPolicy, Stack, type StackProps, CfnOutput } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, Billing, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { QUEUES, TABLES, deadLetterQueues, queuesInCreationOrder, type QueueKey, type TableName, type TableSpec } from './resources';

/** Everything that holds data: tables, queues and secrets. Retained on stack deletion. */
export class StatefulStack extends Stack {
  readonly tables = {} as Record<TableName, TableV2>;
  readonly queues = {} as Record<QueueKey, Queue>;
  readonly jwtSecret: Secret;
  readonly platformTokenSecret: Secret;
  readonly dataKeySecret: Secret;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    for (const [key, spec] of Object.entries(TABLES) as [TableName, TableSpec][]) {
      this.tables[key] = new TableV2(this, `${spec.id}Table`, {
        partitionKey: { name: spec.partitionKey, type: AttributeType.STRING },
        sortKey: spec.sortKey ? { name: spec.sortKey, type: AttributeType.STRING } : undefined,
        globalSecondaryIndexes: spec.indexes.map((index) => ({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.STRING },
        })),
        billing: Billing.onDemand(),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        encryption: TableEncryptionV2.awsManagedKey(),
        timeToLiveAttribute: spec.ttlAttribute,
        dynamoStream: spec.stream ? StreamViewType[spec.stream] : undefined,
        removalPolicy: RemovalPolicy.RETAIN,
        deletionProtection: true,
      });
    }

    for (const [key, spec] of queuesInCreationOrder()) {
      this.queues[key] = new Queue(this, `${spec.id}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(spec.retentionDays),
        removalPolicy: RemovalPolicy.RETAIN,
        deadLetterQueue: spec.deadLetter ? { queue: this.queues[spec.deadLetter.queue], maxReceiveCount: spec.deadLetter.maxReceiveCount } : undefined,
      });
      new CfnOutput(this, `${spec.id}QueueUrl`, { value: this.queues[key].queueUrl, exportName: `${id}-${spec.id}QueueUrl` });
    }

    this.jwtSecret = new Secret(this, 'JwtSigningSecret', {
      description: 'HS256 key for access and refresh tokens (and derived pagination-cursor keys)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.platformTokenSecret = new Secret(this, 'PlatformToken', {
      description: 'Bearer token of the operator (platform) API',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.dataKeySecret = new Secret(this, 'DataKey', {
      description: 'Key material for secrets stored in the tables (channel credentials)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Two alarms per dead-letter queue: messages arriving (a consumer drains the webhook DLQ into the
    // failed view, so arrivals are the signal) and messages piling up (the consumer itself is failing).
    for (const key of deadLetterQueues()) {
      const alarms = {
        Arrivals: this.queues[key].metricNumberOfMessagesSent({ period: Duration.minutes(5), statistic: 'Sum' }),
        Depth: this.queues[key].metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      };
      for (const [name, metric] of Object.entries(alarms)) {
        new Alarm(this, `${QUEUES[key].id}${name}Alarm`, {
          alarmDescription: `${name === 'Arrivals' ? 'Messages are landing in' : 'Messages are piling up in'} ${QUEUES[key].id}`,
          metric,
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
      }
    }

    new CfnOutput(this, 'PlatformTokenSecretArn', { value: this.platformTokenSecret.secretArn });
    // npm run ops finds the tables from these outputs.
    for (const [key, spec] of Object.entries(TABLES) as [TableName, TableSpec][]) {
      new CfnOutput(this, `${spec.id}TableName`, { value: this.tables[key].tableName });
    }
  }
}
