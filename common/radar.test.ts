import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from './time.ts';
import { RADAR_COMPOSITE_WINDOW_MS, radarSteps, type RadarFrame } from './radar.ts';

const T = Date.UTC(2025, 5, 1, 12);
const frame = (source: string, minutes: number, leadMinutes?: number): RadarFrame => ({
  time: T + minutes * MINUTE_MS, id: `${source}${minutes}`, sources: [source], tiles: [], ...(leadMinutes === undefined ? {} : { leadMinutes }),
});

describe('radar timeline', () => {
  it('steps at each observed time with each provider\'s newest frame at or before it', () => {
    // MRMS every 2 minutes, RADOLAN every 5.
    const frames = [frame('mrms', 0), frame('mrms', 2), frame('mrms', 4), frame('radolan', 0), frame('radolan', 5), frame('mrms', 6)];
    const steps = radarSteps(frames);
    expect(steps.map((s) => (s.time - T) / MINUTE_MS)).toEqual([0, 2, 4, 5, 6]);
    expect(steps.map((s) => s.frames.map((f) => f.id))).toEqual([
      ['mrms0', 'radolan0'], ['mrms2', 'radolan0'], ['mrms4', 'radolan0'], ['mrms4', 'radolan5'], ['mrms6', 'radolan5'],
    ]);
    expect(steps.every((s) => !s.nowcast)).toBe(true);
  });

  it('drops a provider whose newest frame is older than the composite window', () => {
    const late = RADAR_COMPOSITE_WINDOW_MS / MINUTE_MS;
    const steps = radarSteps([frame('radolan', 0), frame('mrms', late - 1), frame('mrms', late)]);
    expect(steps.map((s) => s.frames.map((f) => f.id))).toEqual([['radolan0'], ['mrms' + (late - 1), 'radolan0'], ['mrms' + late]]);
  });

  it('adds the nowcast steps after the last observation, marked', () => {
    const steps = radarSteps([frame('radolan', 0), frame('radolan', 5)], [frame('radvor', 5, 0), frame('radvor', 10, 5), frame('radvor', 15, 10)]);
    expect(steps.map((s) => [(s.time - T) / MINUTE_MS, s.nowcast])).toEqual([[0, false], [5, false], [10, true], [15, true]]);
    expect(steps[2].frames.map((f) => f.id)).toEqual(['radvor10']);
  });
});
