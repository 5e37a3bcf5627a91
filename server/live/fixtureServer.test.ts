import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureServer } from './fixtureServer.ts';

describe('FixtureServer', () => {
  let server: FixtureServer;
  const body = new TextEncoder().encode('0123456789');

  beforeAll(async () => {
    server = await FixtureServer.start();
    server.put('/dir/a.bin', body);
    server.put('/dir/b.bin', 'b');
    server.put('/dir/sub/c.bin', 'c');
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (path: string, range?: string) => fetch(`${server.url}${path}`, { headers: range ? { range } : {} });

  it.each([
    ['bytes=2-4', 206, 'bytes 2-4/10', '234'],
    ['bytes=7-', 206, 'bytes 7-9/10', '789'],
    ['bytes=-3', 206, 'bytes 7-9/10', '789'],
    ['bytes=5-100', 206, 'bytes 5-9/10', '56789'],
    ['bytes=0-1,4-5', 200, null, '0123456789'],
    ['bytes=20-', 416, 'bytes */10', ''],
  ])('answers Range %s with %i', async (range, status, contentRange, text) => {
    const response = await get('/dir/a.bin', range);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-range')).toBe(contentRange);
    expect(await response.text()).toBe(text);
  });

  it('answers a query-addressed service by its parameters, the latest put first, else the file at the path', async () => {
    server.putQuery('/api', { id: '1', type: 'csv' }, 'one');
    server.putQuery('/api', { id: '2' }, 'two');
    server.putQuery('/api', { id: '2', type: 'csv' }, 'two as csv');
    expect(await (await get('/api?type=csv&id=1&extra=x')).text()).toBe('one');
    expect(await (await get('/api?id=2&type=csv')).text()).toBe('two as csv');
    expect(await (await get('/api?id=2')).text()).toBe('two');
    expect((await get('/api?id=3')).status).toBe(404);
    server.put('/api', 'any');
    expect(await (await get('/api?id=3')).text()).toBe('any');
    server.remove('/api');
    expect((await get('/api?id=1')).status).toBe(404);
  });

  it('lists a directory like an autoindex page, one level deep', async () => {
    const html = await (await get('/dir/')).text();
    expect([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(['../', 'a.bin', 'b.bin']);
    expect((await get('/nothing/')).status).toBe(404);
  });

  it('lists keys by prefix like S3 ListObjectsV2, a page at a time', async () => {
    const keys = (xml: string) => [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]);
    const all = await (await get('/?list-type=2&prefix=dir/')).text();
    expect(keys(all)).toEqual(['dir/a.bin', 'dir/b.bin', 'dir/sub/c.bin']);
    expect(all).toContain('<IsTruncated>false</IsTruncated>');
    const first = await (await get('/?list-type=2&prefix=dir/&max-keys=2')).text();
    expect(keys(first)).toEqual(['dir/a.bin', 'dir/b.bin']);
    const token = /<NextContinuationToken>([^<]+)</.exec(first)?.[1];
    expect(token).toBeDefined();
    const second = await (await get(`/?list-type=2&prefix=dir/&max-keys=2&continuation-token=${encodeURIComponent(token!)}`)).text();
    expect(keys(second)).toEqual(['dir/sub/c.bin']);
    expect(keys(await (await get('/?list-type=2&prefix=none/')).text())).toEqual([]);
  });

  it('injects a fault a given number of times, after letting some requests through', async () => {
    server.fault({ path: '/dir/b.bin', fault: { kind: 'status', status: 503 }, after: 1, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/dir/b.bin')).status);
    expect(statuses).toEqual([200, 503, 503, 200]);
    expect(server.requests('/dir/b.bin').map((r) => r.status)).toEqual(statuses);
  });
});
