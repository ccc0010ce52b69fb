/**
 * The S3 client and presigner, imported by media/store.ts on first use only, as `#media-s3` (package.json
 * `imports`). Deployed, they are a bundle of their own beside the functions whose bundles import them
 * (catalog/bundling.ts BUNDLES_BESIDE): most requests of those functions never touch S3 (a message list
 * without attachments, a booking), and parsing the client at every cold start took about a fifth of it.
 */
export { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
