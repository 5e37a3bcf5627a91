/**
 * S3, or any S3-compatible store (MinIO, Ceph, R2, s3rver in the tests), as an ObjectStore
 * (objectStore.ts), through the official AWS SDK: an object is `{prefix}{key}` in one bucket. A PUT
 * replaces an object whole, so readers see the old content or the new; publications order their
 * PUTs (objects first, pointer last: server/storage/runPublication.ts).
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
  type ListObjectsV2CommandOutput, type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { checkKey, type ObjectInfo, type ObjectStore } from './objectStore.ts';

/** Keys per DeleteObjects request: S3's limit. */
const DELETE_BATCH = 1000;
/**
 * How long a connection to the store may take to open, and how long a request's socket may stay
 * silent (no byte either way), before the request fails. The SDK sets neither by default: a store
 * that stops answering mid-request would hold a read, or a publication, forever. A failed read is
 * tried again by the SDK; a failed upload (its body is a file stream, which the SDK does not
 * replay) fails the publication, which leaves the previous run served and is tried next round.
 */
export const S3_CONNECT_TIMEOUT_MS = 10_000;
export const S3_IDLE_TIMEOUT_MS = 60_000;

export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key: '' or a path ending in '/'. */
  prefix: string;
  /** The SDK client's settings: region, endpoint, credentials. */
  client: S3ClientConfig;
  /** Default S3_CONNECT_TIMEOUT_MS and S3_IDLE_TIMEOUT_MS. */
  timeouts?: { connectMs: number; idleMs: number };
}

/** Whether an SDK error says the object (or range) is not there. */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

export class S3Store implements ObjectStore {
  readonly localRoot = null;
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default trailing checksums.
    const { connectMs, idleMs } = options.timeouts ?? { connectMs: S3_CONNECT_TIMEOUT_MS, idleMs: S3_IDLE_TIMEOUT_MS };
    this.client = new S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: connectMs, socketTimeout: idleMs },
      ...options.client,
    });
    const endpoint = typeof options.client.endpoint === 'string' ? ` at ${options.client.endpoint}` : '';
    this.description = `s3://${this.bucket}/${this.prefix}${endpoint}`;
  }

  private key(key: string, prefix = false): string {
    return this.prefix + checkKey(key, prefix);
  }

  async get(key: string): Promise<Buffer | null> {
    return this.read(key);
  }

  async getRange(key: string, start: number, length: number): Promise<Buffer | null> {
    if (length <= 0) return Buffer.alloc(0);
    return this.read(key, `bytes=${start}-${start + length - 1}`);
  }

  private async read(key: string, range?: string): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key), Range: range }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return { size: answer.ContentLength ?? 0, version: answer.ETag ?? '', modified: answer.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async put(key: string, data: string | Uint8Array): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: data }));
  }

  async putFile(key: string, path: string): Promise<void> {
    const { size } = await stat(path);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: createReadStream(path), ContentLength: size }));
  }

  async list(prefix: string): Promise<string[]> {
    const full = this.key(prefix, true);
    const names: string[] = [];
    for await (const page of this.pages(full, '/')) {
      for (const p of page.CommonPrefixes ?? []) names.push(p.Prefix!.slice(full.length, -1));
      for (const o of page.Contents ?? []) names.push(o.Key!.slice(full.length));
    }
    return names.sort();
  }

  private async *pages(prefix: string, delimiter?: string): AsyncIterable<ListObjectsV2CommandOutput> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }));
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async listAll(prefix: string): Promise<string[]> {
    const full = this.key(prefix, true);
    const keys: string[] = [];
    for await (const page of this.pages(full)) for (const o of page.Contents ?? []) keys.push(o.Key!.slice(full.length));
    return keys.sort();
  }

  async deletePrefix(prefix: string): Promise<void> {
    for await (const page of this.pages(this.key(prefix, true))) {
      const keys = (page.Contents ?? []).map((o) => o.Key!);
      if (keys.length) await this.deleteFull(keys);
    }
  }

  async delete(keys: string[]): Promise<void> {
    await this.deleteFull(keys.map((key) => this.key(key)));
  }

  private async deleteFull(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const answer = await this.client.send(new DeleteObjectsCommand({
        Bucket: this.bucket, Delete: { Objects: keys.slice(i, i + DELETE_BATCH).map((Key) => ({ Key })), Quiet: true },
      }));
      const failed = answer.Errors?.[0];
      if (failed) throw new Error(`Could not delete ${failed.Key} from ${this.description}: ${failed.Code ?? ''} ${failed.Message ?? ''}`);
    }
  }

  /** Closes the SDK client's connections. */
  close(): void {
    this.client.destroy();
  }
}
