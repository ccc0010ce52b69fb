import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Secrets come from the environment in local mode (JWT_SECRET, PLATFORM_TOKEN) and from Secrets Manager
 * in AWS (JWT_SECRET_ARN, PLATFORM_TOKEN_SECRET_ARN). They are fetched on first use and cached for five
 * minutes, so rotation is picked up without a cold start.
 */
const CACHE_MS = 5 * 60 * 1000;
const cache = new Map<string, { value: string; at: number }>();

async function fromSecretsManager(arn: string): Promise<string> {
  const hit = cache.get(arn);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  // Imported lazily: handlers that never need a secret do not pay for the client at cold start.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!out.SecretString) throw new Error('Secret has no string value');
  cache.set(arn, { value: out.SecretString, at: Date.now() });
  return out.SecretString;
}

async function secret(envName: string): Promise<string> {
  const direct = process.env[envName];
  if (direct) return direct;
  const arn = process.env[`${envName}_SECRET_ARN`];
  if (arn) return fromSecretsManager(arn);
  throw new Error(`Neither ${envName} nor ${envName}_SECRET_ARN is set`);
}

/** The HS256 key for access and refresh tokens; cursor keys are derived from it too. */
export const signingSecret = async (): Promise<Uint8Array> => new TextEncoder().encode(await secret('JWT_SECRET'));

/** The AES-256 key for secrets stored in the table (channel credentials): its own secret, rotated apart. */
export const dataKey = async (): Promise<Buffer> => createHash('sha256').update(await secret('DATA_KEY')).digest();

export async function isPlatformToken(candidate: string): Promise<boolean> {
  const expected = await secret('PLATFORM_TOKEN');
  // Compare digests so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
