/**
 * Usage events (SPEC §2: "Unknown path: a 404 usage event is logged"; "The home path logs a
 * startup event"). Kept in memory for the error reports and /debug; sending them as page-view
 * beacons waits for analytics consent (SPEC §4 "Consent").
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';

export interface UsageEvent {
  name: string;
  detail?: string;
  ts: number;
}

/** SPEC §9: the broadcast log keeps the last 5 events. */
const USAGE_LOG_SIZE = 5;

export interface UsageLog {
  readonly events: ReadonlySignal<readonly UsageEvent[]>;
  /** Every event of this page view (not trimmed), for tests and consent release. */
  readonly all: ReadonlySignal<readonly UsageEvent[]>;
  log(name: string, detail?: string): void;
}

export function createUsageLog(now: () => number = Date.now): UsageLog {
  const events = signal<readonly UsageEvent[]>([]);
  const all = signal<readonly UsageEvent[]>([]);
  return {
    events,
    all,
    log(name, detail) {
      const event = { name, detail, ts: now() };
      events.value = [...events.peek(), event].slice(-USAGE_LOG_SIZE);
      all.value = [...all.peek(), event];
    },
  };
}
