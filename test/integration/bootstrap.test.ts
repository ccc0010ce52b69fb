import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTableInput, ensureTables } from '../../local/bootstrap';
import { TABLES } from '../../catalog/resources';
import { useRuntimeAws } from '../support/aws';

/**
 * A local runtime restarted on its DATA_DIR finds the tables an earlier version made: it adds the indexes
 * this version declares (as a stack deployment would), rather than answer 500 on the lists that use them.
 */
useRuntimeAws();

it('adds to an existing table the indexes it lacks', async () => {
  const client = new DynamoDBClient({});
  const prefix = `bootstrap-${Date.now()}-`;
  const main = `${prefix}${TABLES.main.id}`;
  const older = { ...TABLES.main, indexes: TABLES.main.indexes.filter((i) => i.name !== 'convAssignee') };
  await client.send(new CreateTableCommand(createTableInput(older, main)));
  try {
    const before = await client.send(new DescribeTableCommand({ TableName: main }));
    expect(before.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).not.toContain('convAssignee');

    await ensureTables(client, prefix);

    const after = await client.send(new DescribeTableCommand({ TableName: main }));
    expect(after.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(
      TABLES.main.indexes.map((i) => i.name).sort(),
    );
  } finally {
    for (const table of Object.values(TABLES))
      await client.send(new DeleteTableCommand({ TableName: `${prefix}${table.id}` })).catch(() => undefined);
  }
});
