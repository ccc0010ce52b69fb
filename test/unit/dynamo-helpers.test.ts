import {
  conditionalWrite,
  isThrottling,
  transactionConflicted,
  versionedUpdate,
  withNewWriteId,
} from '../../functions/platform/db';
import { UpdateBuilder } from '../../functions/platform/expressions';
import { tenantPk } from '../../functions/platform/keys';

/** Every placeholder an expression uses is declared, and every declared one is used (DynamoDB rejects both). */
function expectPlaceholdersMatch(built: ReturnType<UpdateBuilder['build']>) {
  const text = `${built.UpdateExpression} ${built.ConditionExpression ?? ''}`;
  const used = (prefix: string) => new Set([...text.matchAll(new RegExp(`${prefix}[nv]\\d+`, 'g'))].map((m) => m[0]));
  expect(used('#')).toEqual(new Set(Object.keys(built.ExpressionAttributeNames ?? {})));
  expect(used(':')).toEqual(new Set(Object.keys(built.ExpressionAttributeValues ?? {})));
}

describe('UpdateBuilder', () => {
  it('writes SET, REMOVE, ADD and DELETE clauses with generated placeholders', () => {
    const built = new UpdateBuilder()
      .set('status', 'sent')
      .remove('lease')
      .add('count', 1)
      .delete('tags', new Set(['a']))
      .build();
    expect(built).toEqual({
      UpdateExpression: 'SET #n0 = :v1 REMOVE #n2 ADD #n3 :v4 DELETE #n5 :v6',
      ExpressionAttributeNames: { '#n0': 'status', '#n2': 'lease', '#n3': 'count', '#n5': 'tags' },
      ExpressionAttributeValues: { ':v1': 'sent', ':v4': 1, ':v6': new Set(['a']) },
    });
    expectPlaceholdersMatch(built);
  });

  it('names each attribute once and shares equal strings and numbers, but not objects', () => {
    const b = new UpdateBuilder();
    expect(b.name('status')).toBe(b.name('status'));
    expect(b.value('x')).toBe(b.value('x'));
    expect(b.value(0)).toBe(b.value(0));
    expect(b.value('1')).not.toBe(b.value(1));
    expect(b.value([])).not.toBe(b.value([]));
  });

  it('assigns a patch: null removes, undefined leaves alone, a value sets', () => {
    const built = new UpdateBuilder().assign({ name: 'Ann', notes: null, role: undefined }).build();
    expect(built.UpdateExpression).toBe('SET #n0 = :v1 REMOVE #n2');
    expect(built.ExpressionAttributeNames).toEqual({ '#n0': 'name', '#n2': 'notes' });
    expect(built.ExpressionAttributeValues).toEqual({ ':v1': 'Ann' });
  });

  it('ANDs conditions and reuses the placeholders of the update', () => {
    const built = new UpdateBuilder()
      .set('status', 'read')
      .whenIn('status', ['sent', 'delivered'])
      .whenEquals('cycle', 2)
      .build();
    expect(built.UpdateExpression).toBe('SET #n0 = :v1');
    expect(built.ConditionExpression).toBe('#n0 IN (:v2, :v3) AND #n4 = :v5');
    expectPlaceholdersMatch(built);
  });

  it('takes SET actions written with its placeholders', () => {
    const b = new UpdateBuilder();
    const attempts = b.name('attempts');
    b.setExpression(
      `${attempts} = list_append(if_not_exists(${attempts}, ${b.value([])}), ${b.value([{ at: 'now' }])})`,
    );
    const built = b.build();
    expect(built.UpdateExpression).toBe('SET #n0 = list_append(if_not_exists(#n0, :v1), :v2)');
    expectPlaceholdersMatch(built);
  });

  it('declares no empty maps and refuses an update without actions', () => {
    const built = new UpdateBuilder().setExpression('x = y').build();
    expect(built).toEqual({ UpdateExpression: 'SET x = y' });
    expect(() => new UpdateBuilder().when('attribute_exists(pk)').build()).toThrow();
  });
});

describe('versionedUpdate', () => {
  it('sets the changes and updated_at, removes nulls and adds one to version', () => {
    const update = versionedUpdate(
      { plan: 'pro', rate_limit_per_hour: null, name: undefined },
      '2030-01-01T00:00:00.000Z',
    );
    update.whenEquals('version', 3);
    const built = update.build();
    expect(built.UpdateExpression).toBe('SET #n0 = :v1, #n3 = :v4 REMOVE #n2 ADD #n5 :v6');
    expect(built.ConditionExpression).toBe('#n5 = :v7');
    expect(built.ExpressionAttributeNames).toEqual({
      '#n0': 'plan',
      '#n2': 'rate_limit_per_hour',
      '#n3': 'updated_at',
      '#n5': 'version',
    });
    expect(built.ExpressionAttributeValues).toEqual({
      ':v1': 'pro',
      ':v4': '2030-01-01T00:00:00.000Z',
      ':v6': 1,
      ':v7': 3,
    });
    expectPlaceholdersMatch(built);
  });
});

describe('conditionalWrite', () => {
  const failure = (name: string, reasons?: { Code: string }[]) =>
    Object.assign(new Error(name), { name, CancellationReasons: reasons });

  it('is true when the write is made and false when its condition fails', async () => {
    expect(await conditionalWrite(async () => ({}))).toBe(true);
    expect(await conditionalWrite(() => Promise.reject(failure('ConditionalCheckFailedException')))).toBe(false);
  });

  it('counts only the transaction conditions at the given positions as failed', async () => {
    const cancelled = () =>
      Promise.reject(failure('TransactionCanceledException', [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }]));
    expect(await conditionalWrite(cancelled)).toBe(false);
    expect(await conditionalWrite(cancelled, [1])).toBe(false);
    await expect(conditionalWrite(cancelled, [0])).rejects.toThrow('TransactionCanceledException');
  });

  it('throws every other error', async () => {
    await expect(conditionalWrite(() => Promise.reject(failure('ThrottlingException')))).rejects.toThrow(
      'ThrottlingException',
    );
  });
});

describe('withNewWriteId', () => {
  it('gives a recorded update a write id of its own and leaves everything else as recorded', () => {
    const recorded = {
      TableName: 'Main',
      UpdateExpression: 'SET #wid = :wid ADD #n0 :v1',
      ExpressionAttributeValues: { ':wid': { S: 'the-recorded-id' }, ':v1': { N: '1' } },
    };
    const replayed = withNewWriteId(recorded);
    expect(replayed.ExpressionAttributeValues[':wid']?.S).toMatch(/^[\w-]{11}$/);
    expect(withNewWriteId(recorded).ExpressionAttributeValues[':wid']).not.toEqual(
      replayed.ExpressionAttributeValues[':wid'],
    );
    expect({
      ...replayed,
      ExpressionAttributeValues: { ...replayed.ExpressionAttributeValues, ':wid': undefined },
    }).toEqual({
      ...recorded,
      ExpressionAttributeValues: { ...recorded.ExpressionAttributeValues, ':wid': undefined },
    });
    expect(recorded.ExpressionAttributeValues[':wid']).toEqual({ S: 'the-recorded-id' });
  });

  it('leaves a call without a write id alone', () => {
    const read = { TableName: 'Main', Key: { pk: { S: 'T#1' } } };
    expect(withNewWriteId(read)).toBe(read);
  });
});

describe('tenantPk', () => {
  it('is the one spelling of a tenant partition', () => {
    expect(tenantPk('83c27e80-76f3-49ca-a17d-b8b1d6c80254')).toBe('TENANT#83c27e80-76f3-49ca-a17d-b8b1d6c80254');
  });
});

describe('isThrottling and transactionConflicted', () => {
  const cancelled = (...codes: string[]) =>
    Object.assign(new Error('cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: codes.map((Code) => ({ Code })),
    });

  it('reads a transaction cancelled for throttling as throttled (a 503), not as a failure', () => {
    expect(isThrottling(cancelled('None', 'ThrottlingError'))).toBe(true);
    expect(isThrottling(cancelled('None', 'ConditionalCheckFailed'))).toBe(false);
    expect(isThrottling(Object.assign(new Error('x'), { name: 'ThrottlingException' }))).toBe(true);
  });

  it('tells a collision with another transaction from a failed condition', () => {
    expect(transactionConflicted(cancelled('TransactionConflict', 'None'))).toBe(true);
    expect(transactionConflicted(cancelled('ConditionalCheckFailed'))).toBe(false);
  });
});
