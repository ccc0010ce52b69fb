import { receiveInbound } from '../../functions/conversations/service';
import { getConversation } from '../../functions/conversations/store';
import { createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { batchReadStraddles } from '../support/dynamo-faults';

/**
 * A new customer's first messages, arriving together, open one conversation. A message's read of the
 * customer's identity and of the active-conversation pointer is one BatchGetItem, which DynamoDB does
 * not read as one snapshot: it may find no customer yet, and the pointer the customer's first
 * conversation took a moment later. That pointer is the same customer's, not a stale one to free.
 */
useRuntimeAws();

const message = (phone: string, text: string) => ({ phone, name: null, text, providerId: null });

it('a first message joins the conversation another first message opened while its read was under way', async () => {
  const t = await createTenant();
  const phone = '+491518000901';
  let first: Awaited<ReturnType<typeof receiveInbound>> | undefined;
  const stop = batchReadStraddles(
    (keys) => keys.some((k) => k.sk === `CUSIDENT#${phone}`),
    (key) => String(key.sk).startsWith('CUSIDENT#'),
    async () => {
      first = await receiveInbound(t.tenantId, 'sandbox', null, message(phone, 'first'), new Date());
    },
  );
  let second: Awaited<ReturnType<typeof receiveInbound>> | undefined;
  try {
    second = await receiveInbound(t.tenantId, 'sandbox', null, message(phone, 'second'), new Date());
  } finally {
    stop();
  }
  const opened = first?.conversation.id;
  if (!opened) throw new Error('the first message opened no conversation');
  expect(second?.conversation.id).toBe(opened);
  expect(second?.conversation.customer.id).toBe(first?.conversation.customer.id);
  // The first conversation still holds the pointer: the customer's next message joins it too.
  const third = await receiveInbound(t.tenantId, 'sandbox', null, message(phone, 'third'), new Date());
  expect(third?.conversation.id).toBe(opened);
  expect((await getConversation(t.tenantId, opened))?.unanswered_count).toBe(3);
});
