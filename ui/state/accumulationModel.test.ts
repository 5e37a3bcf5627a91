import { describe, expect, it, vi } from 'vitest';
import { parseMinifest } from '../../common/minifest.ts';
import { HOUR_MS } from '../../common/time.ts';
import { createAccumulationModel } from './accumulationModel.ts';
import { createLayerModel } from './layerModel.ts';
import { createSettingsStore } from './settingsStore.ts';
import { ANIMATION_STEP_MS, createTimelineModel } from './timelineModel.ts';

const REF = Date.UTC(2026, 10, 25, 0);
/** The demo product's calendar: hourly to +240 h. */
const calendar = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 240]] });

function models(at = REF + 5 * HOUR_MS) {
  const layer = createLayerModel({ product: 'demo' });
  const timeline = createTimelineModel(() => at);
  timeline.setCalendar(calendar);
  const settings = createSettingsStore();
  const accumulation = createAccumulationModel(layer, timeline, settings);
  return { layer, timeline, settings, accumulation };
}

describe('accumulation model (SPEC §4 Accumulation and Animation)', () => {
  it('has a range only while an accumulation overlay is shown: the acRange setting, 12 h by default', () => {
    const { layer, accumulation } = models();
    expect(accumulation.range.value).toBeNull();
    expect(layer.setOverlay('rainAccu')).toBe(true);
    expect(accumulation.range.value).toBe(12);
    expect(accumulation.choose(72)).toBe(true);
    expect(accumulation.range.value).toBe(72);
    expect(accumulation.choose(6)).toBe(false);
    expect(accumulation.chosen.value).toBe(72);
    accumulation.dispose();
  });

  it('shortens the range to the calendar\'s end, and with fewer than 12 h left moves the timestamp to end minus 12 h', () => {
    const { layer, timeline, accumulation } = models();
    layer.setOverlay('rainAccu');
    accumulation.choose(72);
    timeline.setTimestamp(REF + 200 * HOUR_MS);
    expect(accumulation.range.value).toBe(40);
    expect(timeline.timestamp.value).toBe(REF + 200 * HOUR_MS);
    timeline.setTimestamp(REF + 235 * HOUR_MS);
    expect(timeline.timestamp.value).toBe(REF + 228 * HOUR_MS);
    expect(accumulation.range.value).toBe(12);
    // Not for other overlays: they show the last steps.
    layer.setOverlay('wind');
    timeline.setTimestamp(REF + 240 * HOUR_MS);
    expect(timeline.timestamp.value).toBe(REF + 240 * HOUR_MS);
    accumulation.dispose();
  });

  it('for a free user, the range ends at the last step before the premium days', () => {
    const { layer, timeline, accumulation } = models();
    layer.setOverlay('rainAccu');
    accumulation.choose(240);
    timeline.setLimit(REF + 144 * HOUR_MS - 1);
    timeline.setTimestamp(REF + 24 * HOUR_MS);
    expect(accumulation.range.value).toBe(119);
    timeline.setTimestamp(REF + 140 * HOUR_MS);
    expect(timeline.timestamp.value).toBe(REF + 131 * HOUR_MS);
    expect(accumulation.range.value).toBe(12);
    accumulation.dispose();
  });

  it('stops the animation on a change to an accumulation overlay, not on other changes', () => {
    vi.useFakeTimers();
    try {
      const { layer, timeline, accumulation } = models();
      timeline.play();
      layer.setOverlay('temp');
      vi.advanceTimersByTime(ANIMATION_STEP_MS * 3);
      expect(timeline.playing.value).toBe(true);
      layer.setOverlay('rainAccu');
      expect(timeline.playing.value).toBe(false);
      accumulation.dispose();
      timeline.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops a playback that reaches the last 12 h of an accumulation, at end minus 12 h', () => {
    vi.useFakeTimers();
    try {
      const { layer, timeline, accumulation } = models();
      layer.setOverlay('gustAccu');
      timeline.setTimestamp(REF + 220 * HOUR_MS);
      timeline.play();
      vi.advanceTimersByTime(ANIMATION_STEP_MS * 200);
      expect(timeline.playing.value).toBe(false);
      expect(timeline.timestamp.value).toBe(REF + 228 * HOUR_MS);
      accumulation.dispose();
      timeline.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
