import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db } from '../functions/platform/db';
import { dataKeys } from '../functions/platform/secrets';
import { seal, sealedKeyId, unseal } from '../functions/platform/sealed';

export interface ResealResult {
  resealed: number;
  /** Already sealed with the current key. */
  current: number;
  /** Changed by someone else between the read and the write: they sealed it with the current key. */
  raced: number;
  failed: { key: Record<string, unknown>; error: string }[];
}

/**
 * Re-seals every sealed value of a table (the `secrets` attribute: channel credentials, webhook secrets)
 * with the current data key, so that the previous key can be retired. Stored idempotent responses are
 * not touched: they expire within 24 hours. An operator tool, so a Scan is fine here; each rewrite is
 * conditional on the value it read.
 */
export async function resealTable(
  tableName: string,
  keyAttributes: readonly string[] = ['pk', 'sk'],
  onItem?: (done: number) => void,
): Promise<ResealResult> {
  const { current } = await dataKeys();
  const result: ResealResult = { resealed: 0, current: 0, raced: 0, failed: [] };
  const names = Object.fromEntries([...keyAttributes, 'secrets'].map((a, i) => [`#a${i}`, a]));
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: `attribute_exists(#a${keyAttributes.length})`,
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: names,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const sealed = String(item.secrets);
      const key = Object.fromEntries(keyAttributes.map((a) => [a, item[a]]));
      if (sealedKeyId(sealed) === current.id) {
        result.current++;
        continue;
      }
      try {
        const resealed = await seal(await unseal(sealed));
        const written = await conditionalWrite(() =>
          db().send(
            new UpdateCommand({
              TableName: tableName,
              Key: key,
              UpdateExpression: 'SET secrets = :new',
              ConditionExpression: 'secrets = :old',
              ExpressionAttributeValues: { ':new': resealed, ':old': sealed },
            }),
          ),
        );
        if (written) result.resealed++;
        else result.raced++;
      } catch (error) {
        result.failed.push({ key, error: (error as Error).message });
      }
      onItem?.(result.resealed + result.raced + result.failed.length);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return result;
}
