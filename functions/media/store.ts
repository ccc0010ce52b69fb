// Public: the media bucket's objects and the upload records, for conversations, channels and the sandbox.
import type { S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { BUCKETS } from '../../catalog/resources';
import { db } from '../platform/db';
import { requireEnv, tableName } from '../platform/config';
import { tenantPk } from '../platform/keys';
import { DOWNLOAD_URL_SECONDS, UPLOAD_URL_SECONDS, type AttachmentType, type MessageMedia } from './media';

/**
 * The only code that builds media keys: S3 objects under one prefix per tenant, and the Main table's
 * upload records.
 *   s3://<media bucket>/tenants/<tenant>/media/<med_id>   the bytes (lifecycle-expired: catalog/resources.ts)
 *   pk TENANT#<t>  sk MEDIA#<med_id>                     an upload: its declared type, size and name
 */
const objectKey = (tenantId: string, mediaId: string) => `tenants/${tenantId}/media/${mediaId}`;
const uploadKey = (tenantId: string, mediaId: string) => ({ pk: tenantPk(tenantId), sk: `MEDIA#${mediaId}` });
const bucket = () => requireEnv(BUCKETS.media.envVar);

type S3Sdk = typeof import('#media-s3');
let loaded: Promise<S3Sdk & { client: S3Client }> | undefined;
/**
 * The SDK's S3 part, loaded on the first call that needs it (functions/media/s3-sdk.ts says why), with one
 * client per process. Locally AWS_ENDPOINT_URL_S3 points at the emulator, addressed path-style (no
 * per-bucket host names on loopback); in AWS the SDK's defaults.
 */
function s3(): Promise<S3Sdk & { client: S3Client }> {
  loaded ??= import('#media-s3').then(
    (sdk) => ({ ...sdk, client: new sdk.S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) }) }),
    (error: unknown) => {
      loaded = undefined; // not kept: the next call tries again
      throw error;
    },
  );
  return loaded;
}

export const s3Client = async (): Promise<S3Client> => (await s3()).client;

export async function putMediaObject(
  tenantId: string,
  mediaId: string,
  bytes: Uint8Array,
  mimeType: string,
): Promise<void> {
  const { client, PutObjectCommand } = await s3();
  await client.send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: objectKey(tenantId, mediaId),
      Body: bytes,
      ContentType: mimeType,
      ContentLength: bytes.byteLength,
    }),
  );
}

/** The object's bytes and type; undefined when it is not there (never uploaded, or expired). */
export async function getMediaObject(
  tenantId: string,
  mediaId: string,
): Promise<{ bytes: Uint8Array; mimeType: string } | undefined> {
  try {
    const { client, GetObjectCommand } = await s3();
    const out = await client.send(new GetObjectCommand({ Bucket: bucket(), Key: objectKey(tenantId, mediaId) }));
    return { bytes: await out.Body!.transformToByteArray(), mimeType: out.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey' || (error as Error).name === 'NotFound') return undefined;
    throw error;
  }
}

/** The object's size and type, without its bytes; undefined when it is not there. */
export async function headMediaObject(
  tenantId: string,
  mediaId: string,
): Promise<{ size: number; mimeType: string } | undefined> {
  try {
    const { client, HeadObjectCommand } = await s3();
    const out = await client.send(new HeadObjectCommand({ Bucket: bucket(), Key: objectKey(tenantId, mediaId) }));
    return { size: out.ContentLength ?? 0, mimeType: out.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** A short-lived GET URL for one object (presigning is local: no request is made). */
export async function presignDownload(
  tenantId: string,
  media: Pick<MessageMedia, 'id' | 'filename'>,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const { client, GetObjectCommand, getSignedUrl } = await s3();
  const url = await getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: bucket(),
      Key: objectKey(tenantId, media.id),
      // A document keeps its name when saved; nothing the browser would render inline is trusted as HTML.
      ...(media.filename
        ? { ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(media.filename)}` }
        : {}),
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
  return { url, expiresAt: new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000) };
}

/**
 * A short-lived PUT URL for one object, signed with its type and exact length: S3 refuses a body of
 * another length or type, so the declared size (checked against WhatsApp's limit) is the size stored.
 */
export async function presignUpload(
  tenantId: string,
  mediaId: string,
  mimeType: string,
  size: number,
  now: Date,
): Promise<{ url: string; headers: Record<string, string>; expiresAt: Date }> {
  const { client, PutObjectCommand, getSignedUrl } = await s3();
  const url = await getSignedUrl(
    client,
    new PutObjectCommand({
      Bucket: bucket(),
      Key: objectKey(tenantId, mediaId),
      ContentType: mimeType,
      ContentLength: size,
    }),
    { expiresIn: UPLOAD_URL_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) },
  );
  return {
    url,
    headers: { 'Content-Type': mimeType },
    expiresAt: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000),
  };
}

/** What an upload was declared as, kept until the file is sent (or the record expires). */
export interface MediaUpload {
  id: string;
  tenant_id: string;
  type: AttachmentType;
  mime_type: string;
  size: number;
  filename: string | null;
  created_at: string;
  /** After this the upload URL no longer works; the record itself lives as long as the object. */
  upload_expires_at: string;
}

export async function putUpload(upload: MediaUpload, retentionDays: number): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: {
        ...uploadKey(upload.tenant_id, upload.id),
        ...upload,
        ttl: Math.floor(Date.parse(upload.created_at) / 1000) + retentionDays * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** An upload of this tenant only (another tenant's id is simply not found). */
export async function getUpload(tenantId: string, mediaId: string): Promise<MediaUpload | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: uploadKey(tenantId, mediaId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, ttl: _ttl, ...upload } = out.Item;
  return upload as MediaUpload;
}
