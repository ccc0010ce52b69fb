import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Secrets come from the environment in local mode (JWT_SECRET, PLATFORM_TOKEN, DATA_KEY) and from Secrets
 * Manager in AWS (the ARN in `<NAME>_SECRET_ARN`: JWT_SECRET_SECRET_ARN, PLATFORM_TOKEN_SECRET_ARN,
 * DATA_KEY_SECRET_ARN, ORIGIN_SECRET_SECRET_ARN). They are fetched on first use and cached for five
 * minutes, so rotation is picked up without a cold start.
 */
const CACHE_MS = 5 * 60 * 1000;
const cache = new Map<string, { value: string | undefined; at: number }>();

/** AWSCURRENT, or AWSPREVIOUS: the version a put-secret-value replaced (undefined if there is none). */
async function fromSecretsManager(
  arn: string,
  stage: 'AWSCURRENT' | 'AWSPREVIOUS' = 'AWSCURRENT',
  refresh = false,
): Promise<string | undefined> {
  const cacheKey = `${arn}|${stage}`;
  const hit = cache.get(cacheKey);
  if (!refresh && hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  // Imported lazily: handlers that never need a secret do not pay for the client at cold start.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  let value: string | undefined;
  try {
    const out = await new SecretsManagerClient({}).send(
      new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }),
    );
    if (!out.SecretString) throw new Error('Secret has no string value');
    value = out.SecretString;
  } catch (error) {
    // A secret that was never rotated has no AWSPREVIOUS version.
    if (stage !== 'AWSPREVIOUS' || (error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  cache.set(cacheKey, { value, at: Date.now() });
  return value;
}

async function secret(envName: string): Promise<string> {
  const direct = process.env[envName];
  if (direct) return direct;
  const arn = process.env[`${envName}_SECRET_ARN`];
  if (arn) return (await fromSecretsManager(arn)) as string;
  throw new Error(`Neither ${envName} nor ${envName}_SECRET_ARN is set`);
}

/** The HS256 key for access and refresh tokens; cursor keys are derived from it too. */
export const signingSecret = async (): Promise<Uint8Array> => new TextEncoder().encode(await secret('JWT_SECRET'));

/** An AES-256 key for values sealed in the tables, with the id that sealed values carry. */
export interface DataKey {
  id: string;
  key: Buffer;
}

function dataKeyFrom(material: string): DataKey {
  const key = createHash('sha256').update(material).digest();
  // Derived from the key, so nothing has to be configured; 48 bits tell two keys apart.
  const id = createHash('sha256').update('data-key-id\n').update(key).digest('base64url').slice(0, 8);
  return { id, key };
}

/** A value sealed by a key this container does not know yet re-reads the secret, at most this often. */
const REFRESH_MS = 30_000;
let lastRefresh = 0;

/**
 * The data key (channel credentials, webhook secrets, stored responses: its own secret, rotated apart)
 * and, during a rotation, the previous one, which still unseals. Locally DATA_KEY and DATA_KEY_PREVIOUS;
 * in AWS the AWSCURRENT and AWSPREVIOUS versions of the DATA_KEY_SECRET_ARN secret.
 */
export async function dataKeys(options: { refresh?: boolean } = {}): Promise<{ current: DataKey; previous?: DataKey }> {
  const arn = process.env.DATA_KEY ? undefined : process.env.DATA_KEY_SECRET_ARN;
  if (!arn) {
    const previous = process.env.DATA_KEY_PREVIOUS;
    return { current: dataKeyFrom(await secret('DATA_KEY')), previous: previous ? dataKeyFrom(previous) : undefined };
  }
  const refresh = options.refresh === true && Date.now() - lastRefresh > REFRESH_MS;
  if (refresh) lastRefresh = Date.now();
  const [current, previous] = await Promise.all([
    fromSecretsManager(arn, 'AWSCURRENT', refresh),
    fromSecretsManager(arn, 'AWSPREVIOUS', refresh),
  ]);
  if (!current) throw new Error('The data key secret has no current value');
  return { current: dataKeyFrom(current), previous: previous ? dataKeyFrom(previous) : undefined };
}

/** Compares digests, so the comparison is constant-time whatever the lengths. */
function sameSecret(candidate: string, expected: string): boolean {
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The platform's Meta app, when one is configured: WHATSAPP_APP_ID, and its secret in WHATSAPP_APP_SECRET
 * (locally) or the WHATSAPP_APP_SECRET_SECRET_ARN secret (AWS). Undefined when either is missing.
 */
export async function whatsAppPlatformApp(): Promise<{ id: string; secret: string } | undefined> {
  const id = process.env.WHATSAPP_APP_ID;
  if (!id || (!process.env.WHATSAPP_APP_SECRET && !process.env.WHATSAPP_APP_SECRET_SECRET_ARN)) return undefined;
  return { id, secret: await secret('WHATSAPP_APP_SECRET') };
}

export async function isPlatformToken(candidate: string): Promise<boolean> {
  return sameSecret(candidate, await secret('PLATFORM_TOKEN'));
}

let lastOriginRefresh = 0;

/**
 * Whether a request carries the origin secret that CloudFront adds (lib/api-edge.ts): the current value
 * or, during a rotation, the previous one. Locally ORIGIN_SECRET and ORIGIN_SECRET_PREVIOUS; in AWS the
 * AWSCURRENT and AWSPREVIOUS versions of ORIGIN_SECRET_SECRET_ARN. A value that matches neither reads the
 * secret again (at most every 30 s), so a value put moments ago is accepted at once.
 */
export async function isOriginSecret(candidate: string): Promise<boolean> {
  const arn = process.env.ORIGIN_SECRET ? undefined : process.env.ORIGIN_SECRET_SECRET_ARN;
  const matches = (values: (string | undefined)[]) => values.some((v) => v !== undefined && sameSecret(candidate, v));
  if (!arn) return matches([await secret('ORIGIN_SECRET'), process.env.ORIGIN_SECRET_PREVIOUS || undefined]);
  const read = (refresh: boolean) =>
    Promise.all([fromSecretsManager(arn, 'AWSCURRENT', refresh), fromSecretsManager(arn, 'AWSPREVIOUS', refresh)]);
  if (matches(await read(false))) return true;
  if (Date.now() - lastOriginRefresh < REFRESH_MS) return false;
  lastOriginRefresh = Date.now();
  return matches(await read(true));
}
