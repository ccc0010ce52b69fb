import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { seal, sealedKeyId, unseal } from '../../functions/platform/sealed';
import { dataKeys } from '../../functions/platform/secrets';
import { resealTable } from '../../scripts/reseal';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();
const runtimeKey = process.env.DATA_KEY;
// A table of its own: re-sealing the runtime's tables with these keys would break the other tests.
const table = `reseal-${randomUUID()}`;
const admin = new DynamoDBClient({});

beforeAll(async () => {
  await admin.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
});

afterAll(async () => {
  process.env.DATA_KEY = runtimeKey;
  delete process.env.DATA_KEY_PREVIOUS;
  await admin.send(new DeleteTableCommand({ TableName: table }));
  admin.destroy();
});

const legacySeal = (value: unknown, material: string) => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(material).digest(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
};

const secretsOf = async (pk: string) =>
  (await db().send(new GetCommand({ TableName: table, Key: { pk, sk: 'X' } }))).Item?.secrets as string;

it('re-seals every stored secret with the current key, so the previous key can be retired', async () => {
  const [keyA, keyB, keyC] = [
    'reseal-key-a-0123456789abcdef',
    'reseal-key-b-0123456789abcdef',
    'reseal-key-c-0123456789abcdef',
  ];
  const put = (pk: string, item: Record<string, unknown>) =>
    db().send(new PutCommand({ TableName: table, Item: { pk, sk: 'X', ...item } }));
  process.env.DATA_KEY = keyC;
  await put('LOST', { secrets: await seal({ n: 0 }) });
  process.env.DATA_KEY = keyA;
  await put('CHANNEL', { secrets: await seal({ app_secret: 'one' }), tenant_id: 't1' });
  await put('LEGACY', { secrets: legacySeal([{ secret: 'whsec_two' }], keyA) });
  await put('PLAIN', { name: 'no secrets here' });

  // The rotation: B is current, A previous.
  process.env.DATA_KEY = keyB;
  process.env.DATA_KEY_PREVIOUS = keyA;
  const idB = (await dataKeys()).current.id;
  const first = await resealTable(table);
  expect(first).toMatchObject({ resealed: 2, current: 0, raced: 0 });
  expect(first.failed.map((f) => f.key.pk)).toEqual(['LOST']);

  // A retired: what was sealed with it opens with B alone.
  delete process.env.DATA_KEY_PREVIOUS;
  expect(sealedKeyId(await secretsOf('CHANNEL'))).toBe(idB);
  expect(await unseal(await secretsOf('CHANNEL'))).toEqual({ app_secret: 'one' });
  expect(await unseal(await secretsOf('LEGACY'))).toEqual([{ secret: 'whsec_two' }]);
  expect((await db().send(new GetCommand({ TableName: table, Key: { pk: 'CHANNEL', sk: 'X' } }))).Item?.tenant_id).toBe(
    't1',
  );

  const second = await resealTable(table);
  expect(second).toMatchObject({ resealed: 0, current: 2 });
});
