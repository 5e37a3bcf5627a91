/**
 * The subscription state machine of SPEC §4 "Subscription" and its banners (§8), as pure
 * functions over the subscription info /api/info answers (SPEC §3 "Subscription info").
 *
 *   status active          -> tier set (setting `subscription` = the tier, default 'premium'),
 *                             `subscriptionInfo` stored
 *   any other status, none -> tier, subscription info and 1-hour detail mode (`detail1h`) cleared,
 *                             the saved start step (`startUpLastStep`) reset
 *   graced, onhold, paused -> a banner (12 min, clickable: opens the subscription window)
 *   canceled               -> a banner when 336 h or less remain: under 2 h "less than 2 hours";
 *                             up to 48 h in hours; up to 168 h in days; up to 336 h a generic text
 *   a pending subscription -> the pending-subscription window opens
 *
 * The tier the client keeps only decides what it shows; the server decides from the token what it
 * serves (server/auth/tier.ts).
 */

import {
  ACTIVE_STATUS, CANCELED_DAYS_TEXT_UP_TO, CANCELED_HOURS_TEXT_UNDER, CANCELED_HOURS_TEXT_UP_TO, CANCELED_WARNING_HOURS,
  msUntilExpiry, SUBSCRIPTION_BANNER_MS, type SubscriptionInfo, type SubscriptionIssue, SUBSCRIPTION_ISSUE_STATUSES,
} from '../../common/entitlements.ts';
import type { SettingKey } from '../../common/settings.ts';
import type { MessageInput } from '../state/messages.ts';
import { HOUR_MS } from '../../common/time.ts';

export type { SubscriptionInfo };

/** The language bundle of the banners (assets/lang/subscription/en.json). */
export const SUBSCRIPTION_BUNDLE = 'subscription';
const DEFAULT_TIER = 'premium';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A subscription info from an answer, or null when it is none. */
export function asSubscriptionInfo(value: unknown): SubscriptionInfo | null {
  return isObject(value) ? value as SubscriptionInfo : null;
}

/** The setting writes of SPEC §4 for an info: what to set (a value) and what to reset (undefined). */
export type SettingChange = readonly [SettingKey, unknown];

export function subscriptionSettings(info: SubscriptionInfo | null): SettingChange[] {
  if (info?.status === ACTIVE_STATUS) {
    // The setting holds the one tier there is (common/settings.ts: 'premium').
    return [['subscription', DEFAULT_TIER], ['subscriptionInfo', { ...info }]];
  }
  return [['subscription', undefined], ['subscriptionInfo', undefined], ['detail1h', undefined], ['startUpLastStep', undefined]];
}

/** The text of a canceled subscription's banner by the time left, or null outside the warning window. */
export function canceledText(remainingMs: number | null): { key: string; params?: { count: number } } | null {
  if (remainingMs === null || remainingMs <= 0) return null;
  const hours = remainingMs / HOUR_MS;
  if (hours > CANCELED_WARNING_HOURS) return null;
  if (hours < CANCELED_HOURS_TEXT_UNDER) return { key: 'subscription:canceledUnder2h' };
  if (hours <= CANCELED_HOURS_TEXT_UP_TO) return { key: 'subscription:canceledHours', params: { count: Math.ceil(hours) } };
  if (hours <= CANCELED_DAYS_TEXT_UP_TO) return { key: 'subscription:canceledDays', params: { count: Math.round(hours / 24) } };
  return { key: 'subscription:canceledSoon' };
}

/** The banner of an info (SPEC §8), or null when there is none to show. */
export function subscriptionBanner(info: SubscriptionInfo | null, now: number, openSubscription: () => void): MessageInput | null {
  const status = info?.status;
  if (!status || !(SUBSCRIPTION_ISSUE_STATUSES as readonly string[]).includes(status)) return null;
  const issue = status as SubscriptionIssue;
  const text = issue === 'canceled' ? canceledText(msUntilExpiry(info, now)) : { key: `subscription:${issue}` };
  if (!text) return null;
  return {
    ...text,
    kind: issue === 'canceled' ? 'info' : 'error',
    durationMs: SUBSCRIPTION_BANNER_MS,
    onClick: openSubscription,
    name: `subscription-${issue}`,
  };
}

export interface SubscriptionDeps {
  settings: { set(key: SettingKey, value: never): boolean; reset(key: SettingKey): void; get(key: SettingKey): unknown };
  showMessage(message: MessageInput): void;
  /** Opens a window: 'subscription' (a banner clicked) or 'pending-subscription'. */
  open(ident: 'subscription' | 'pending-subscription'): void;
  now?: () => number;
}

/** Applies an /api/info subscription info: the settings, the banner, the pending window. */
export function applySubscription(value: unknown, deps: SubscriptionDeps): void {
  const info = asSubscriptionInfo(value);
  for (const [key, next] of subscriptionSettings(info)) {
    if (next === undefined) deps.settings.reset(key);
    else deps.settings.set(key, next as never);
  }
  const banner = subscriptionBanner(info, (deps.now ?? Date.now)(), () => deps.open('subscription'));
  if (banner) deps.showMessage(banner);
  const pending = deps.settings.get('pendingSubscription');
  if (pending === null || pending === undefined) return;
  // The payment went through: nothing is pending any more. Else the window says it is on its way.
  if (info?.status === ACTIVE_STATUS) deps.settings.reset('pendingSubscription');
  else deps.open('pending-subscription');
}
