/**
 * Analytics consent (SPEC §4 "Consent"; rules in common/consent.ts), stored in the setting
 * 'consent' (SPEC §3):
 *
 *   start()          a stored consent past its age, of another version, or implicit is cleared;
 *                    with none left: a region that needs no consent gets implicit consent
 *                    (analytics on), else the consent window opens unless the user is logged in
 *   decide(a)        the user's answer (explicit, analytics a); releases or drops the queue
 *   pageView(name)   analytics: counted and sent as a page-view beacon (SPEC §7 HEAD /sedlina/ga);
 *                    pending: a page of the small allowed list is counted on this device at once,
 *                    every other one waits; all wait for the beacon until the answer;
 *                    rejected: counted on this device only, nothing leaves it
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import {
  consentExpiry, consentState, explicitConsent, implicitConsent, needsExplicitConsent, PENDING_ALLOWED_PAGES,
  type ConsentRecord, type ConsentState,
} from '../../common/consent.ts';

export interface ConsentStore {
  get(): ConsentRecord | null;
  set(record: ConsentRecord): void;
  clear(): void;
  readonly value: ReadonlySignal<ConsentRecord | null>;
}

export interface PageView {
  page: string;
  /** ms since the epoch. */
  ts: number;
}

export interface ConsentDeps {
  store: ConsentStore;
  /** ISO country of the user (settings 'country', else the browser language's region), or null. */
  country: () => string | null;
  loggedIn: () => boolean;
  openWindow: () => void;
  /** Sends a page-view beacon (called only with analytics consent). */
  sendPageView: (view: PageView) => void;
  now?: () => number;
  log?: (message: string) => void;
}

export interface ConsentModel {
  readonly state: ReadonlySignal<ConsentState>;
  /** Page views counted on this device (SPEC §3 stored collection "log (page counters)"). */
  readonly pageCounts: ReadonlySignal<Readonly<Record<string, number>>>;
  /** Page views waiting for the consent answer. */
  readonly queued: ReadonlySignal<readonly PageView[]>;
  start(): void;
  decide(analytics: boolean): void;
  pageView(page: string): void;
}

export function createConsentModel(deps: ConsentDeps): ConsentModel {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((message: string) => console.info(message));
  const state = computed(() => consentState(deps.store.value.value));
  const pageCounts = signal<Record<string, number>>({});
  const queued = signal<readonly PageView[]>([]);
  /** Pages of the queue already counted (the allowed ones). */
  const counted = new WeakSet<PageView>();

  const count = (page: string) => {
    pageCounts.value = { ...pageCounts.peek(), [page]: (pageCounts.peek()[page] ?? 0) + 1 };
  };

  const release = () => {
    const waiting = queued.peek();
    queued.value = [];
    const analytics = state.peek() === 'analytics';
    for (const view of waiting) {
      if (!counted.has(view)) count(view.page);
      if (analytics) deps.sendPageView(view);
    }
  };

  return {
    state,
    pageCounts,
    queued,
    start() {
      const stored = deps.store.get();
      const expiry = consentExpiry(stored, now());
      if (expiry) {
        log(`Consent cleared (${expiry})`);
        deps.store.clear();
      }
      if (deps.store.get()) {
        release();
        return;
      }
      if (!needsExplicitConsent(deps.country())) {
        deps.store.set(implicitConsent(now()));
        release();
        return;
      }
      if (!deps.loggedIn()) deps.openWindow();
    },
    decide(analytics) {
      deps.store.set(explicitConsent(analytics, now()));
      release();
    },
    pageView(page) {
      const view = { page, ts: now() };
      const current = state.peek();
      if (current === 'analytics') {
        count(page);
        deps.sendPageView(view);
      } else if (current === 'rejected') {
        count(page);
      } else {
        if (PENDING_ALLOWED_PAGES.includes(page)) {
          count(page);
          counted.add(view);
        }
        queued.value = [...queued.peek(), view];
      }
    },
  };
}
