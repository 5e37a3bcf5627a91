import { describe, expect, it } from 'vitest';
import type { PointForecast } from '../../../common/api/forecast.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { comparedProducts, indicesAt, MULTIMODEL_MAX_COLUMNS, resolutionOf, sampleColumns, sharedColumns } from './multimodel.ts';

const forecast = (refTime: number, hours: number[]): PointForecast => ({
  header: { product: 'x', refTime, lat: 0, lon: 0, step: 1, modelStep: 1, units: {} },
  ts: hours.map((h) => refTime + h * HOUR_MS),
  data: {},
});

describe('the products the multi-model window compares', () => {
  const served = [
    { ident: 'gfsWave' }, { ident: 'gfs2p5-20170322', sample: true }, { ident: 'ecmwf' }, { ident: 'iconEu' },
    { ident: 'gefsaero-20240309', sample: true }, { ident: 'demo', demo: true }, { ident: 'unknown-model' },
  ];

  it('takes those that cover the place and have a compared value; today\'s first, the samples after', () => {
    // Prague: ICON-EU covers it; GFS-Wave has waves only, the aerosol sample aerosols only.
    expect(comparedProducts(served, 50.087, 14.421)).toEqual([
      { ident: 'ecmwf', sample: false, demo: false }, { ident: 'iconEu', sample: false, demo: false },
      { ident: 'demo', sample: false, demo: true }, { ident: 'gfs2p5-20170322', sample: true, demo: false },
    ]);
    // New York: outside ICON-EU's bounds.
    expect(comparedProducts(served, 40.7, -74).map((p) => p.ident)).toEqual(['ecmwf', 'demo', 'gfs2p5-20170322']);
  });

  it('writes the grid spacing in degrees and about km', () => {
    expect(resolutionOf('ecmwf')).toEqual({ deg: '0.25', km: 28 });
    expect(resolutionOf('iconEu')).toEqual({ deg: '0.0625', km: 7 });
    expect(resolutionOf('gfswave-20260819')).toEqual({ deg: '0.167', km: 19 });
  });
});

describe('the columns', () => {
  const ref = Date.UTC(2026, 10, 27, 0);
  it('shares the 3-hour steps of today\'s forecasts from the step at or before now', () => {
    const a = forecast(ref, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const b = forecast(ref + 6 * HOUR_MS, [0, 3, 6, 9]);
    const now = ref + 4.5 * HOUR_MS;
    expect(sharedColumns([a, b], now).map((t) => (t - ref) / HOUR_MS)).toEqual([3, 6, 9, 12, 15]);
    expect(indicesAt(b, sharedColumns([a, b], now))).toEqual([-1, 0, 1, 2, 3]);
    expect(indicesAt(a, sharedColumns([a, b], now))).toEqual([3, 6, 9, -1, -1]);
  });

  it('keeps at most a week of columns', () => {
    const long = forecast(ref, Array.from({ length: 400 }, (_, i) => i));
    expect(sharedColumns([long], ref)).toHaveLength(MULTIMODEL_MAX_COLUMNS);
  });

  it('gives a sample its own dates, never today\'s', () => {
    const sampleRef = Date.UTC(2017, 2, 22, 0);
    const sample = forecast(sampleRef, [0]);
    expect(sampleColumns(sample)).toEqual([sampleRef]);
    // A sample on today's axis has no column: it is shown apart.
    expect(indicesAt(sample, sharedColumns([forecast(ref, [0, 3])], ref))).toEqual([-1, -1]);
  });
});
