/**
 * The store published data goes to, from the environment (server/storage/README.md):
 *
 *   ISOBAR_STORAGE_URL    unset: the local data directory (ISOBAR_DATA_DIR), exactly as without it;
 *                         s3://bucket/prefix: that bucket, keys under prefix/
 *   AWS_ENDPOINT_URL_S3   an S3-compatible server (MinIO, Ceph...), else AWS_ENDPOINT_URL, else AWS;
 *                         with an endpoint, path-style addressing (http://host/bucket/key)
 *   AWS_REGION            (or AWS_DEFAULT_REGION) default us-east-1
 *   AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (, AWS_SESSION_TOKEN)
 *                         credentials; without them the SDK's usual chain (profile, instance role)
 */

import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { LocalDirectoryStore } from './localDirectory.ts';
import type { ObjectStore } from './objectStore.ts';
import type { S3StoreOptions } from './s3Store.ts';

const DEFAULT_REGION = 'us-east-1';
/** S3 bucket names: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export class StorageConfigError extends Error {}

/** The S3 settings an `s3://bucket/prefix` URL and the AWS variables give; throws StorageConfigError on a bad URL. */
export function s3OptionsFromEnv(url: string, env: NodeJS.ProcessEnv): S3StoreOptions {
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(url);
  if (!match) throw new StorageConfigError(`ISOBAR_STORAGE_URL must be s3://bucket/prefix (or unset for the local data directory), not ${JSON.stringify(url)}`);
  const [, bucket, path = ''] = match;
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new StorageConfigError(`ISOBAR_STORAGE_URL: ${JSON.stringify(bucket)} is not an S3 bucket name (3-63 lower-case letters, digits, '.' and '-')`);
  }
  const segments = path.split('/').filter((s) => s !== '');
  const bad = segments.find((s) => !PREFIX_SEGMENT.test(s) || s.includes('..'));
  if (bad !== undefined) throw new StorageConfigError(`ISOBAR_STORAGE_URL: the prefix segment ${JSON.stringify(bad)} may hold only letters, digits, '_', '-' and '.'`);
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]+/.test(endpoint)) {
    throw new StorageConfigError(`AWS_ENDPOINT_URL${env.AWS_ENDPOINT_URL_S3 ? '_S3' : ''} must be an http(s) URL, not ${JSON.stringify(endpoint)}`);
  }
  const client: S3ClientConfig = { region: env.AWS_REGION || env.AWS_DEFAULT_REGION || DEFAULT_REGION };
  if (endpoint !== undefined) Object.assign(client, { endpoint, forcePathStyle: true });
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    client.credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined };
  }
  return { bucket, prefix: segments.map((s) => `${s}/`).join(''), client };
}

/**
 * The store: S3 when ISOBAR_STORAGE_URL is set, else the data directory. The AWS SDK is loaded only
 * for S3 (it adds about 0.2 s to a start that does not need it).
 */
export async function storageFromEnv(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ObjectStore> {
  const url = env.ISOBAR_STORAGE_URL?.trim();
  if (!url) return new LocalDirectoryStore(dataDir);
  const options = s3OptionsFromEnv(url, env);
  const { S3Store } = await import('./s3Store.ts');
  return new S3Store(options);
}
