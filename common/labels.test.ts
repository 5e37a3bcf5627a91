import { describe, expect, it } from 'vitest';
import {
  CITYTILE_WINDOW_HOURS, LABEL_MAX_WIDTH_PX, directionAt, estimateLabelWidth, hoursWindow, labelClass, labelTilesInView, labelVariable, labelZoom, valueAt,
} from './labels.ts';
import { cityTilePath, labelsPath, parseHoursRange, type CityTile } from './api/labels.ts';
import { HOUR_MS } from './time.ts';

const REF = Date.UTC(2025, 10, 26, 0);
const tile: CityTile = { reftime: REF, hours: [24, 25, 26, 27], step: 1, labelsVersion: 'v1', forecast: {} };

describe('city label arithmetic', () => {
  it('takes the stored value at an hour and interpolates linearly between hours', () => {
    const series = [280, 282, null, 290];
    expect(valueAt(tile, series, REF + 24 * HOUR_MS)).toBe(280);
    expect(valueAt(tile, series, REF + 25 * HOUR_MS)).toBe(282);
    expect(valueAt(tile, series, REF + 24.25 * HOUR_MS)).toBeCloseTo(280.5, 10);
    expect(valueAt(tile, series, REF + 27 * HOUR_MS)).toBe(290);
    // Next to a missing value, outside the hours, without a series: nothing.
    expect(valueAt(tile, series, REF + 25.5 * HOUR_MS)).toBeNull();
    expect(valueAt(tile, series, REF + 26 * HOUR_MS)).toBeNull();
    expect(valueAt(tile, series, REF + 23 * HOUR_MS)).toBeNull();
    expect(valueAt(tile, series, REF + 27.5 * HOUR_MS)).toBeNull();
    expect(valueAt(tile, undefined, REF + 24 * HOUR_MS)).toBeNull();
    expect(valueAt({ ...tile, hours: [] }, [], REF)).toBeNull();
  });

  it('takes the wind direction of the nearer hour', () => {
    expect(directionAt(tile, [350, 10, 20, 30], REF + 24.4 * HOUR_MS)).toBe(350);
    expect(directionAt(tile, [350, 10, 20, 30], REF + 24.6 * HOUR_MS)).toBe(10);
  });

  it('asks for whole days from the run, with the next day\'s first hour', () => {
    expect(hoursWindow(REF, REF)).toEqual([0, CITYTILE_WINDOW_HOURS]);
    expect(hoursWindow(REF, REF + 23.9 * HOUR_MS)).toEqual([0, 24]);
    expect(hoursWindow(REF, REF + 24 * HOUR_MS)).toEqual([24, 48]);
    expect(hoursWindow(REF, REF + 100 * HOUR_MS)).toEqual([96, 120]);
    expect(hoursWindow(REF, REF - 5 * HOUR_MS)).toEqual([0, 24]);
  });

  it('parses the hours query and writes the paths', () => {
    expect(parseHoursRange('24-48')).toEqual([24, 48]);
    expect(parseHoursRange('5-5')).toEqual([5, 5]);
    expect(parseHoursRange('48-24')).toBeNull();
    expect(parseHoursRange('1-')).toBeNull();
    expect(labelsPath('en', 6, 32, 22)).toBe('/labels/v1/en/6/32/22.json');
    expect(cityTilePath('demo', 6, 32, 22, { refTime: '2025112600', hours: [24, 48] }))
      .toBe('/citytile/v1.0/demo/6/32/22?refTime=2025112600&hours=24-48&labelsVersion=v1');
    expect(cityTilePath('gfs', 3, 1, 2, { refTime: '2025112600', hours: [0, 24], step: 3 })).toContain('&step=3');
  });

  it('shows the overlay\'s own surface value: wind speed, gust, temperature, rain; nothing for other levels', () => {
    expect(labelVariable('wind', 'surface')).toEqual({ variable: 'wind', metric: 'wind' });
    expect(labelVariable('gust', 'surface')).toEqual({ variable: 'gust', metric: 'wind' });
    expect(labelVariable('temp', 'surface')).toEqual({ variable: 'temp', metric: 'temp' });
    expect(labelVariable('rain', 'surface')).toEqual({ variable: 'rain', metric: 'rain' });
    expect(labelVariable('temp', '850h')).toBeNull();
    expect(labelVariable('nosuch', 'surface')).toBeNull();
  });

  it('shows labels from zoom 3 to 11 only, and classes places by population', () => {
    expect(labelZoom(2.99)).toBeNull();
    expect(labelZoom(3)).toBe(3);
    expect(labelZoom(6.7)).toBe(6);
    expect(labelZoom(11.99)).toBe(11);
    expect(labelZoom(12)).toBeNull();
    expect(labelClass(2_100_000)).toBe('capital');
    expect(labelClass(150_000)).toBe('city');
    expect(labelClass(3_000)).toBe('town');
  });

  it('estimates label widths within bounds', () => {
    expect(estimateLabelWidth('Paris')).toBeGreaterThanOrEqual(44);
    expect(estimateLabelWidth('Saint-Rémy-de-Provence')).toBeGreaterThan(estimateLabelWidth('Paris'));
    expect(estimateLabelWidth('x'.repeat(80))).toBe(LABEL_MAX_WIDTH_PX);
  });

  it('lists the tiles in view nearest first, wrapping x around the world', () => {
    const tiles = labelTilesInView({ lat: 48.853, lon: 2.349, zoom: 6, width: 1024, height: 768 }, 6);
    expect(tiles[0]).toEqual({ x: 32, y: 22 });
    expect(tiles.length).toBe(5 * 4);
    const dateline = labelTilesInView({ lat: 0, lon: 180, zoom: 3, width: 600, height: 300 }, 3);
    expect(dateline.map((t) => t.x).sort((a, b) => a - b)).toEqual([0, 0, 1, 1, 6, 6, 7, 7]);
    // A view wider than the world lists each tile once.
    const world = labelTilesInView({ lat: 0, lon: 0, zoom: 3, width: 5000, height: 2000 }, 3);
    expect(world.length).toBe(64);
    expect(new Set(world.map((t) => `${t.x}/${t.y}`)).size).toBe(64);
  });
});
