import { describe, expect, it } from 'vitest';
import type { RadarMinifestAnswer } from '../../common/api/radar.ts';
import { RADAR_SEGMENT_MS, type RadarFrame } from '../../common/radar.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';
import { coverageShapes, radarTimeline } from './radarModel.ts';

const NOW = Date.UTC(2025, 5, 1, 12);
const frame = (minutesAgo: number, leadMinutes?: number): RadarFrame => ({
  time: NOW - minutesAgo * MINUTE_MS, id: `f${minutesAgo}`, sources: ['radolan'], tiles: [], ...(leadMinutes === undefined ? {} : { leadMinutes }),
});
const manifest = (frames: RadarFrame[], nowcast: RadarFrame[] = []): RadarMinifestAnswer => ({
  version: 2, updated: NOW, minZoom: 0, maxZoom: 6, quantization: { offset: -32.5, scale: 0.5, unit: 'dBZ' }, frames, nowcast, sources: [],
});

describe('the radar timeline of a segment', () => {
  it('shows the live frames of the last two hours, then the nowcast', () => {
    const steps = radarTimeline(manifest([frame(130), frame(60), frame(5)], [frame(5, 0), frame(-10, 15)]), null, 'short', NOW);
    expect(steps.map((s) => [(NOW - s.time) / MINUTE_MS, s.nowcast])).toEqual([[60, false], [5, false], [-10, true]]);
  });

  it('reaches into the archive for the longer segments, each as far back as its length', () => {
    const archive = manifest([frame(47 * 60), frame(11 * 60), frame(3 * 60)]);
    const live = manifest([frame(60)]);
    expect(RADAR_SEGMENT_MS.medium).toBe(12 * HOUR_MS);
    expect(radarTimeline(live, archive, 'medium', NOW).map((s) => (NOW - s.time) / HOUR_MS)).toEqual([11, 3, 1]);
    expect(radarTimeline(live, archive, 'long', NOW).map((s) => (NOW - s.time) / HOUR_MS)).toEqual([47, 11, 3, 1]);
    expect(radarTimeline(null, archive, 'long', NOW)).toEqual([]);
  });
});

describe('the coverage outline', () => {
  it('is one line per ring, its points in order with a colour each', () => {
    const ring: [number, number][] = [[5, 47], [15, 47], [15, 55], [5, 55], [5, 47]];
    const shapes = coverageShapes({ sources: [{ id: 'radolan', rings: [ring, [[1, 1]]] }] });
    expect(shapes.lines).toHaveLength(1);
    expect(shapes.lines[0].points).toEqual([5, 47, 15, 47, 15, 55, 5, 55, 5, 47]);
    expect(shapes.lines[0].colors).toHaveLength(4 * ring.length);
    expect(shapes.fills).toEqual([]);
  });
});
