import { describe, expect, it } from 'vitest';
import { consentExpiry, consentState, explicitConsent, implicitConsent, needsExplicitConsent, type ConsentRecord } from './consent.ts';
import { CONSENT_VERSION } from './limits.ts';
import { DAY_MS } from './time.ts';

const NOW = Date.UTC(2026, 5, 1);
const record = (explicit: boolean, analytics: boolean, ageDays: number, version = CONSENT_VERSION): ConsentRecord =>
  ({ version, timestamp: NOW - ageDays * DAY_MS, analytics, explicit });

describe('consent (SPEC §4, §9)', () => {
  it.each([
    // explicit, analytics, age in days, why it is cleared (null: kept)
    [false, true, 0, 'implicit'],
    [false, false, 0, 'implicit'],
    [true, false, 0, null],
    [true, false, 89.99, null],
    [true, false, 90, 'expired'],
    [true, false, 200, 'expired'],
    [true, true, 0, null],
    [true, true, 90, null],
    [true, true, 364.99, null],
    [true, true, 365, 'expired'],
    [true, true, 400, 'expired'],
  ] as const)('explicit %s, analytics %s, %f days old -> %s', (explicit, analytics, age, expected) => {
    expect(consentExpiry(record(explicit, analytics, age), NOW)).toBe(expected);
  });

  it('a consent of another version is asked again', () => {
    expect(consentExpiry(record(true, true, 1, '2022/01'), NOW)).toBe('version');
  });

  it('no consent has nothing to clear', () => {
    expect(consentExpiry(null, NOW)).toBeNull();
  });

  it.each([
    [null, 'pending'],
    [record(true, true, 0), 'analytics'],
    [record(true, false, 0), 'rejected'],
    [record(false, true, 0), 'analytics'],
  ] as const)('state of %j is %s', (r, state) => {
    expect(consentState(r)).toBe(state);
  });

  it.each([
    ['de', true], ['FR', true], ['cz', true], ['no', true], ['is', true], ['li', true], ['gb', true], ['uk', true], ['ch', true],
    ['us', false], ['jp', false], ['br', false], ['au', false], [null, true], ['', true],
  ] as const)('country %s needs explicit consent: %s', (cc, expected) => {
    expect(needsExplicitConsent(cc)).toBe(expected);
  });

  it('records carry version 2023/11', () => {
    expect(implicitConsent(NOW)).toEqual({ version: '2023/11', timestamp: NOW, analytics: true, explicit: false });
    expect(explicitConsent(false, NOW)).toEqual({ version: '2023/11', timestamp: NOW, analytics: false, explicit: true });
  });
});
