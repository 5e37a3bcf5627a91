/**
 * Analytics consent (SPEC §3 "Consent": version, timestamp, analytics, explicit; §4 "Consent"; §9
 * version 2023/11): the rules, without any browser API, so the UI model and its tests share them.
 *
 *   state       pending (no valid consent) | analytics (analytics allowed) | rejected
 *   expiry      implicit consent is cleared at every start (the region decides again);
 *               explicit without analytics is cleared at 90 days or more,
 *               explicit with analytics at 365 days or more; another version is cleared too
 *   region      EU, EEA, the UK and Switzerland need explicit consent; elsewhere implicit
 *               consent (analytics on) is set
 */

import { CONSENT_ANALYTICS_MAX_AGE_MS, CONSENT_NO_ANALYTICS_MAX_AGE_MS, CONSENT_VERSION } from './limits.ts';

export interface ConsentRecord {
  version: string;
  /** ms since the epoch when it was given. */
  timestamp: number;
  analytics: boolean;
  /** Given by the user (true) or set because the region needs none (false). */
  explicit: boolean;
}

export type ConsentState = 'pending' | 'analytics' | 'rejected';

export function consentState(record: ConsentRecord | null): ConsentState {
  if (!record) return 'pending';
  return record.analytics ? 'analytics' : 'rejected';
}

/** Why a stored consent is no longer valid, or null when it still is (SPEC §4). */
export function consentExpiry(record: ConsentRecord | null, now: number): 'implicit' | 'version' | 'expired' | null {
  if (!record) return null;
  if (!record.explicit) return 'implicit';
  if (record.version !== CONSENT_VERSION) return 'version';
  const age = now - record.timestamp;
  const maxAge = record.analytics ? CONSENT_ANALYTICS_MAX_AGE_MS : CONSENT_NO_ANALYTICS_MAX_AGE_MS;
  return age >= maxAge ? 'expired' : null;
}

/**
 * Countries whose users give consent explicitly: the EU 27, the other EEA states (Iceland,
 * Liechtenstein, Norway), the United Kingdom (GB, and UK as the SPEC's lists write it) and
 * Switzerland. ISO 3166-1 alpha-2, lower case.
 */
const EXPLICIT_CONSENT_COUNTRIES: readonly string[] = [
  'at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu',
  'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se',
  'is', 'li', 'no',
  'gb', 'uk', 'ch',
];

/** Whether a country needs explicit consent; an unknown country does (the careful default). */
export function needsExplicitConsent(country: string | null | undefined): boolean {
  if (!country) return true;
  return EXPLICIT_CONSENT_COUNTRIES.includes(country.toLowerCase());
}

export function implicitConsent(now: number): ConsentRecord {
  return { version: CONSENT_VERSION, timestamp: now, analytics: true, explicit: false };
}

export function explicitConsent(analytics: boolean, now: number): ConsentRecord {
  return { version: CONSENT_VERSION, timestamp: now, analytics, explicit: true };
}

/**
 * SPEC §4: while consent is pending only these page names are logged at once; the others wait
 * for the answer (sent on consent, kept on this device only on rejection).
 */
export const PENDING_ALLOWED_PAGES: readonly string[] = ['startup', 'consent', '404'];
