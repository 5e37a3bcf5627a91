import { describe, expect, it } from 'vitest';
import {
  dayIndex, defaultStepHours, grantForecast, grantTides, isPremium, isPremiumDayExempt, isPremiumStep, isRefusal, maxTileZoomFor, premiumFrom,
} from './entitlements.ts';
import { HOUR_MS } from './time.ts';

const NOW = Date.UTC(2025, 10, 26, 12);
const REF = Date.UTC(2025, 10, 26, 12); // a 12Z run: its first day is 26 November

describe('isPremium (SPEC §4: only status active sets the tier)', () => {
  it.each([
    [null, false],
    [{}, false],
    [{ status: 'active' }, true],
    [{ status: 'active', expiresAt: NOW + 1 }, true],
    [{ status: 'active', expiresAt: NOW }, false],
    [{ status: 'active', expiresAt: new Date(NOW + HOUR_MS).toISOString() }, true],
    [{ status: 'active', expiresAt: '2020-01-01T00:00:00Z' }, false],
    [{ status: 'active', expiresAt: null }, true],
    [{ status: 'graced' }, false],
    [{ status: 'onhold' }, false],
    [{ status: 'paused' }, false],
    [{ status: 'canceled', expiresAt: NOW + HOUR_MS }, false],
  ])('%j -> %s', (info, expected) => {
    expect(isPremium(info, NOW)).toBe(expected);
  });
});

describe('premium days (SPEC §6: calendar days from day index 6)', () => {
  it.each([
    [0, 0], [11, 0], [12, 1], [12 + 24 * 5 - 1, 5], [12 + 24 * 5, 6], [240, 10],
  ])('+%i h of a 12Z run is day index %i', (hours, index) => {
    expect(dayIndex(REF, REF + hours * HOUR_MS)).toBe(index);
  });

  it('premium days start at 00:00 UTC of day index 6', () => {
    expect(premiumFrom(REF)).toBe(Date.UTC(2025, 11, 2));
    expect(isPremiumStep(REF, premiumFrom(REF) - 1)).toBe(false);
    expect(isPremiumStep(REF, premiumFrom(REF))).toBe(true);
  });

  it.each([
    ['wind', false], ['drought', true], ['fireDanger', true], [undefined, false],
  ])('%s exempt: %s', (layer, exempt) => {
    expect(isPremiumDayExempt(layer)).toBe(exempt);
    expect(isPremiumStep(REF, REF + 200 * HOUR_MS, layer)).toBe(!exempt);
  });
});

describe('grantForecast: what a tier may have of forecast values (SPEC §1, §6, §9)', () => {
  const maxTileZoom = { free: 3, premium: 4 };
  const product = { maxTileZoom };
  const at = (hours: number) => REF + hours * HOUR_MS;
  const firstPremium = premiumFrom(REF);

  it.each([
    [3, 10, null],
    [4, 10, /Data zoom 4 requires Premium: the free tier has tiles up to data zoom 3/],
    [2, 200, /days from day 7 of the run require Premium/],
  ])('a tile at data zoom %i, +%i h', (z, hours, expected) => {
    const ask = { kind: 'tile' as const, product, refTime: REF, validTime: at(hours), z, layer: 'wind' };
    const free = grantForecast(ask, false);
    const premium = grantForecast(ask, true);
    if (expected === null) {
      expect(free).toEqual({ premiumOnly: false });
      expect(premium).toEqual({ premiumOnly: false });
    } else {
      expect(isRefusal(free) && free.need).toMatch(expected);
      expect(premium).toEqual({ premiumOnly: true });
    }
  });

  it('exempt layers and samples pass on premium days', () => {
    const late = { kind: 'tile' as const, product, refTime: REF, validTime: at(200), z: 2 };
    expect(isRefusal(grantForecast({ ...late, layer: 'drought' }, false))).toBe(false);
    expect(isRefusal(grantForecast({ ...late, layer: 'fireDanger' }, false))).toBe(false);
    expect(isRefusal(grantForecast({ ...late, layer: 'wind', product: { ...product, sample: true } }, false))).toBe(false);
    expect(grantForecast({ kind: 'series', product, refTime: REF, layer: 'drought' }, false)).toEqual({ step: 3, to: undefined, premiumOnly: false });
  });

  it('a series without a step gets the tier\'s default step (3 h free, 1 h Premium)', () => {
    expect(grantForecast({ kind: 'series', product, refTime: REF }, false)).toEqual({ step: 3, to: firstPremium - 1, premiumOnly: false });
    expect(grantForecast({ kind: 'series', product, refTime: REF }, true)).toEqual({ step: 1, to: undefined, premiumOnly: true });
  });

  it.each([[3, false], [1, true]])('step %i asked: refused to free callers when it needs Premium', (step, premiumStep) => {
    const ask = { kind: 'series' as const, product, refTime: REF, step, to: at(24) };
    const free = grantForecast(ask, false);
    if (premiumStep) expect(isRefusal(free) && free.need).toBe('1-hour steps require Premium: the free tier has 3-hour steps');
    else expect(free).toEqual({ step: 3, to: at(24), premiumOnly: false });
    expect(grantForecast(ask, true)).toEqual({ step, to: at(24), premiumOnly: premiumStep });
  });

  it('a free window is cut before the premium days; one wholly inside them is refused', () => {
    expect(grantForecast({ kind: 'series', product, refTime: REF, step: 3, from: at(100), to: at(200) }, false))
      .toEqual({ step: 3, to: firstPremium - 1, premiumOnly: false });
    const late = grantForecast({ kind: 'series', product, refTime: REF, step: 3, from: at(200), to: at(240) }, false);
    expect(isRefusal(late) && late.need).toMatch(/days from day 7 of the run require Premium/);
    expect(grantForecast({ kind: 'series', product, refTime: REF, step: 3, from: at(200), to: at(240) }, true))
      .toEqual({ step: 3, to: at(240), premiumOnly: true });
  });

  it('max zoom and default step by tier (SPEC §9)', () => {
    expect(maxTileZoomFor(maxTileZoom, false)).toBe(3);
    expect(maxTileZoomFor(maxTileZoom, true)).toBe(4);
    expect(defaultStepHours(false)).toBe(3);
    expect(defaultStepHours(true)).toBe(1);
  });
});

describe('radar history (SPEC §1: full-year radar history for Premium)', () => {
  it('gives free users the last two hours and Premium the year', async () => {
    const { radarFrameAllowed, RADAR_FREE_HISTORY_MS } = await import('./entitlements.ts');
    const now = Date.UTC(2026, 0, 10);
    expect(RADAR_FREE_HISTORY_MS).toBe(2 * 3600_000);
    expect(radarFrameAllowed(now - 3600_000, now, false)).toBe(true);
    expect(radarFrameAllowed(now - 3 * 3600_000, now, false)).toBe(false);
    expect(radarFrameAllowed(now - 300 * 86400_000, now, true)).toBe(true);
    expect(radarFrameAllowed(now - 366 * 86400_000, now, true)).toBe(false);
  });
});

describe('satellite imagery (SPEC §9 max tile zoom satellite 7 / 11; SPEC §1 full-year history for Premium)', () => {
  it('stops free users at zoom 7 and the last two hours, Premium at zoom 11 and the year', async () => {
    const { satelliteTileAllowed } = await import('./entitlements.ts');
    const now = Date.UTC(2026, 0, 10);
    expect(satelliteTileAllowed(7, now, now, false)).toBe(true);
    expect(satelliteTileAllowed(8, now, now, false)).toBe(false);
    expect(satelliteTileAllowed(11, now, now, true)).toBe(true);
    expect(satelliteTileAllowed(12, now, now, true)).toBe(false);
    expect(satelliteTileAllowed(3, now - 3 * 3600_000, now, false)).toBe(false);
    expect(satelliteTileAllowed(3, now - 300 * 86400_000, now, true)).toBe(true);
    expect(satelliteTileAllowed(3, now - 366 * 86400_000, now, true)).toBe(false);
  });
});

describe('grantTides (SPEC §1: the tide forecast is a Premium feature, no free part)', () => {
  it('refuses a free caller with the reason, and serves Premium privately', () => {
    const free = grantTides(false);
    expect(isRefusal(free)).toBe(true);
    expect(isRefusal(free) && free.need).toMatch(/require[s]? Premium/);
    expect(grantTides(true)).toEqual({ premiumOnly: true });
  });
});
