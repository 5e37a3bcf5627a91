import { describe, expect, it, vi } from 'vitest';
import { GPS_FIX_REUSE_MS, IP_LOCATION_STALE_MS } from '../../common/limits.ts';
import { fetchIpLocation, isIos, parseIpAnswer, resolveStartupPosition, type StartupInputs } from './startupPosition.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';

const NOW = Date.UTC(2026, 5, 1, 12);
function inputs(over: Partial<StartupInputs> = {}) {
  const saveIp = vi.fn();
  const saveGps = vi.fn();
  const fetchIp = vi.fn(async () => ({ lat: 50.08, lon: 14.42, ts: NOW, city: 'Prague', cc: 'cz' }));
  const askGps = vi.fn(async () => ({ lat: 49.2, lon: 16.6, ts: NOW }));
  const base: StartupInputs = {
    startUp: 'ip', startUpZoom: null, last: null, home: null, ip: null, gps: null, now: NOW,
    fetchIpLocation: fetchIp, askGps, saveIp, saveGps, ...over,
  };
  return { base, saveIp, saveGps, fetchIp: base.fetchIpLocation as typeof fetchIp, askGps: base.askGps as typeof askGps };
}

describe('start-up position (SPEC §4, §9)', () => {
  it('last: the saved position with its own zoom', async () => {
    const { base } = inputs({ startUp: 'last', last: { lat: 10, lon: 20, zoom: 7, source: 'maps' } });
    await expect(resolveStartupPosition(base)).resolves.toEqual({ lat: 10, lon: 20, zoom: 7, source: 'last' });
  });

  it.each([
    ['location', { home: { lat: 1, lon: 2 } }, { lat: 1, lon: 2, zoom: 5, source: 'location' }],
    ['location with startUpZoom', { home: { lat: 1, lon: 2 }, startUpZoom: 9 }, { lat: 1, lon: 2, zoom: 9, source: 'location' }],
  ] as const)('%s', async (_name, over, expected) => {
    const { base } = inputs({ startUp: 'location', ...over });
    await expect(resolveStartupPosition(base)).resolves.toEqual(expected);
  });

  it.each([
    ['last without a saved position', { startUp: 'last' }],
    ['location without a home', { startUp: 'location' }],
  ] as const)('%s falls back to the IP location', async (_name, over) => {
    const t = inputs(over);
    await expect(resolveStartupPosition(t.base)).resolves.toMatchObject({ lat: 50.08, lon: 14.42, source: 'ip', name: 'Prague', zoom: 5 });
    expect(t.saveIp).toHaveBeenCalled();
  });

  it.each([
    [0, false],
    [11 * HOUR_MS, false],
    [IP_LOCATION_STALE_MS - 1, false],
    [IP_LOCATION_STALE_MS, true],
    [30 * HOUR_MS, true],
  ])('an IP location %i ms old is refreshed: %s', async (age, refreshed) => {
    const t = inputs({ ip: { lat: 48.85, lon: 2.35, ts: NOW - age, city: 'Paris', cc: 'fr' } });
    const position = await resolveStartupPosition(t.base);
    expect(t.fetchIp).toHaveBeenCalledTimes(refreshed ? 1 : 0);
    expect(position?.name).toBe(refreshed ? 'Prague' : 'Paris');
    expect(t.saveIp).toHaveBeenCalledTimes(refreshed ? 1 : 0);
  });

  it('an IP location without a time stamp is refreshed', async () => {
    const t = inputs({ ip: { lat: 48.85, lon: 2.35 } });
    await resolveStartupPosition(t.base);
    expect(t.fetchIp).toHaveBeenCalledTimes(1);
  });

  it('a failed refresh keeps the stale IP location; without one the default centre stays', async () => {
    const stale = inputs({ ip: { lat: 48.85, lon: 2.35, ts: NOW - 2 * IP_LOCATION_STALE_MS }, fetchIpLocation: async () => null });
    await expect(resolveStartupPosition(stale.base)).resolves.toMatchObject({ lat: 48.85, lon: 2.35, source: 'ip' });
    const none = inputs({ fetchIpLocation: async () => null });
    await expect(resolveStartupPosition(none.base)).resolves.toBeNull();
  });

  it.each([
    [0, false],
    [14 * MINUTE_MS, false],
    [GPS_FIX_REUSE_MS - 1, false],
    [GPS_FIX_REUSE_MS, true],
    [HOUR_MS, true],
  ])('a GPS fix %i ms old: device asked %s', async (age, asked) => {
    const t = inputs({ startUp: 'gps', gps: { lat: 40, lon: -3, ts: NOW - age } });
    const position = await resolveStartupPosition(t.base);
    expect(t.askGps).toHaveBeenCalledTimes(asked ? 1 : 0);
    expect(position).toMatchObject(asked ? { lat: 49.2, lon: 16.6, source: 'gps', zoom: 8 } : { lat: 40, lon: -3, source: 'gps', zoom: 8 });
    expect(t.saveGps).toHaveBeenCalledTimes(asked ? 1 : 0);
  });

  it('gps refused quietly falls back to the IP location', async () => {
    const t = inputs({ startUp: 'gps', askGps: async () => null });
    await expect(resolveStartupPosition(t.base)).resolves.toMatchObject({ source: 'ip', name: 'Prague' });
  });

  it.each([
    // Located by the client's IP address.
    [{ ll: [51.5, -0.12], country: 'GB', city: 'London', approximate: true, source: 'ip' }, { lat: 51.5, lon: -0.12, cc: 'gb', city: 'London', ts: NOW, source: 'ip' }],
    // Only guessed from the browser's languages (a private or IPv6 address), or an older server without `source`.
    [{ ll: [51.5, -0.12], country: 'GB', city: 'London', approximate: true, source: 'accept-language' }, { lat: 51.5, lon: -0.12, cc: 'gb', city: 'London', ts: NOW, source: 'fallback' }],
    [{ ll: [51.5, -0.12], country: null, city: null }, { lat: 51.5, lon: -0.12, cc: null, city: null, ts: NOW, source: 'fallback' }],
    [{ ll: null, country: null, city: null }, null],
    [{ ll: [91, 0] }, null],
    [{ ll: ['a', 0] }, null],
    [{ ll: [1] }, null],
    ['nonsense', null],
    [null, null],
  ])('parses %j', (body, expected) => {
    expect(parseIpAnswer(body, NOW)).toEqual(expected);
  });

  it('fetchIpLocation: GET /services/umisteni, null on failure', async () => {
    const ok = vi.fn(async () => new Response(JSON.stringify({ ll: [1, 2], country: 'cz', city: 'X', approximate: true, source: 'ip' })));
    await expect(fetchIpLocation(() => NOW, ok as never)).resolves.toMatchObject({ lat: 1, lon: 2, source: 'ip' });
    expect(ok).toHaveBeenCalledWith('/services/umisteni', expect.anything());
    await expect(fetchIpLocation(() => NOW, (async () => new Response('', { status: 500 })) as never)).resolves.toBeNull();
    await expect(fetchIpLocation(() => NOW, (async () => { throw new TypeError('offline'); }) as never)).resolves.toBeNull();
  });

  it.each([
    [{ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', platform: 'iPhone', maxTouchPoints: 5 }, true],
    [{ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', platform: 'MacIntel', maxTouchPoints: 5 }, true],
    [{ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', platform: 'MacIntel', maxTouchPoints: 0 }, false],
    [{ userAgent: 'Mozilla/5.0 (Linux; Android 14)', platform: 'Linux', maxTouchPoints: 5 }, false],
  ])('iOS (no high accuracy): %j -> %s', (nav, expected) => {
    expect(isIos(nav)).toBe(expected);
  });
});
