import { describe, expect, it } from 'vitest';
import { lazy } from './compose.ts';

/** A start whose promise the test settles. */
function controlled<T>() {
  const starts: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  const start = () => new Promise<T>((resolve, reject) => {
    starts.push({ resolve, reject });
  });
  return { start, starts };
}

describe('lazy (a service of the composition root, started once)', () => {
  it('starts on the first call only, answers every call with the same promise, and is readable once started', async () => {
    const { start, starts } = controlled<{ name: string }>();
    const service = lazy(start);
    expect(starts).toHaveLength(0);
    expect(service.peek()).toBeNull();

    const first = service();
    const second = service();
    expect(second).toBe(first);
    expect(starts).toHaveLength(1);
    expect(service.peek()).toBeNull();

    const started = { name: 'account' };
    starts[0].resolve(started);
    await expect(first).resolves.toBe(started);
    expect(service.peek()).toBe(started);
    await expect(service()).resolves.toBe(started);
    expect(starts).toHaveLength(1);
  });

  it('starts again on the next call after a failed start (a chunk that did not load), and tells the failure to its callers', async () => {
    const { start, starts } = controlled<string>();
    const service = lazy(start);
    const failed = service();
    const alsoFailed = service();
    starts[0].reject(new TypeError('Failed to fetch dynamically imported module'));
    await expect(failed).rejects.toThrow('Failed to fetch');
    await expect(alsoFailed).rejects.toThrow('Failed to fetch');
    expect(service.peek()).toBeNull();

    const retried = service();
    expect(retried).not.toBe(failed);
    expect(starts).toHaveLength(2);
    starts[1].resolve('services');
    await expect(retried).resolves.toBe('services');
    expect(service.peek()).toBe('services');
  });
});
