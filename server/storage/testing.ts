/**
 * A real S3-compatible server for tests: s3rver in this process, on a free port, over a temporary
 * directory, with one bucket; `env` is what an operator would set (server/storage/fromEnv.ts).
 * s3rver's one known gap: a delimited listing (ObjectStore.list) names a sub-prefix only when an
 * object lies at most one level below it; S3 names them all. Tests list where that holds.
 */

import S3rver from 's3rver';
import { tempDir } from '../ingest/testing.ts';
import { S3Store } from './s3Store.ts';
import { s3OptionsFromEnv } from './fromEnv.ts';

export const TEST_BUCKET = 'isobar-test';

export interface TestS3 {
  /** ISOBAR_STORAGE_URL and the AWS variables for a store under `prefix`. */
  env(prefix: string): NodeJS.ProcessEnv;
  /** A store under `prefix` of the bucket. */
  store(prefix: string): S3Store;
  close(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const data = await tempDir('isobar-s3-');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: data.dir, configureBuckets: [{ name: TEST_BUCKET, configs: [] }] });
  const { port } = await server.run();
  const stores: S3Store[] = [];
  const env = (prefix: string): NodeJS.ProcessEnv => ({
    ISOBAR_STORAGE_URL: `s3://${TEST_BUCKET}/${prefix}`, AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_REGION: 'us-east-1',
    // s3rver's fixed test credentials.
    AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  return {
    env,
    store(prefix) {
      const e = env(prefix);
      const store = new S3Store(s3OptionsFromEnv(e.ISOBAR_STORAGE_URL!, e));
      stores.push(store);
      return store;
    },
    async close() {
      for (const store of stores) store.close();
      await server.close();
      await data.remove();
    },
  };
}
