/**
 * Accumulation overlays (SPEC §3 accumulation flag and acRange, §4 "Accumulation" and "Animation"):
 * the range the map shows, [timestamp, timestamp + acRange], fitted to the calendar's end (for a
 * free user, the last step before the premium days: the range's end decides the tile's tier) by
 * common/catalogue/accumulations.ts fitAccumulation; the timestamp moved where the rule says so;
 * playback stopped when the overlay changes to an accumulation.
 */

import { computed, effect, type ReadonlySignal } from '@preact/signals-core';
import { fitAccumulation, isValidAcRange } from '../../common/catalogue/accumulations.ts';
import { nearestStep } from '../../common/minifest.ts';
import type { LayerModel } from './layerModel.ts';
import type { SettingsStore } from './settingsStore.ts';
import type { TimelineModel } from './timelineModel.ts';

export interface AccumulationModel {
  /** The range shown, hours, after the SPEC §4 fit; null when the overlay is not an accumulation. */
  readonly range: ReadonlySignal<number | null>;
  /** The range asked for (the acRange setting), hours. */
  readonly chosen: ReadonlySignal<number>;
  /** Sets the acRange setting; false for a range the server does not answer. */
  choose(hours: number): boolean;
  dispose(): void;
}

export function createAccumulationModel(layer: LayerModel, timeline: TimelineModel, settings: SettingsStore): AccumulationModel {
  const chosen = settings.signal('acRange');
  const fitted = computed(() => {
    const calendar = timeline.calendar.value;
    if (!layer.overlayDef.value.accumulation || !calendar) return null;
    // Tiles are made per forecast step: the range starts at a step.
    const timestamp = nearestStep(calendar, timeline.timestamp.value);
    // The end a range may reach: the calendar's, or a free user's last step before the premium days (SPEC §6).
    const limit = timeline.limit.value;
    const allowed = limit === null ? calendar.timestamps : calendar.timestamps.filter((t) => t <= limit);
    const end = allowed.length ? allowed[allowed.length - 1] : calendar.end;
    return { step: timestamp, ...fitAccumulation({ timestamp, acRange: chosen.value }, { start: calendar.start, end }) };
  });
  const disposers = [
    // SPEC §4: the timestamp moves where the range does not fit (fewer than 12 h left). While
    // playing, that stops the playback: it could not go further.
    effect(() => {
      const fit = fitted.value;
      if (!fit || fit.timestamp === fit.step) return;
      if (timeline.playing.peek()) timeline.pause();
      timeline.setTimestamp(fit.timestamp);
    }),
  ];
  // SPEC §4 Animation: stops on a change to an accumulation overlay.
  let previous = layer.overlay.peek();
  disposers.push(effect(() => {
    const overlay = layer.overlay.value;
    if (overlay !== previous && layer.overlayDef.peek().accumulation) timeline.pause();
    previous = overlay;
  }));
  return {
    range: computed(() => fitted.value?.acRange ?? null),
    chosen,
    choose(hours) {
      if (!isValidAcRange(hours)) return false;
      return settings.set('acRange', hours);
    },
    dispose() {
      disposers.forEach((d) => d());
    },
  };
}
