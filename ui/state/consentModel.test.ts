import { signal } from '@preact/signals-core';
import { describe, expect, it, vi } from 'vitest';
import { CONSENT_VERSION } from '../../common/limits.ts';
import type { ConsentRecord } from '../../common/consent.ts';
import { createConsentModel, type PageView } from './consentModel.ts';
import { DAY_MS } from '../../common/time.ts';

const NOW = Date.UTC(2026, 5, 1);

function setup({ stored = null as ConsentRecord | null, country = 'de' as string | null, loggedIn = false } = {}) {
  const value = signal<ConsentRecord | null>(stored);
  const sent: PageView[] = [];
  const openWindow = vi.fn();
  const model = createConsentModel({
    store: { value, get: () => value.peek(), set: (r) => { value.value = r; }, clear: () => { value.value = null; } },
    country: () => country,
    loggedIn: () => loggedIn,
    openWindow,
    sendPageView: (v) => sent.push(v),
    now: () => NOW,
    log: () => {},
  });
  return { model, value, sent, openWindow };
}

describe('consent model (SPEC §4 Consent)', () => {
  it('missing in a region that needs consent: the window opens and the state is pending', () => {
    const t = setup();
    t.model.start();
    expect(t.openWindow).toHaveBeenCalledTimes(1);
    expect(t.model.state.value).toBe('pending');
  });

  it('missing but logged in: no window (the account carries it)', () => {
    const t = setup({ loggedIn: true });
    t.model.start();
    expect(t.openWindow).not.toHaveBeenCalled();
  });

  it('a region without consent rules gets implicit consent with analytics', () => {
    const t = setup({ country: 'us' });
    t.model.start();
    expect(t.openWindow).not.toHaveBeenCalled();
    expect(t.value.value).toEqual({ version: CONSENT_VERSION, timestamp: NOW, analytics: true, explicit: false });
    expect(t.model.state.value).toBe('analytics');
  });

  it('implicit consent is cleared at start: in a region that needs consent, the window opens', () => {
    const t = setup({ stored: { version: CONSENT_VERSION, timestamp: NOW - DAY_MS, analytics: true, explicit: false }, country: 'fr' });
    t.model.start();
    expect(t.value.value).toBeNull();
    expect(t.openWindow).toHaveBeenCalledTimes(1);
  });

  it.each([
    [false, 89, false],
    [false, 90, true],
    [true, 364, false],
    [true, 365, true],
  ])('explicit consent, analytics %s, %i days old: asked again %s', (analytics, age, asked) => {
    const t = setup({ stored: { version: CONSENT_VERSION, timestamp: NOW - age * DAY_MS, analytics, explicit: true } });
    t.model.start();
    expect(t.openWindow).toHaveBeenCalledTimes(asked ? 1 : 0);
    expect(t.value.value === null).toBe(asked);
  });

  it('while pending, allowed pages are counted at once, others wait; consent releases every beacon', () => {
    const t = setup();
    t.model.start();
    t.model.pageView('startup');
    t.model.pageView('detail');
    t.model.pageView('consent');
    expect(t.model.pageCounts.value).toEqual({ startup: 1, consent: 1 });
    expect(t.model.queued.value.map((v) => v.page)).toEqual(['startup', 'detail', 'consent']);
    expect(t.sent).toEqual([]);
    t.model.decide(true);
    expect(t.value.value).toMatchObject({ analytics: true, explicit: true, version: CONSENT_VERSION });
    expect(t.sent.map((v) => v.page)).toEqual(['startup', 'detail', 'consent']);
    expect(t.model.pageCounts.value).toEqual({ startup: 1, consent: 1, detail: 1 });
    expect(t.model.queued.value).toEqual([]);
    t.model.pageView('settings');
    expect(t.sent.map((v) => v.page)).toEqual(['startup', 'detail', 'consent', 'settings']);
  });

  it('rejection drops the beacons; pages are counted on the device only', () => {
    const t = setup();
    t.model.start();
    t.model.pageView('startup');
    t.model.pageView('detail');
    t.model.decide(false);
    expect(t.model.state.value).toBe('rejected');
    t.model.pageView('settings');
    expect(t.sent).toEqual([]);
    expect(t.model.pageCounts.value).toEqual({ startup: 1, detail: 1, settings: 1 });
  });

  it('with valid stored analytics consent, page views go out at once', () => {
    const t = setup({ stored: { version: CONSENT_VERSION, timestamp: NOW - DAY_MS, analytics: true, explicit: true } });
    t.model.start();
    t.model.pageView('detail');
    expect(t.sent.map((v) => v.page)).toEqual(['detail']);
  });
});
