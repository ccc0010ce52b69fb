import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueBody, sqsClient } from '../platform/queue';
import { queueUrl } from '../platform/config';
import { releasePass, type AssignmentReleasePass } from '../conversations/release-reaction';
import { settleCustomerCopies, type CustomerCopiesPass } from '../customers/copies-reaction';

/**
 * Passes over an index that must wait until the index shows a change. A stream reaction queues them on
 * SettledPasses, whose delivery delay (INDEX_SETTLE_SECONDS) does the waiting: a reaction that slept
 * instead would hold up every record behind it on its shard, other tenants' included.
 */
export type SettledPass = CustomerCopiesPass | AssignmentReleasePass;

export async function queueSettledPass(pass: SettledPass | undefined): Promise<void> {
  if (!pass) return;
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl('settledPasses'), MessageBody: queueBody(pass) }));
}

/** Runs one pass, and queues the one after it if the pass asks for it. Repeats are harmless. */
export async function runSettledPass(pass: SettledPass): Promise<void> {
  if (pass.kind === 'customer-copies') await settleCustomerCopies(pass);
  else await queueSettledPass(await releasePass(pass));
}
