import { describe, expect, it } from 'vitest';
import { TileCache } from './tileCache.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

function setup(capacity = 3, concurrency = 10) {
  const loads = new Map<string, ReturnType<typeof deferred<string>>>();
  const disposed: string[] = [];
  let loadCount = 0;
  const cache = new TileCache<string>({
    capacity,
    concurrency,
    load: (url) => {
      loadCount++;
      const d = deferred<string>();
      loads.set(url, d);
      return d.promise;
    },
    dispose: (data) => disposed.push(data),
  });
  return { cache, loads, disposed, loadCount: () => loadCount };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('tile cache (SPEC §4 data tile states)', () => {
  it('goes undefined -> loading -> loaded', async () => {
    const { cache, loads } = setup();
    expect(cache.state('a')).toBeUndefined();
    expect(cache.request('a', 'a')).toBe('loading');
    loads.get('a')!.resolve('A');
    await tick();
    expect(cache.state('a')).toBe('loaded');
    expect(cache.data('a')).toBe('A');
  });

  it('keeps a failed tile until the next request, which drops it and fetches again', async () => {
    const { cache, loads, loadCount } = setup();
    cache.request('a', 'a');
    loads.get('a')!.reject(new Error('HTTP 500'));
    await tick();
    expect(cache.state('a')).toBe('failed');
    expect(cache.get('a')?.error?.message).toBe('HTTP 500');
    expect(cache.request('a', 'a')).toBe('loading');
    expect(loadCount()).toBe(2);
    loads.get('a')!.resolve('A');
    await tick();
    expect(cache.data('a')).toBe('A');
  });

  it('evicts the least recently used unpinned tiles beyond capacity', async () => {
    const { cache, loads, disposed } = setup(2);
    for (const k of ['a', 'b']) {
      cache.request(k, k);
      loads.get(k)!.resolve(k.toUpperCase());
    }
    await tick();
    cache.pin(['c']);
    cache.get('a');
    cache.request('c', 'c');
    loads.get('c')!.resolve('C');
    await tick();
    expect(cache.state('b')).toBeUndefined();
    expect(disposed).toEqual(['B']);
    expect(cache.state('a')).toBe('loaded');
    expect(cache.counts()).toEqual({ total: 2, loading: 0, loaded: 2, failed: 0 });
  });

  it('never evicts pinned tiles, even over capacity', async () => {
    const { cache, loads } = setup(1);
    cache.pin(['a', 'b']);
    for (const k of ['a', 'b']) {
      cache.request(k, k);
      loads.get(k)!.resolve(k);
    }
    await tick();
    expect(cache.counts().loaded).toBe(2);
  });

  it('queues beyond the concurrency limit and cancels queued loads nobody pins', async () => {
    const { cache, loads, loadCount } = setup(10, 1);
    cache.pin(['a', 'b', 'c']);
    cache.request('a', 'a');
    cache.request('b', 'b');
    cache.request('c', 'c');
    expect(loadCount()).toBe(1);
    cache.pin(['a', 'c']);
    expect(cache.state('b')).toBeUndefined();
    loads.get('a')!.resolve('A');
    await tick();
    expect(loadCount()).toBe(2);
    expect(loads.has('c')).toBe(true);
  });

  it('resolves settled() waiters when a load ends', async () => {
    const { cache, loads } = setup();
    cache.request('a', 'a');
    let done = false;
    void cache.settled('a').then(() => { done = true; });
    await tick();
    expect(done).toBe(false);
    loads.get('a')!.resolve('A');
    await tick();
    await tick();
    expect(done).toBe(true);
    await expect(cache.settled('missing')).resolves.toBeUndefined();
  });

  it('disposes data that arrives after a clear', async () => {
    const { cache, loads, disposed } = setup();
    cache.request('a', 'a');
    cache.clear();
    loads.get('a')!.resolve('A');
    await tick();
    expect(cache.state('a')).toBeUndefined();
    expect(disposed).toEqual(['A']);
  });
});
