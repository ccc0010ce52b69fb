import { ArnFormat, Duration, RemovalPolicy, Stack, Validations, type StackProps, CfnOutput } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import {
  AttributeType,
  Billing,
  ProjectionType,
  StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import {
  BUCKETS,
  QUEUES,
  TABLES,
  type BucketKey,
  failureQueues,
  queuesInCreationOrder,
  type QueueKey,
  type TableName,
  type TableSpec,
} from '../catalog/resources';
import { METRICS, WORKERS } from '../catalog/workers';

export interface StatefulStackProps extends StackProps {
  /** Subscribes this address to the alarm topic (`cdk deploy -c alarmEmail=…`). */
  alarmEmail?: string;
}

/** Everything that holds data: tables, queues and secrets (retained on stack deletion), and the alarm topic. */
export class StatefulStack extends Stack {
  readonly tables = {} as Record<TableName, TableV2>;
  readonly queues = {} as Record<QueueKey, Queue>;
  readonly buckets = {} as Record<BucketKey, Bucket>;
  readonly jwtSecret: Secret;
  readonly platformTokenSecret: Secret;
  /** The platform's Meta app secret: generated as a placeholder, set to the app's real secret after deploy. */
  readonly whatsappAppSecret: Secret;
  readonly dataKeySecret: Secret;
  /** The action of every alarm of the app (lib/app.ts adds it). */
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: StatefulStackProps = {}) {
    super(scope, id, props);

    for (const [key, spec] of Object.entries(TABLES) as [TableName, TableSpec][]) {
      this.tables[key] = new TableV2(this, `${spec.id}Table`, {
        partitionKey: { name: spec.partitionKey, type: AttributeType.STRING },
        sortKey: spec.sortKey ? { name: spec.sortKey, type: AttributeType.STRING } : undefined,
        globalSecondaryIndexes: spec.indexes.map((index) => ({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.STRING },
          ...(index.include
            ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] }
            : { projectionType: ProjectionType.ALL }),
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
        deliveryDelay: spec.deliveryDelay ? Duration.seconds(spec.deliveryDelay.seconds) : undefined,
        removalPolicy: RemovalPolicy.RETAIN,
        deadLetterQueue: spec.deadLetter
          ? { queue: this.queues[spec.deadLetter.queue], maxReceiveCount: spec.deadLetter.maxReceiveCount }
          : undefined,
      });
      new CfnOutput(this, `${spec.id}QueueUrl`, {
        value: this.queues[key].queueUrl,
        exportName: `${id}-${spec.id}QueueUrl`,
      });
    }
    // Media: private (no public access, no ACLs), encrypted, TLS only, each object expired after the
    // retention. Bytes leave only through presigned URLs the functions sign; browsers PUT uploads and GET
    // files across origins, hence CORS for those two methods.
    for (const [key, spec] of Object.entries(BUCKETS) as [BucketKey, (typeof BUCKETS)[BucketKey]][]) {
      this.buckets[key] = new Bucket(this, `${spec.id}Bucket`, {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        lifecycleRules: [
          { id: 'retention', expiration: Duration.days(spec.retentionDays) },
          { id: 'incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ],
        cors: [
          {
            allowedMethods: [HttpMethods.GET, HttpMethods.PUT],
            allowedOrigins: ['*'],
            allowedHeaders: ['Content-Type'],
            maxAge: 600,
          },
        ],
        removalPolicy: RemovalPolicy.RETAIN,
      });
      Validations.of(this.buckets[key]).acknowledge({
        id: 'AwsSolutions-S1',
        reason:
          'Objects are written and presigned only by the platform\u2019s functions, whose every call is in CloudTrail; server access logs would need a second bucket for no new signal.',
      });
      new CfnOutput(this, `${spec.id}BucketName`, { value: this.buckets[key].bucketName });
    }

    Validations.of(this.queues.streamFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'It is itself a dead-letter queue: the on-failure destination of the stream event-source mappings, read by npm run ops.',
    });

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

    this.whatsappAppSecret = new Secret(this, 'WhatsAppAppSecret', {
      description:
        "The platform Meta app's secret (WhatsApp webhook signatures, appsecret_proof): put the real value after deploy",
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.dataKeySecret = new Secret(this, 'DataKey', {
      description: 'Key material for secrets sealed in the tables (webhook signing secrets, channel credentials)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Alarms publish to an encrypted topic: CloudWatch needs the key (an AWS-managed key would refuse
    // it) and, since the TLS-only policy replaces SNS's default one, an explicit right to publish.
    const alarmKey = new Key(this, 'AlarmTopicKey', {
      description: 'Encrypts the alarm topic',
      enableKeyRotation: true,
    });
    alarmKey.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: 'Messaging platform alarms',
      masterKey: alarmKey,
      enforceSSL: true,
    });
    this.alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.alarmTopic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: {
            'aws:SourceArn': this.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn });

    // Queues that only hold failures alarm on their depth: messages moved there by a redrive policy or
    // by Lambda count as visible, never as sent. The webhook DLQ's consumer drains it into the failed
    // view, so there a depth means the consumer itself is failing.
    for (const key of failureQueues()) {
      new Alarm(this, `${QUEUES[key].id}DepthAlarm`, {
        alarmDescription: `Messages are waiting in ${QUEUES[key].id}`,
        metric: this.queues[key].metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }

    // Work stored in the tables that is overdue (the sweeper publishes its age): alarms that name no
    // function, kept here, beside the queue alarms, where the API stack's resource count is not spent.
    for (const alarm of WORKERS.flatMap((w) => w.metricAlarms ?? [])) {
      new Alarm(this, `${alarm.metric}Alarm`, {
        alarmDescription: alarm.description,
        metric: new Metric({
          namespace: METRICS.namespace,
          metricName: alarm.metric,
          dimensionsMap: { service: METRICS.service },
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: alarm.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }

    new CfnOutput(this, 'PlatformTokenSecretArn', { value: this.platformTokenSecret.secretArn });
    // npm run ops finds the tables from these outputs.
    for (const [key, spec] of Object.entries(TABLES) as [TableName, TableSpec][]) {
      new CfnOutput(this, `${spec.id}TableName`, { value: this.tables[key].tableName });
    }
  }
}
