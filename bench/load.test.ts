import { describe, expect, it } from 'vitest';
import { benchLoad, loadChecks, loadSection } from './load.ts';

describe('benchLoad', () => {
  it('drives every row against a server process at a fraction of the rates, and reports each', async () => {
    const r = await benchLoad({ seconds: 1, warmupSeconds: 0.2, rateScale: 0.05 });
    const rows = [r.forecast, r.forecastBesideTiles, r.uncachedTiles, r.oneTile, r.cachedTiles, r.cachedTilesIdentity, r.accounts];
    expect(rows.map((row) => [row.rate, row.count])).toEqual([[25, 25], [25, 25], [1, 1], [25, 25], [25, 25], [25, 25], [10, 10]]);
    for (const row of [r.forecast, r.forecastBesideTiles, r.oneTile, r.cachedTiles, r.cachedTilesIdentity]) expect(row.statuses).toEqual({ 200: 25 });
    expect(r.accounts.errors).toBe(0);
    // Settings and favourites polls answer 304 once nothing changed since the storeTs they send.
    expect((r.accounts.statuses[200] ?? 0) + (r.accounts.statuses[304] ?? 0)).toBe(10);
    // An uncached tile is generated, or refused while the threads are busy.
    expect(Object.keys(r.uncachedTiles.statuses).every((status) => status === '200' || status === '503')).toBe(true);
    for (const row of rows) {
      expect(row.p99Ms).toBeGreaterThanOrEqual(row.p50Ms);
      expect(row.serverLoopDelay.maxMs).toBeGreaterThanOrEqual(row.serverLoopDelay.p99Ms);
      // /proc counts in 10 ms ticks: a short row may show none.
      if (process.platform === 'linux') expect(row.serverCpuMs).toBeGreaterThanOrEqual(0);
    }
    expect(loadChecks(r)).toHaveLength(6);
    const section = loadSection(r).join('\n');
    expect(section).toContain('| point forecast, random places, 25/s | ');
    expect(section).toContain('| uncached demo tiles, 1/s (beside the forecast) | ');
  }, 120_000);
});
