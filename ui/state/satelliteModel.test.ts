import { describe, expect, it } from 'vitest';
import type { SatelliteInfoAnswer } from '../../common/api/satellite.ts';
import type { SatelliteFrame } from '../../common/satellite.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';
import { HttpError } from '../http/httpError.ts';
import { createLayerModel } from './layerModel.ts';
import { createSatelliteModel, satelliteTimeline } from './satelliteModel.ts';
import { createSettingsStore } from './settingsStore.ts';

const NOW = Date.UTC(2025, 5, 1, 12);
const frame = (minutesAgo: number, source = 'goesEast'): SatelliteFrame => ({
  time: NOW - minutesAgo * MINUTE_MS, id: `${source}${minutesAgo}`, source, tiles: [], bounds: { west: -150, south: -80, east: 0, north: 80 },
});
const info = (frames: SatelliteFrame[]): SatelliteInfoAnswer => ({
  version: 1, updated: NOW, minZoom: 0, maxZoom: 5, channels: [], frames,
  sources: [{ id: 'goesEast', label: 'GOES-East (NOAA)', attribution: 'NOAA', lon0: -75, latest: NOW }],
});

describe('the satellite timeline', () => {
  it('shows the live window, and the archive last day in the archive range', () => {
    const live = info([frame(100), frame(10)]);
    const archive = info([frame(30 * 60), frame(20 * 60), frame(3 * 60)]);
    expect(satelliteTimeline(live, archive, 'live', NOW).map((s) => (NOW - s.time) / MINUTE_MS)).toEqual([100, 10]);
    expect(satelliteTimeline(live, archive, 'archive', NOW).map((s) => (NOW - s.time) / HOUR_MS)).toEqual([20, 3, 100 / 60, 10 / 60]);
    expect(satelliteTimeline(null, archive, 'archive', NOW)).toEqual([]);
  });
});

describe('the satellite model', () => {
  it('says so when the server follows no satellite (info.json 404), and shows the newest frame when it does', async () => {
    const layer = createLayerModel({ product: 'demo' });
    const settings = createSettingsStore();
    let answer: SatelliteInfoAnswer | null = null;
    const asked: string[] = [];
    const model = createSatelliteModel({
      layer, settings, now: () => NOW,
      load: (path) => {
        asked.push(path);
        return answer ? Promise.resolve(answer) : Promise.reject(new HttpError(404, `Request failed for URL ${path}: HTTP 404`, ''));
      },
    });
    try {
      expect(model.active.value).toBe(false);
      expect(layer.setOverlay('satellite')).toBe(true);
      expect(model.active.value).toBe(true);
      await expect.poll(() => model.unconfigured.value).toBe(true);
      expect(model.error.value).toBeNull();
      expect(asked).toEqual(['/obs/v1.0/satellite/info.json']);
      // Free users cannot choose the archive.
      expect(model.setRange('archive')).toBe(false);
      answer = info([frame(30), frame(20), frame(10)]);
      layer.setOverlay('wind');
      layer.setOverlay('satellite');
      await expect.poll(() => model.step.value?.time).toBe(NOW - 10 * MINUTE_MS);
      expect(model.unconfigured.value).toBe(false);
      expect(model.steps.value).toHaveLength(3);
      expect(model.sources.value.map((s) => s.id)).toEqual(['goesEast']);
    } finally {
      model.dispose();
    }
  });
});
