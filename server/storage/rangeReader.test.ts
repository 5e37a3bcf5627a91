/** Ranged reads through the block cache: bytes across block edges, the object's end, one GET per block, a missing object. */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../ingest/testing.ts';
import { LocalDirectoryStore } from './localDirectory.ts';
import { ObjectRangeSource } from './rangeReader.ts';

let data: Awaited<ReturnType<typeof tempDir>>;
let store: LocalDirectoryStore;
const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
beforeAll(async () => {
  data = await tempDir('isobar-range-');
  store = new LocalDirectoryStore(data.dir);
  await store.put('p/points.bin', bytes);
});
afterAll(() => data?.remove());

it('reads across block edges and up to the end, one GET per block however often it is read', async () => {
  const ranges: number[] = [];
  const counted = Object.assign(Object.create(store) as LocalDirectoryStore, {
    getRange: (key: string, start: number, length: number) => {
      ranges.push(start);
      return store.getRange(key, start, length);
    },
  });
  const source = new ObjectRangeSource(counted, 'p/points.bin', 16);
  expect(await source.size()).toBe(100);
  const into = new Uint8Array(40);
  expect(await source.read(into, 5, 30, 10)).toBe(30);
  expect(Buffer.from(into.subarray(5, 35)).equals(bytes.subarray(10, 40))).toBe(true);
  expect(ranges).toEqual([0, 16, 32]);
  await Promise.all([source.read(into, 0, 4, 20), source.read(into, 0, 4, 33)]);
  expect(ranges).toEqual([0, 16, 32]);
  expect(await source.read(into, 0, 40, 90)).toBe(10);
  expect(Buffer.from(into.subarray(0, 10)).equals(bytes.subarray(90))).toBe(true);
  expect(ranges).toEqual([0, 16, 32, 80, 96]);
});

it('answers ENOENT for an object that is not there', async () => {
  const source = new ObjectRangeSource(store, 'p/gone.bin', 16);
  await expect(source.size()).rejects.toMatchObject({ code: 'ENOENT' });
  await expect(source.read(new Uint8Array(4), 0, 4, 0)).rejects.toMatchObject({ code: 'ENOENT' });
});
