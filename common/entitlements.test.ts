import { describe, expect, it } from 'vitest';
import {
  dayIndex, defaultStepHours, isPremium, isPremiumDayExempt, isPremiumStep, maxTileZoomFor, premiumFrom, stepNeed, tileNeed,
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

describe('tiles and steps', () => {
  const maxTileZoom = { free: 3, premium: 4 };
  it.each([
    [3, 10, null],
    [4, 10, /Data zoom 4 requires Premium: the free tier has tiles up to data zoom 3/],
    [2, 200, /days from day 7 of the run require Premium/],
  ])('z %i at +%i h', (z, hours, expected) => {
    const need = tileNeed({ z, maxTileZoom, refTime: REF, validTime: REF + hours * HOUR_MS, layer: 'wind' });
    if (expected === null) expect(need).toBeNull();
    else expect(need).toMatch(expected);
  });

  it('exempt layers pass on premium days', () => {
    expect(tileNeed({ z: 2, maxTileZoom, refTime: REF, validTime: REF + 200 * HOUR_MS, layer: 'drought' })).toBeNull();
  });

  it.each([[undefined, null], [3, null], [1, '1-hour steps require Premium: the free tier has 3-hour steps']])('step %s', (step, expected) => {
    expect(stepNeed(step)).toBe(expected);
  });

  it('max zoom and default step by tier (SPEC §9)', () => {
    expect(maxTileZoomFor(maxTileZoom, false)).toBe(3);
    expect(maxTileZoomFor(maxTileZoom, true)).toBe(4);
    expect(defaultStepHours(false)).toBe(3);
    expect(defaultStepHours(true)).toBe(1);
  });
});
