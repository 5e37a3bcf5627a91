/**
 * The forecast time: the calendar of the shown run, the shown timestamp and playback
 * (SPEC §4 "Animation", SPEC §2 keyboard: arrows step, stopping at the first and last step).
 */

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { nearestStep, type Calendar } from '../../common/minifest.ts';
import { MINUTE_MS } from '../../common/time.ts';

// SPEC §9: animation step 50 ms (multiplier 2). Each tick moves the shown time by
// ANIMATION_MULTIPLIER * ANIMATION_TICK_MINUTES, so an hourly forecast plays at 1 h per 150 ms.
export const ANIMATION_STEP_MS = 50;
export const ANIMATION_MULTIPLIER = 2;
export const ANIMATION_TICK_MINUTES = 10;

export interface TimelineModel {
  readonly calendar: ReadonlySignal<Calendar | null>;
  readonly timestamp: ReadonlySignal<number>;
  readonly playing: ReadonlySignal<boolean>;
  /** Index of the forecast step at or before the timestamp. */
  readonly stepIndex: ReadonlySignal<number>;
  setCalendar(calendar: Calendar | null): void;
  /** The last time a free user may show (SPEC §6 premium days), null for no limit. */
  readonly limit: ReadonlySignal<number | null>;
  setLimit(ms: number | null): void;
  /** Sets the time, clamped into the calendar range. */
  setTimestamp(ms: number): void;
  /** Moves to the previous (-1) or next (+1) forecast step; stops at the first and last. */
  step(direction: -1 | 1): void;
  play(): void;
  pause(): void;
  dispose(): void;
}

export function createTimelineModel(now: () => number = Date.now): TimelineModel {
  const calendar = signal<Calendar | null>(null);
  const timestamp = signal(now());
  const playing = signal(false);
  const limit = signal<number | null>(null);
  let timer: ReturnType<typeof setInterval> | null = null;

  /** The last time that may be shown: the calendar's end, or the free limit before it. */
  const lastTime = (c: Calendar) => {
    const l = limit.peek();
    if (l === null) return c.end;
    const allowed = c.timestamps.filter((t) => t <= l);
    return allowed.length ? allowed[allowed.length - 1] : c.start;
  };
  const clamp = (ms: number) => {
    const c = calendar.value;
    return c ? Math.min(lastTime(c), Math.max(c.start, ms)) : ms;
  };
  const stepIndex = computed(() => {
    const c = calendar.value;
    if (!c) return 0;
    let i = 0;
    while (i + 1 < c.timestamps.length && c.timestamps[i + 1] <= timestamp.value) i++;
    return i;
  });
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playing.value = false;
  };
  const onHidden = () => {
    if (typeof document !== 'undefined' && document.hidden) stop();
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onHidden);

  return {
    calendar,
    timestamp,
    playing,
    stepIndex,
    limit,
    setLimit(ms) {
      limit.value = ms;
      if (calendar.peek()) timestamp.value = clamp(timestamp.peek());
    },
    setCalendar(c) {
      batch(() => {
        calendar.value = c;
        if (c) timestamp.value = c.timestamps.includes(timestamp.value) ? timestamp.value : nearestStep(c, clamp(timestamp.value));
      });
      if (!c) stop();
    },
    setTimestamp(ms) {
      if (Number.isFinite(ms)) timestamp.value = clamp(ms);
    },
    step(direction) {
      const c = calendar.value;
      if (!c) return;
      const ts = c.timestamps;
      const t = timestamp.value;
      const next = direction > 0 ? ts.find((s) => s > t) : [...ts].reverse().find((s) => s < t);
      if (next !== undefined && next <= lastTime(c)) timestamp.value = next;
    },
    play() {
      const c = calendar.value;
      if (!c || timer !== null) return;
      // SPEC §4: if the start is already at the end, restart from now.
      if (timestamp.value >= lastTime(c)) timestamp.value = nearestStep(c, clamp(now()));
      playing.value = true;
      timer = setInterval(() => {
        const cal = calendar.value;
        if (!cal) return stop();
        const next = timestamp.value + ANIMATION_MULTIPLIER * ANIMATION_TICK_MINUTES * MINUTE_MS;
        const end = lastTime(cal);
        if (next >= end) {
          timestamp.value = end;
          stop();
        } else {
          timestamp.value = next;
        }
      }, ANIMATION_STEP_MS);
    },
    pause: stop,
    dispose() {
      stop();
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onHidden);
    },
  };
}
