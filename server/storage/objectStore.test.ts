/**
 * The ObjectStore contract on both adapters: the local data directory and S3 (a real S3-compatible
 * server, s3rver, started here). Then the environment's choice of store and its errors.
 */

import { createServer, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../ingest/testing.ts';
import { storageFromEnv, StorageConfigError } from './fromEnv.ts';
import { LocalDirectoryStore } from './localDirectory.ts';
import type { ObjectStore } from './objectStore.ts';
import { S3Store } from './s3Store.ts';
import { startTestS3, type TestS3 } from './testing.ts';

let s3: TestS3;
let scratch: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  [s3, scratch] = await Promise.all([startTestS3(), tempDir('isobar-store-')]);
});
afterAll(async () => {
  await s3?.close();
  await scratch?.remove();
});

const adapters: [string, () => ObjectStore][] = [
  ['the local directory', () => new LocalDirectoryStore(join(scratch.dir, 'local'))],
  ['S3 (s3rver)', () => s3.store('contract')],
];

describe.each(adapters)('ObjectStore on %s', (_name, make) => {
  it('puts, gets whole and by range, heads, lists one level, and deletes by prefix and by key', async () => {
    const store = make();
    expect(await store.get('p/current.json')).toBeNull();
    expect(await store.getRange('p/runs/a/points.bin', 0, 4)).toBeNull();
    expect(await store.head('p/current.json')).toBeNull();
    expect(await store.list('p/')).toEqual([]);

    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i & 255));
    const file = join(scratch.dir, 'points.bin');
    await writeFile(file, bytes);
    await store.putFile('p/runs/a/points.bin', file);
    await store.put('p/runs/a/run.json', '{"id":"a"}');
    await store.put('p/runs/b/run.json', new Uint8Array([1, 2]));
    await store.put('p/current.json', '{"run":"a"}');

    expect((await store.get('p/runs/a/points.bin'))!.equals(bytes)).toBe(true);
    expect((await store.getRange('p/runs/a/points.bin', 10, 5))!.equals(bytes.subarray(10, 15))).toBe(true);
    expect((await store.getRange('p/runs/a/points.bin', 290, 64))!.equals(bytes.subarray(290))).toBe(true);
    const head = (await store.head('p/current.json'))!;
    expect(head.size).toBe(11);
    await store.put('p/current.json', '{"run":"b"}');
    expect((await store.head('p/current.json'))!.version).not.toBe(head.version);
    expect((await store.get('p/current.json'))!.toString()).toBe('{"run":"b"}');

    // (s3rver lists the names one level down only where an object is at most one level below them, as here.)
    expect(await store.list('p/runs/')).toEqual(['a', 'b']);
    expect(await store.list('p/runs/a/')).toEqual(['points.bin', 'run.json']);
    expect(await store.listAll('p/')).toEqual(['current.json', 'runs/a/points.bin', 'runs/a/run.json', 'runs/b/run.json']);
    await store.deletePrefix('p/runs/a/');
    expect(await store.list('p/runs/')).toEqual(['b']);
    expect(await store.get('p/runs/a/run.json')).toBeNull();
    await store.delete(['p/runs/b/run.json', 'p/runs/b/not-there', 'p/current.json']);
    expect(await store.get('p/runs/b/run.json')).toBeNull();
    expect(await store.head('p/current.json')).toBeNull();
  });

  it.each(['', '/abs', 'a/../b', 'a//b', 'a/b/'])('refuses the key %j', async (key) => {
    await expect(make().get(key)).rejects.toThrow(/Not a valid object key/);
  });
});

describe('storageFromEnv', () => {
  it('is the data directory when ISOBAR_STORAGE_URL is unset or empty', async () => {
    for (const env of [{}, { ISOBAR_STORAGE_URL: ' ' }]) {
      const store = await storageFromEnv('/srv/isobar-data', env);
      expect(store.localRoot).toBe('/srv/isobar-data');
    }
  });

  it('is the S3 bucket and prefix of the URL, at the endpoint the AWS variables name, without showing the credentials', async () => {
    const env = s3.env('from-env/x');
    const store = await storageFromEnv('/unused', env);
    expect(store).toBeInstanceOf(S3Store);
    expect(store.description).toBe(`s3://isobar-test/from-env/x/ at ${env.AWS_ENDPOINT_URL}`);
    await store.put('k/v.json', '1');
    expect((await s3.store('from-env/').get('x/k/v.json'))!.toString()).toBe('1');
    (store as S3Store).close();
  });

  it.each([
    ['http://bucket/prefix', /must be s3:\/\/bucket\/prefix/],
    ['s3://', /not an S3 bucket name/],
    ['s3://ab/x', /not an S3 bucket name/],
    ['s3://Upper/x', /not an S3 bucket name/],
    ['s3://bucket/a/../b', /prefix segment/],
    ['s3://bucket/a b', /prefix segment/],
  ])('refuses ISOBAR_STORAGE_URL=%s with a clear error', async (url, message) => {
    await expect(storageFromEnv('/d', { ISOBAR_STORAGE_URL: url })).rejects.toThrow(StorageConfigError);
    await expect(storageFromEnv('/d', { ISOBAR_STORAGE_URL: url })).rejects.toThrow(message);
  });

  it('refuses an endpoint that is not an http(s) URL', async () => {
    await expect(storageFromEnv('/d', { ISOBAR_STORAGE_URL: 's3://bucket', AWS_ENDPOINT_URL_S3: 'localhost:9000' })).rejects.toThrow(/AWS_ENDPOINT_URL_S3 must be an http\(s\) URL/);
  });
});

describe('S3Store against a store that stops answering', () => {
  it('fails a read and an upload once the connection has been silent for the idle time, instead of waiting forever', async () => {
    // Takes each request and never answers it.
    const sockets: Socket[] = [];
    let requests = 0;
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => {
        if (/^(GET|PUT) /.test(chunk.toString('latin1'))) requests++;
      });
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    const store = new S3Store({
      bucket: 'isobar-test', prefix: '',
      client: { endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'k', secretAccessKey: 's' } },
      timeouts: { connectMs: 1000, idleMs: 300 },
    });
    const file = join(scratch.dir, 'upload.bin');
    await writeFile(file, Buffer.alloc(4096, 1));
    try {
      await expect(store.get('runs/x/run.json')).rejects.toThrow(/timed out after 300 ms of inactivity/);
      // A read is tried again by the SDK: every try timed out.
      expect(requests).toBeGreaterThan(1);
      const before = requests;
      await expect(store.putFile('runs/x/tile.bin', file)).rejects.toThrow(/timed out after 300 ms of inactivity/);
      expect(requests).toBeGreaterThan(before);
    } finally {
      store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });
});
