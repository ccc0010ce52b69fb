import { marshall } from '@aws-sdk/util-dynamodb';
import { indexEntryWrites, itemSize } from '../../bench/transactions';
import type { TableSpec } from '../../catalog/resources';

const table: TableSpec = {
  id: 'Main',
  envVar: 'MAIN_TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'all', partitionKey: 'a_pk', sortKey: 'a_sk' },
    { name: 'slim', partitionKey: 's_pk', sortKey: 's_sk', include: ['summary'] },
  ],
  ttlAttribute: 'ttl',
};
const item = (fields: Record<string, unknown>) => marshall(fields);

describe('bench transaction pricing', () => {
  it('sizes items as DynamoDB does: names, UTF-8 strings, numbers by digits, container overheads', () => {
    expect(itemSize(item({ pk: 'ab' }))).toBe(4);
    expect(itemSize(item({ é: 'é' }))).toBe(4);
    expect(itemSize(item({ n: 12345 }))).toBe(1 + 3 + 1);
    expect(itemSize(item({ m: { k: 'v' } }))).toBe(1 + 3 + 1 + 1 + 1);
    expect(itemSize(item({ l: ['v', true] }))).toBe(1 + 3 + (1 + 1) + (1 + 1));
  });

  it('charges an index entry only for the items that carry its keys, by the projected size', () => {
    const big = 'x'.repeat(2900);
    const both = item({ pk: 'p', sk: 's', a_pk: 'a', a_sk: '1', s_pk: 's', s_sk: '1', summary: 'hi', body: big });
    // ALL projection: the body makes the entry 3 KB (with 100 bytes of overhead); the INCLUDE entry stays under 1 KB.
    expect(indexEntryWrites(table, undefined, both)).toBe(3 + 1);
    expect(indexEntryWrites(table, undefined, item({ pk: 'p', sk: 's', body: big }))).toBe(0);
    expect(indexEntryWrites(table, both, undefined)).toBe(3 + 1);
  });

  it('charges a moved entry twice, a changed projection once, and an unchanged entry nothing', () => {
    const before = item({ pk: 'p', sk: 's', s_pk: 's', s_sk: '1', summary: 'a', other: 'x' });
    expect(indexEntryWrites(table, before, { ...before, s_sk: { S: '2' } })).toBe(2);
    expect(indexEntryWrites(table, before, { ...before, summary: { S: 'b' } })).toBe(1);
    expect(indexEntryWrites(table, before, { ...before, other: { S: 'y' } })).toBe(0);
  });
});
