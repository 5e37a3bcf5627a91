import { describe, expect, it, vi } from 'vitest';
import { latFromMercY } from '../../common/map.ts';
import { parseMinifest } from '../../common/minifest.ts';
import { createLayerModel } from './layerModel.ts';
import { createMapModel } from './mapModel.ts';
import { ANIMATION_MULTIPLIER, ANIMATION_STEP_MS, ANIMATION_TICK_MINUTES, createTimelineModel } from './timelineModel.ts';
import { createSettingsStore } from './settingsStore.ts';
import { countryOf, createUnitsModel } from './unitsModel.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';

const REF = Date.UTC(2026, 10, 25, 0);
const calendar = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 6]] });

describe('timeline model (SPEC §2 keyboard, §4 Animation)', () => {
  it('snaps to the nearest step when a calendar arrives and steps stop at the first and last', () => {
    const timeline = createTimelineModel(() => REF + 2.4 * HOUR_MS);
    timeline.setCalendar(calendar);
    expect(timeline.timestamp.value).toBe(REF + 2 * HOUR_MS);
    timeline.step(1);
    expect(timeline.timestamp.value).toBe(REF + 3 * HOUR_MS);
    for (let i = 0; i < 10; i++) timeline.step(1);
    expect(timeline.timestamp.value).toBe(REF + 6 * HOUR_MS);
    for (let i = 0; i < 10; i++) timeline.step(-1);
    expect(timeline.timestamp.value).toBe(REF);
    timeline.setTimestamp(REF + 99 * HOUR_MS);
    expect(timeline.timestamp.value).toBe(REF + 6 * HOUR_MS);
    timeline.dispose();
  });

  it('plays every 50 ms, stops at the end, and restarts from now when started at the end', () => {
    vi.useFakeTimers();
    const timeline = createTimelineModel(() => REF + 1 * HOUR_MS);
    timeline.setCalendar(calendar);
    timeline.setTimestamp(REF + 5 * HOUR_MS);
    timeline.play();
    expect(timeline.playing.value).toBe(true);
    vi.advanceTimersByTime(ANIMATION_STEP_MS);
    expect(timeline.timestamp.value).toBe(REF + 5 * HOUR_MS + ANIMATION_MULTIPLIER * ANIMATION_TICK_MINUTES * MINUTE_MS);
    vi.advanceTimersByTime(ANIMATION_STEP_MS * 100);
    expect(timeline.timestamp.value).toBe(REF + 6 * HOUR_MS);
    expect(timeline.playing.value).toBe(false);
    timeline.play();
    expect(timeline.timestamp.value).toBe(REF + 1 * HOUR_MS);
    timeline.pause();
    expect(timeline.playing.value).toBe(false);
    timeline.dispose();
    vi.useRealTimers();
  });
});

describe('layer model', () => {
  it('refuses idents the catalogue or the product does not know', () => {
    const layer = createLayerModel({ product: 'demo' });
    expect(layer.overlay.value).toBe('wind');
    expect(layer.setOverlay('temp')).toBe(true);
    expect(layer.setOverlay('nonsense')).toBe(false);
    expect(layer.overlay.value).toBe('temp');
    expect(layer.setLevel('850h')).toBe(false);
    expect(layer.setProduct('nope')).toBe(false);
    expect(createLayerModel({ product: 'nope', overlay: 'bad' }).product.value).toBe('demo');
  });
});

describe('map model', () => {
  it('clamps zoom to 3..16, wraps longitude and keeps the world filling the view', () => {
    const map = createMapModel({ lat: 0, lon: 0, zoom: 20 });
    expect(map.zoom.value).toBe(16);
    map.setSize(1000, 800, 3);
    map.moveTo({ lon: 190, lat: 89, zoom: 1 });
    expect(map.zoom.value).toBe(3);
    expect(map.lon.value).toBeCloseTo(-170, 9);
    // At zoom 3 the world is 2048 px tall: the top edge of an 800 px view is 400 px below 85.05° N.
    expect(map.lat.value).toBeCloseTo(latFromMercY(400 / 2048), 9);
    expect(map.view.value).toMatchObject({ width: 1000, height: 800, pixelRatio: 3 });
  });
});

describe('units model (SPEC §9 imperial countries)', () => {
  it.each([['en-US', 'us'], ['en-GB', 'gb'], ['cs', ''], ['pt_BR', 'br']])('country of %s is %s', (tag, cc) => {
    expect(countryOf(tag)).toBe(cc);
  });

  it('defaults by country and cycles through the allowed units only', () => {
    const store = () => createSettingsStore({ logError: () => {} });
    expect(createUnitsModel('us', store()).unitOf('temp')).toBe('°F');
    const settings = store();
    const units = createUnitsModel('cz', settings);
    expect(units.unitOf('temp')).toBe('°C');
    expect(units.unitOf('wind')).toBe('kt');
    expect(units.setUnit('wind', 'furlong')).toBe(false);
    units.cycle('wind');
    expect(units.unitOf('wind')).toBe('mph');
    expect(settings.get('metric_wind')).toBe('mph');
    for (let i = 0; i < 4; i++) units.cycle('wind');
    expect(units.unitOf('wind')).toBe('kt');
  });

  it('defaultUnits overrides the country, and the clock follows the country unless hourFormat is set', () => {
    const settings = createSettingsStore({ logError: () => {} });
    const units = createUnitsModel('gb', settings);
    expect(units.unitOf('temp')).toBe('°C');
    expect(units.hour12.value).toBe(true);
    units.setUnit('temp', '°C');
    units.setSystem('imperial');
    expect(units.unitOf('temp')).toBe('°F');
    expect(settings.get('metric_temp')).toBeNull();
    settings.set('hourFormat', '24h');
    expect(units.hour12.value).toBe(false);
    expect(createUnitsModel('de', createSettingsStore()).hour12.value).toBe(false);
  });
});
