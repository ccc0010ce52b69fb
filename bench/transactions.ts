/**
 * Capacity of DynamoDB transactions, priced the way DynamoDB bills them, for `npm run bench`.
 *
 * DynamoDB Local reports a transaction's capacity once per table and index, not per item: a
 * TransactWriteItems of five items of one kind reports what one of them would cost. So the bench prices
 * each transaction itself, from the items before and after it:
 *
 * - every item written costs 2 write units per KB (rounded up per item) of the larger of its old and new
 *   image (a transaction prepares and commits each item, two writes), 2 at least;
 * - every index entry written costs what the same change costs outside a transaction: 1 write unit per KB
 *   of the entry (projected attributes, table and index keys, and 100 bytes of overhead), for an entry
 *   added, removed or changed, and twice that when the item's index key changed (the old entry is deleted
 *   and a new one put). Only the table write is doubled: the dynoxide project's capture against DynamoDB
 *   (its docs/compatibility-summary.md) finds index writes inside a transaction billed at the single-write
 *   rate. DynamoDB Local doubles them, one more reason the bench prices transactions itself;
 * - a ConditionCheck (none in this code today) is billed as a write of the item it checks, 2 units at least
 *   (the same capture);
 * - every item read in a TransactGetItems costs 2 read units per 4 KB, 2 at least.
 *
 * The images are read with a client of its own, outside the request's accounting, and the time that takes
 * is reported so the request's duration can leave it out.
 */
import {
  BatchGetItemCommand,
  DynamoDBClient,
  type AttributeValue,
  type BatchGetItemCommandOutput,
  type KeysAndAttributes,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { TABLES, type TableSpec } from '../catalog/resources';
import type { TransactionPricer } from '../local/usage';

type Item = Record<string, AttributeValue>;
type Plain = Record<string, unknown>;

/** Bytes of a value as DynamoDB sizes items: UTF-8 strings, numbers by their digits, 3 bytes per container. */
function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return Buffer.byteLength(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS) return v.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + numberSize(s), 0);
  if (v.BS) return v.BS.reduce((n, b) => n + b.length, 0);
  if (v.L) return 3 + v.L.reduce((n, e) => n + 1 + valueSize(e), 0);
  if (v.M) return 3 + Object.entries(v.M).reduce((n, [k, e]) => n + 1 + Buffer.byteLength(k) + valueSize(e), 0);
  return 0;
}

/** A number takes about one byte per two significant digits, plus one. */
function numberSize(n: string): number {
  const digits = n
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** An item's size as DynamoDB bills it: the UTF-8 length of each attribute name plus its value's size. */
export const itemSize = (item: Item): number =>
  Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + valueSize(v), 0);

interface Table {
  spec: TableSpec;
  keys: string[];
}
const keysOf = (spec: TableSpec) => [spec.partitionKey, ...(spec.sortKey ? [spec.sortKey] : [])];

function tablesByName(): Map<string, Table> {
  const out = new Map<string, Table>();
  for (const spec of Object.values(TABLES) as TableSpec[]) {
    const name = process.env[spec.envVar];
    if (name) out.set(name, { spec, keys: keysOf(spec) });
  }
  return out;
}

/** Write units (as for a single write) of the index entries an item's change adds, removes or rewrites. */
export function indexEntryWrites(spec: TableSpec, before: Item | undefined, after: Item | undefined): number {
  let units = 0;
  for (const index of spec.indexes) {
    const indexKeys = [index.partitionKey, index.sortKey];
    const entryAttributes = new Set([...keysOf(spec), ...indexKeys, ...(index.include ?? [])]);
    const entry = (item: Item | undefined) =>
      item && indexKeys.every((k) => item[k] !== undefined)
        ? index.include
          ? Object.fromEntries([...entryAttributes].filter((k) => item[k]).map((k) => [k, item[k] as AttributeValue]))
          : item
        : undefined;
    const old = entry(before);
    const next = entry(after);
    const kb = (e: Item) => Math.ceil((itemSize(e) + 100) / 1024);
    const same = (a: Item, b: Item, attributes: Iterable<string>) =>
      [...attributes].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
    if (old && next) {
      if (!same(old, next, indexKeys)) units += kb(old) + kb(next);
      else if (!same(old, next, new Set([...Object.keys(old), ...Object.keys(next)]))) units += kb(next);
    } else if (old) units += kb(old);
    else if (next) units += kb(next);
  }
  return units;
}

interface Write {
  table: Table;
  key: Item;
  /** The new image when the request gives it whole (Put), null for a Delete, undefined to read it after. */
  after: Item | null | undefined;
}

/** Prices TransactWriteItems and TransactGetItems; other commands are left to DynamoDB's figure. */
export function transactionPricer(): TransactionPricer {
  const client = new DynamoDBClient({ maxAttempts: 3 });
  const tables = tablesByName();
  const read = async (writes: Write[]): Promise<(Item | undefined)[]> => {
    const found = new Map<string, Item>();
    const id = (tableName: string, t: Table, item: Item) =>
      [tableName, ...t.keys.map((k) => JSON.stringify(item[k]))].join('\u0000');
    const request: Record<string, KeysAndAttributes> = {};
    for (const w of writes) {
      const name = process.env[w.table.spec.envVar] as string;
      (request[name] ??= { Keys: [], ConsistentRead: true }).Keys?.push(w.key);
    }
    let pending: Record<string, KeysAndAttributes> | undefined = request;
    while (pending && Object.keys(pending).length > 0) {
      const out: BatchGetItemCommandOutput = await client.send(new BatchGetItemCommand({ RequestItems: pending }));
      for (const [name, items] of Object.entries(out.Responses ?? {}))
        for (const item of items) found.set(id(name, tables.get(name) as Table, item), item);
      pending = out.UnprocessedKeys;
    }
    return writes.map((w) => found.get(id(process.env[w.table.spec.envVar] as string, w.table, w.key)));
  };

  return async (command, input) => {
    const started = performance.now();
    if (command === 'TransactGetItemsCommand') {
      return async (output) => {
        const responses = ((output as { Responses?: { Item?: Plain }[] } | undefined)?.Responses ?? []).map((r) =>
          r.Item ? marshall(r.Item, { removeUndefinedValues: true }) : undefined,
        );
        const count = (input as { TransactItems?: unknown[] }).TransactItems?.length ?? 0;
        let readUnits = 0;
        for (let i = 0; i < count; i++) {
          const item = responses[i];
          readUnits += 2 * Math.max(1, Math.ceil((item ? itemSize(item) : 0) / 4096));
        }
        return { readUnits, writeUnits: 0, indexWriteUnits: 0, accountingMs: 0 };
      };
    }
    if (command !== 'TransactWriteItemsCommand') return undefined;
    const writes: Write[] = [];
    let conditionChecks = 0;
    for (const action of (
      input as { TransactItems?: Record<string, { TableName?: string; Item?: Plain; Key?: Plain }>[] }
    ).TransactItems ?? []) {
      const [kind, body] = Object.entries(action)[0] ?? [];
      if (!kind || !body?.TableName) continue;
      const table = tables.get(body.TableName);
      if (!table) throw new Error(`transaction on an unknown table ${body.TableName}`);
      if (kind === 'ConditionCheck') {
        conditionChecks += 1;
        continue;
      }
      const whole = body.Item ? marshall(body.Item, { removeUndefinedValues: true }) : undefined;
      const key = whole
        ? Object.fromEntries(table.keys.map((k) => [k, whole[k] as AttributeValue]))
        : marshall(body.Key ?? {}, { removeUndefinedValues: true });
      writes.push({ table, key, after: kind === 'Put' ? whole : kind === 'Delete' ? null : undefined });
    }
    const before = await read(writes);
    let accountingMs = performance.now() - started;
    return async (output) => {
      if (output === undefined) return undefined;
      const resumed = performance.now();
      const toRead = writes.filter((w) => w.after === undefined);
      const readAfter = toRead.length > 0 ? await read(toRead) : [];
      let writeUnits = 0;
      let indexWriteUnits = 0;
      writes.forEach((w, i) => {
        const after = w.after === undefined ? readAfter[toRead.indexOf(w)] : (w.after ?? undefined);
        const old = before[i];
        writeUnits += 2 * Math.max(1, Math.ceil(Math.max(old ? itemSize(old) : 0, after ? itemSize(after) : 0) / 1024));
        indexWriteUnits += indexEntryWrites(w.table.spec, old, after);
      });
      accountingMs += performance.now() - resumed;
      return {
        readUnits: 2 * conditionChecks,
        writeUnits: writeUnits + indexWriteUnits,
        indexWriteUnits,
        accountingMs,
      };
    };
  };
}
