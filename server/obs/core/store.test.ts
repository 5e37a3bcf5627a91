/**
 * Observation products in object storage (ObsStore over S3, a real S3-compatible server: s3rver,
 * started here): an item uploaded whole and replaced without leftovers, documents written and read,
 * listing and removal, and the route serving the files (a gzip-stored tile inflated for a client
 * without gzip) as it serves them from the data directory.
 */

import { writeFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../ingest/testing.ts';
import { startTestS3, type TestS3 } from '../../storage/testing.ts';
import { obsRoutes } from './routes.ts';
import { ObsStore } from './store.ts';

describe('ObsStore in object storage (s3rver)', () => {
  let s3: TestS3;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let store: ObsStore;
  beforeAll(async () => {
    [s3, data] = await Promise.all([startTestS3(), tempDir('isobar-obs-s3-')]);
    store = new ObsStore(data.dir, s3.store('obs-test'));
  });
  afterAll(async () => {
    await s3?.close();
    await data?.remove();
  });

  /** An item folder with these files (relative path to content). */
  const item = (files: Record<string, string | Uint8Array>) => async (dir: string) => {
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(join(dir, rel, '..'), { recursive: true });
      await writeFile(join(dir, rel), content);
    }
  };

  it('uploads an item, replaces it without leftovers, writes the manifest after, lists and removes, and keeps nothing on the local disk', async () => {
    const tile = gzipSync(Buffer.from('tile bytes'));
    await store.publishDir('radar', 'frames/201', item({ '0/0/0.tile': tile, '1/0/0.tile': tile, 'frame.json': '{"n":1}' }));
    await store.writeJson('radar', 'manifest.json', { frames: ['201'] });
    expect(await store.readJson('radar', 'manifest.json')).toEqual({ frames: ['201'] });
    // (s3rver lists a name only where an object is at most one level below it: 'frames' at the top is not.)
    expect(await store.list('radar', 'frames')).toEqual(['201']);

    await store.publishDir('radar', 'frames/201', item({ '0/0/0.tile': tile, 'frame.json': '{"n":2}' }));
    const remote = s3.store('obs-test');
    expect(await remote.listAll('obs/radar/frames/201/')).toEqual(['0/0/0.tile', 'frame.json']);
    expect(await store.readJson('radar', 'frames/201/frame.json')).toEqual({ n: 2 });
    // Staging is removed, and nothing is published in the data directory.
    expect(await readdir(join(data.dir, 'obs', '.staging'))).toEqual([]);
    expect(await readdir(join(data.dir, 'obs'))).toEqual(['.staging']);

    const app = Fastify();
    await app.register(obsRoutes, { store, status: () => [] });
    const gz = await app.inject({ url: '/obs/v1.0/radar/frames/201/0/0/0.tile', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(tile)).toBe(true);
    const plain = await app.inject({ url: '/obs/v1.0/radar/frames/201/0/0/0.tile', headers: { 'accept-encoding': 'identity' } });
    expect(plain.body).toBe('tile bytes');
    const manifest = await app.inject({ url: '/obs/v1.0/radar/manifest.json' });
    expect(manifest.json()).toEqual({ frames: ['201'] });
    expect(manifest.headers['last-modified']).toMatch(/GMT$/);
    expect((await app.inject({ url: '/obs/v1.0/radar/frames/201/1/0/0.tile' })).statusCode).toBe(404);

    await store.remove('radar', 'frames/201');
    expect(await store.list('radar', 'frames')).toEqual([]);
    expect((await app.inject({ url: '/obs/v1.0/radar/frames/201/frame.json' })).statusCode).toBe(404);
    await app.close();
  });
});
