import type { Context, SQSEvent } from 'aws-lambda';
import type { Message } from '../../functions/conversations/conversation';
import { parseSendRequest, refOfQueuedSend, sendRequestOf } from '../../functions/channels/send-request';
import { invokedOrQueuedWorker } from '../../functions/platform/workers';
import { failureDestinationRecord } from '../../local/lambda-invoke';

const ref = { tenant_id: 't1', conversation_id: 'conv_1', message_id: 'msg_1' };
const context = {} as Context;

describe('a worker invoked asynchronously and retried from its queue', () => {
  it('handles an invocation payload alone, and hands an SQS batch to its queue handler', async () => {
    const payloads: unknown[] = [];
    const batches: SQSEvent[] = [];
    const handler = invokedOrQueuedWorker(
      async (payload) => void payloads.push(payload),
      async (event) => void batches.push(event),
    );
    await handler(ref, context);
    const batch = { Records: [{ eventSource: 'aws:sqs', body: '{}' }] } as SQSEvent;
    await handler(batch, context);
    expect(payloads).toEqual([ref]);
    expect(batches).toEqual([batch]);
  });

  it('throws when the invocation fails, so Lambda puts its destination record on the queue', async () => {
    const handler = invokedOrQueuedWorker(
      async () => Promise.reject(new Error('Graph answered 503')),
      async () => undefined,
    );
    await expect(handler(ref, context)).rejects.toThrow('Graph answered 503');
  });

  it("finds the message in Lambda's destination record, or in a bare reference, and refuses anything else", () => {
    const record = JSON.parse(JSON.stringify(failureDestinationRecord('channel-sender', ref, new Error('503'))));
    expect(record).toMatchObject({ requestContext: { condition: 'RetriesExhausted' }, requestPayload: ref });
    expect(refOfQueuedSend(record)).toEqual(ref);
    expect(refOfQueuedSend(ref)).toEqual(ref);
    // A retry reads the message again: the first attempt's copy of it is dropped.
    const withMessage = { ...ref, message: { id: 'msg_1', status: 'queued', channel: 'sandbox', text: 'hi' } };
    expect(refOfQueuedSend(failureDestinationRecord('channel-sender', withMessage, new Error('503')))).toEqual(ref);
    expect(() => refOfQueuedSend({ requestPayload: { tenant_id: 't1' } })).toThrow();
    expect(() => refOfQueuedSend('msg_1')).toThrow();
  });

  it("carries the message as written in the first attempt's payload, unless SQS could not take its text", () => {
    const message = {
      id: 'msg_1',
      tenant_id: 't1',
      conversation_id: 'conv_1',
      direction: 'outbound',
      status: 'queued',
      channel: 'sandbox',
      text: 'On our way',
    } as unknown as Message;
    const payload = JSON.parse(JSON.stringify(sendRequestOf(message)));
    expect(payload).toEqual({ ...ref, message });
    // As written, key order and fields the check does not name included.
    expect(JSON.stringify(parseSendRequest(payload).message)).toBe(JSON.stringify(message));
    expect(sendRequestOf({ ...message, text: 'bad \ufffe char' })).toEqual(ref);
    // Read instead: no message, one that is not all there, or another message's.
    expect(parseSendRequest(ref)).toEqual({ ref });
    expect(parseSendRequest({ ...ref, message: { id: 'msg_1' } })).toEqual({ ref });
    expect(parseSendRequest({ ...ref, message: { ...message, id: 'msg_2' } })).toEqual({ ref });
    expect(parseSendRequest({ ...ref, message: { ...message, tenant_id: 't2' } })).toEqual({ ref });
    expect(() => parseSendRequest({ message })).toThrow();
  });
});
