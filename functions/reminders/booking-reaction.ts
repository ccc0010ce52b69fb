// Public: the stream reaction that keeps a booking's reminders in step with it.
import type { DynamoDBRecord } from 'aws-lambda';
import { clock } from '../platform/clock';
import { reconcileReminders } from './service';

/**
 * Off the table's stream (the stream-reactions worker hands it booking writes): the booking's reminders
 * follow it. Only the booking's id and tenant are taken from the record, and the booking is read again,
 * so a record that comes twice or late changes nothing wrongly.
 */
export async function scheduleBookingReminders(record: DynamoDBRecord): Promise<void> {
  const image = record.dynamodb?.NewImage;
  const id = image?.id?.S;
  const tenantId = image?.tenant_id?.S;
  if (!id?.startsWith('bkg_') || !tenantId) return;
  await reconcileReminders(tenantId, id, clock.now());
}
