import { describe, expect, it, vi } from 'vitest';
import { beaconUrl, clientId, createPageViewSender, type BeaconEnv } from './pageViewBeacon.ts';

const env = (over: Partial<BeaconEnv> = {}): BeaconEnv => ({
  lang: () => 'en', screen: () => ({ width: 1920, height: 1080 }), referrer: () => 'https://example.org/', startedAt: 1000, ...over,
});

describe('page-view beacon (SPEC §7 HEAD /sedlina/ga/{code})', () => {
  it('carries language, screen size, client id, page, referrer and elapsed time', () => {
    const url = new URL(beaconUrl({ page: 'detail', ts: 3500 }, env(), 'abc12345'), 'https://isobar.test');
    expect(url.pathname).toBe('/sedlina/ga/isobar');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      lang: 'en', screen: '1920x1080', cid: 'abc12345', page: 'detail', ref: 'https://example.org/', elapsed: '2500',
    });
  });

  it('keeps one client id on the device', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const first = clientId(storage);
    expect(first).toMatch(/^[a-z0-9]{16}$/);
    expect(clientId(storage)).toBe(first);
    expect(clientId(null)).toMatch(/^[a-z0-9]{16}$/);
  });

  it('sends HEAD requests with one id per page view', () => {
    const fetch = vi.fn(async () => undefined);
    const send = createPageViewSender(env({ fetch, storage: null }));
    send({ page: 'a', ts: 1000 });
    send({ page: 'b', ts: 2000 });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [[u1, init], [u2]] = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(init).toMatchObject({ method: 'HEAD' });
    expect(new URL(u1, 'http://x').searchParams.get('cid')).toBe(new URL(u2, 'http://x').searchParams.get('cid'));
  });
});
