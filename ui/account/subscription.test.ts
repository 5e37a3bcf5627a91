import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { SUBSCRIPTION_BANNER_MS } from '../../common/entitlements.ts';
import type { SettingKey } from '../../common/settings.ts';
import type { MessageInput } from '../state/messages.ts';
import { applySubscription, canceledText, subscriptionBanner, subscriptionSettings, type SubscriptionInfo } from './subscription.ts';
import { HOUR_MS } from '../../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 12);
const ACTIVE: SubscriptionInfo = { state: 'ok', platform: 'stripe', status: 'active', tier: 'premium', isSubscription: true, isTrial: false, expiresAt: NOW + 720 * HOUR_MS };

describe('subscription settings (SPEC §4: only status active sets the tier)', () => {
  it('active sets the tier and stores the info', () => {
    expect(subscriptionSettings(ACTIVE)).toEqual([['subscription', 'premium'], ['subscriptionInfo', ACTIVE]]);
  });

  it.each([null, {}, { status: 'graced' }, { status: 'onhold' }, { status: 'paused' }, { status: 'canceled', expiresAt: NOW + HOUR_MS }, { status: 'expired' }])(
    '%j clears tier, info, 1-hour detail mode and the saved start step',
    (info) => {
      expect(subscriptionSettings(info)).toEqual([
        ['subscription', undefined], ['subscriptionInfo', undefined], ['detail1h', undefined], ['startUpLastStep', undefined],
      ]);
    },
  );
});

describe('canceled ends-soon text by remaining hours (SPEC §8)', () => {
  it.each([
    [null, null],
    [-1, null],
    [0, null],
    [0.5, { key: 'subscription:canceledUnder2h' }],
    [1.99, { key: 'subscription:canceledUnder2h' }],
    [2, { key: 'subscription:canceledHours', params: { count: 2 } }],
    [30.2, { key: 'subscription:canceledHours', params: { count: 31 } }],
    [48, { key: 'subscription:canceledHours', params: { count: 48 } }],
    [48.5, { key: 'subscription:canceledDays', params: { count: 2 } }],
    [100, { key: 'subscription:canceledDays', params: { count: 4 } }],
    [168, { key: 'subscription:canceledDays', params: { count: 7 } }],
    [168.5, { key: 'subscription:canceledSoon' }],
    [336, { key: 'subscription:canceledSoon' }],
    [336.1, null],
    [1000, null],
  ])('%s h left -> %j', (hours, expected) => {
    expect(canceledText(hours === null ? null : hours * HOUR_MS)).toEqual(expected);
  });
});

describe('subscription banners (SPEC §8: 12 min, clickable, open subscription)', () => {
  const open = () => undefined;
  it.each([
    ['graced', 'subscription:graced'],
    ['onhold', 'subscription:onhold'],
    ['paused', 'subscription:paused'],
  ])('%s -> %s', (status, key) => {
    expect(subscriptionBanner({ status }, NOW, open)).toMatchObject({ key, durationMs: SUBSCRIPTION_BANNER_MS, onClick: open, name: `subscription-${status}` });
  });

  it.each([[ACTIVE], [null], [{ status: 'expired' }], [{ status: 'canceled' }], [{ status: 'canceled', expiresAt: NOW + 400 * HOUR_MS }]])('no banner for %j', (info) => {
    expect(subscriptionBanner(info, NOW, open)).toBeNull();
  });

  it('canceled with 10 h left, an ISO expiry', () => {
    expect(subscriptionBanner({ status: 'canceled', expiresAt: new Date(NOW + 10 * HOUR_MS).toISOString() }, NOW, open))
      .toMatchObject({ key: 'subscription:canceledHours', params: { count: 10 }, durationMs: 12 * 60 * 1000 });
  });

  it('every banner key is in the English bundle', () => {
    const en = JSON.parse(readFileSync(new URL('../../assets/lang/subscription/en.json', import.meta.url), 'utf8')) as Record<string, string>;
    for (const key of ['graced', 'onhold', 'paused', 'canceledUnder2h', 'canceledHours_one', 'canceledHours_other', 'canceledDays_one', 'canceledDays_other', 'canceledSoon']) {
      expect(en[key]).toBeTypeOf('string');
    }
    expect(en.graced).toBe("We're having issues with renewing your subscription");
    expect(en.onhold).toBe('Renew Premium');
  });
});

describe('applySubscription', () => {
  const fakeSettings = (initial: Partial<Record<SettingKey, unknown>> = {}) => {
    const values = new Map<SettingKey, unknown>(Object.entries(initial) as [SettingKey, unknown][]);
    return {
      values,
      get: (key: SettingKey) => values.get(key) ?? null,
      set: (key: SettingKey, value: never) => (values.set(key, value), true),
      reset: (key: SettingKey) => void values.delete(key),
    };
  };

  it('an active subscription sets the tier, no banner', () => {
    const settings = fakeSettings();
    const showMessage = vi.fn();
    applySubscription(ACTIVE, { settings, showMessage, open: vi.fn(), now: () => NOW });
    expect(settings.values.get('subscription')).toBe('premium');
    expect(settings.values.get('subscriptionInfo')).toEqual(ACTIVE);
    expect(showMessage).not.toHaveBeenCalled();
  });

  it('a graced one clears the Premium settings and shows a banner that opens the subscription window', () => {
    const settings = fakeSettings({ subscription: 'premium', subscriptionInfo: ACTIVE, detail1h: true, startUpLastStep: 1 });
    const shown: MessageInput[] = [];
    const open = vi.fn();
    applySubscription({ status: 'graced' }, { settings, showMessage: (m) => void shown.push(m), open, now: () => NOW });
    expect([...settings.values.keys()]).toEqual([]);
    expect(shown.map((m) => m.key)).toEqual(['subscription:graced']);
    shown[0].onClick?.();
    expect(open).toHaveBeenCalledWith('subscription');
  });

  it('a pending subscription opens the pending-subscription window', () => {
    const settings = fakeSettings({ pendingSubscription: { plan: 'year' } });
    const open = vi.fn();
    applySubscription(null, { settings, showMessage: vi.fn(), open, now: () => NOW });
    expect(open).toHaveBeenCalledWith('pending-subscription');
    expect(settings.values.get('pendingSubscription')).toEqual({ plan: 'year' });
  });

  it('an active one ends a pending subscription instead of opening its window', () => {
    const settings = fakeSettings({ pendingSubscription: { since: NOW - 1000 } });
    const open = vi.fn();
    applySubscription({ status: 'active' }, { settings, showMessage: vi.fn(), open, now: () => NOW });
    expect(open).not.toHaveBeenCalled();
    expect(settings.values.has('pendingSubscription')).toBe(false);
    expect(settings.values.get('subscription')).toBe('premium');
  });
});
