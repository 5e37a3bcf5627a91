import { describe, expect, it } from 'vitest';
import { EAQI_TIERS, eaqiTier } from '../../../common/catalogue/classes.ts';
import { AIR_QUALITY_COLORS, AIR_QUALITY_TIERS, COLOR_SCALES, colorAt } from '../../../common/catalogue/colors.ts';
import type { PointForecast } from '../../../common/api/forecast.ts';
import { airQualityRows, tableRows, type RowContext } from './rows.tsx';

const forecast = (data: PointForecast['data']): PointForecast => ({
  header: { product: 'gfs', refTime: 0, lat: 0, lon: 0, step: 3, modelStep: 3, units: {} },
  ts: [0, 3, 6],
  data,
});

const context = (data: PointForecast['data'], units: Record<string, string> = {}): RowContext => ({
  forecast: forecast(data),
  unitOf: (metric) => units[metric] ?? ({ temp: '°C', fog: 'fog', thunder: 'W/m²', solarpower: '%', fwi: 'FWI', fuelMoisture: '%', aqi: 'EAQI' } as Record<string, string>)[metric] ?? '',
  t: (key, options) => (options ? `${key} ${JSON.stringify(options)}` : key),
  daylight: () => true,
});

describe('European AQI levels as the SPEC §9 tiers', () => {
  it('level n is the n-th tier, in order; outside 1-6 none', () => {
    expect(EAQI_TIERS).toEqual([...AIR_QUALITY_TIERS]);
    expect([1, 2, 3, 4, 5, 6].map(eaqiTier)).toEqual(['good', 'moderate', 'unhealthySensitive', 'unhealthy', 'veryUnhealthy', 'hazardous']);
    expect(eaqiTier(3.4)).toBe('unhealthySensitive');
    expect(eaqiTier(0)).toBeNull();
    expect(eaqiTier(7)).toBeNull();
    expect(eaqiTier(NaN)).toBeNull();
  });

  it('the map colours each level as its tier', () => {
    for (const [k, tier] of EAQI_TIERS.entries()) expect(colorAt(COLOR_SCALES.aqi, k + 1)).toEqual(AIR_QUALITY_COLORS[tier]);
  });
});

describe('detail rows of the derived surface fields', () => {
  it('wet-bulb temperature, fog, thunder, solar power, FWI and 10-h fuel moisture in the user\'s units', () => {
    const ctx = context({
      wetbulbtemp: [293.15, 273.15, null], fog: [0.2, 0.9, 1.5], thunder: [0, 0.25, 2], solarpower: [0, 42.4, 80],
      fwi: [3.2, 12, 40], dfm10h: [8.5, 15, 25],
    }, { temp: '°F' });
    const rows = tableRows(ctx);
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(rows.map((r) => r.id)).toEqual(['wetbulbtemp', 'fog', 'thunder', 'solarpower', 'fwi', 'dfm10h']);
    // 20 °C = 68 °F, 0 °C = 32 °F.
    expect([0, 1, 2].map((k) => row('wetbulbtemp').cell(k).text)).toEqual(['68', '32', '']);
    expect(row('wetbulbtemp').unit).toBe('°F');
    expect(row('fog').cell(2).value).toBe(1.5);
    // No thunder and no sun are left blank, as rain is.
    expect(row('thunder').cell(0).text).toBe('');
    expect(row('solarpower').cell(0).text).toBe('');
    expect(row('solarpower').cell(1).text).toBe('42');
    expect(row('fwi').cell(1).value).toBe(12);
    expect(row('dfm10h').label).toBe('overlay.dfm10h');
  });

  it('the stored European AQI stands in the air quality index row, named as its tier; without it the US EPA index from PM', () => {
    const eaqi = airQualityRows(context({ aqi: [1, 3, 6], pm2p5: [5, 20, 100] }));
    expect(eaqi[0]).toMatchObject({ id: 'aqi', metric: 'aqi', label: 'overlay.aqi' });
    expect(eaqi[0].cell(1)).toMatchObject({ text: '3', value: 3, title: 'airq.tiers.unhealthySensitive (EAQI 3)' });
    expect(eaqi[0].cell(2).title).toBe('airq.tiers.hazardous (EAQI 6)');
    const epa = airQualityRows(context({ pm2p5: [5, 20, 100] }));
    expect(epa[0].id).toBe('aqi');
    expect(epa[0].metric).toBeUndefined();
    expect(epa[0].cell(0).title).toBe('airq.tiers.good');
  });
});
