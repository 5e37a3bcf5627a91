import { describe, expect, it } from 'vitest';
import { RADAR_ARCHIVE_MINIFEST_PATH, type RadarMinifestAnswer } from '../../common/api/radar.ts';
import { RADAR_SEGMENT_MS, type RadarFrame } from '../../common/radar.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';
import { HttpError } from '../http/httpError.ts';
import type { ObsSourceState } from '../http/obsSource.ts';
import { createLayerModel } from './layerModel.ts';
import { coverageShapes, createRadarModel, radarTimeline } from './radarModel.ts';
import { createSettingsStore } from './settingsStore.ts';

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

describe('the radar model with nothing published', () => {
  it('says why (no source followed, or none delivered yet) until frames come; other failures stay errors', async () => {
    const layer = createLayerModel({ product: 'demo' });
    const settings = createSettingsStore();
    let answer: RadarMinifestAnswer | Error = new HttpError(404, 'Request failed for URL /obs/v1.0/radar/minifest2.json: HTTP 404', '');
    let state: ObsSourceState | null = { state: 'unreachable', source: { label: 'NOAA MRMS, DWD RADOLAN', minutes: 3 } };
    const model = createRadarModel({
      layer, settings, now: () => NOW,
      load: () => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)),
      loadCoverage: () => Promise.reject(new HttpError(404, 'no coverage', '')),
      followed: () => Promise.resolve(state),
    });
    const reopen = () => {
      layer.setOverlay('wind');
      layer.setOverlay('radar');
    };
    try {
      expect(layer.setOverlay('radar')).toBe(true);
      await expect.poll(() => model.missing.value).toEqual({ key: 'unreachable', source: { label: 'NOAA MRMS, DWD RADOLAN', minutes: 3 } });
      expect(model.error.value).toBeNull();
      state = { state: 'none' };
      reopen();
      await expect.poll(() => model.missing.value?.key).toBe('unavailable');
      // The status unreadable, or the sources serving: no frames yet.
      state = null;
      reopen();
      await expect.poll(() => model.missing.value?.key).toBe('noFrames');
      answer = new HttpError(502, 'Request failed for URL /obs/v1.0/radar/minifest2.json: HTTP 502', '');
      reopen();
      await expect.poll(() => model.error.value).toMatch(/HTTP 502/);
      expect(model.missing.value).toBeNull();
      answer = manifest([frame(10)]);
      reopen();
      await expect.poll(() => model.step.value?.time).toBe(NOW - 10 * MINUTE_MS);
      expect(model.missing.value).toBeNull();
      expect(model.error.value).toBeNull();
      answer = new HttpError(502, 'Request failed for URL /obs/v1.0/radar/minifest2.json: HTTP 502', '');
      reopen();
      await expect.poll(() => model.error.value).toMatch(/HTTP 502/);
      expect(model.missing.value).toBeNull();
    } finally {
      model.dispose();
    }
  });
});

describe('the radar-plus segments before any frame is archived', () => {
  it('show the live frames when the archive manifest is not published yet (404)', async () => {
    const layer = createLayerModel({ product: 'demo' });
    const settings = createSettingsStore();
    const asked: string[] = [];
    const model = createRadarModel({
      layer, settings, now: () => NOW,
      load: (path) => {
        asked.push(path);
        return path === RADAR_ARCHIVE_MINIFEST_PATH
          ? Promise.reject(new HttpError(404, `Request failed for URL ${path}: HTTP 404`, ''))
          : Promise.resolve(manifest([frame(30), frame(10)]));
      },
      loadCoverage: () => Promise.reject(new HttpError(404, 'no coverage', '')),
      followed: () => Promise.resolve(null),
    });
    try {
      expect(settings.set('radarPlusSegmentRange', 'medium' as never)).toBe(true);
      expect(layer.setOverlay('radarPlus')).toBe(true);
      await expect.poll(() => model.steps.value.length).toBe(2);
      expect(asked).toContain(RADAR_ARCHIVE_MINIFEST_PATH);
      expect(model.error.value).toBeNull();
      expect(model.missing.value).toBeNull();
    } finally {
      model.dispose();
    }
  });
});
