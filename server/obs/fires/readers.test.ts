// No real FIRMS or HMS answer is among the fixtures: the inputs here are built from the providers'
// documented columns (testing.ts), and the expected values are read off those same lines.
import { describe, expect, it } from 'vitest';
import { FiresFormatError, firmsTime, parseFirmsCsv } from './firms.ts';
import { hmsTime, parseHmsText } from './hms.ts';
import { FIRMS_MODIS_CSV_BUILT, FIRMS_VIIRS_CSV_BUILT, HMS_TEXT_BUILT } from './testing.ts';
import { firespotsFromGeoJson, firespotsGeoJson } from '../../../common/obs/fires.ts';

describe('FIRMS area API CSV', () => {
  it('reads VIIRS rows: position, UTC overpass time, class confidence, FRP, sensor', () => {
    const spots = parseFirmsCsv(FIRMS_VIIRS_CSV_BUILT);
    expect(spots).toHaveLength(3);
    expect(spots[0]).toEqual({ lat: 39.81234, lon: -121.43210, time: Date.UTC(2024, 6, 14, 4, 12), sensor: 'N20 VIIRS', confidence: { kind: 'class', value: 'high' }, frpMw: 12.7 });
    expect(spots.map((s) => s.confidence)).toEqual([{ kind: 'class', value: 'high' }, { kind: 'class', value: 'nominal' }, { kind: 'class', value: 'low' }]);
    // acq_time without its leading zeros ("35" = 00:35).
    expect(spots[2].time).toBe(Date.UTC(2024, 6, 14, 0, 35));
  });

  it('reads MODIS rows: percentage confidence', () => {
    const [spot] = parseFirmsCsv(FIRMS_MODIS_CSV_BUILT);
    expect(spot.confidence).toEqual({ kind: 'percent', value: 78 });
    expect(spot.sensor).toBe('T MODIS');
    expect(spot.time).toBe(Date.UTC(2024, 6, 14, 8, 25));
  });

  it('an empty answer (header only) is no fires, not an error', () => {
    expect(parseFirmsCsv(FIRMS_VIIRS_CSV_BUILT.split('\n')[0] + '\n')).toEqual([]);
  });

  it.each([
    ['a bad key', 'Invalid MAP_KEY.', /answered no CSV: "Invalid MAP_KEY\."/],
    ['a truncated body', FIRMS_VIIRS_CSV_BUILT.slice(0, FIRMS_VIIRS_CSV_BUILT.length - 30), /line 4: \d+ cells, header has 14 \(truncated\?\)/],
    ['a missing column', FIRMS_VIIRS_CSV_BUILT.replace('frp,', 'frpx,'), /header lacks frp/],
    ['a bad confidence', FIRMS_VIIRS_CSV_BUILT.replace(',h,', ',x,'), /line 2: confidence "x"/],
    ['a bad time', FIRMS_VIIRS_CSV_BUILT.replace('0412', '2512'), /line 2: no valid time/],
    ['a bad position', FIRMS_VIIRS_CSV_BUILT.replace('39.81234', '134.1'), /line 2: no valid position/],
  ])('refuses %s with a FiresFormatError', (_name, text, message) => {
    expect(() => parseFirmsCsv(text)).toThrow(FiresFormatError);
    expect(() => parseFirmsCsv(text)).toThrow(message);
  });

  it('firmsTime is UTC and rejects impossible times', () => {
    expect(firmsTime('2024-12-31', '2359')).toBe(Date.UTC(2024, 11, 31, 23, 59));
    expect(firmsTime('2024-12-31', '2360')).toBeNaN();
    expect(firmsTime('31/12/2024', '0000')).toBeNaN();
  });
});

describe('HMS fire points text', () => {
  it('reads YearDay + Time as UTC, FRP with -999 as none, no confidence', () => {
    const spots = parseHmsText(HMS_TEXT_BUILT);
    expect(spots).toEqual([
      { lon: -118.543, lat: 34.123, time: Date.UTC(2024, 6, 14, 4, 12), sensor: 'GOES-WEST', confidence: null, frpMw: 12.7 },
      { lon: -95.21, lat: 29.87, time: Date.UTC(2024, 6, 14, 18, 30), sensor: 'NOAA 20', confidence: null, frpMw: null },
    ]);
  });

  it('day 196 of the leap year 2024 is 14 July; day 366 only exists in leap years', () => {
    expect(hmsTime('2024196', '0000')).toBe(Date.UTC(2024, 6, 14));
    expect(hmsTime('2024366', '1200')).toBe(Date.UTC(2024, 11, 31, 12));
    expect(hmsTime('2024367', '1200')).toBeNaN();
  });

  it('refuses an HTML error page and a truncated line', () => {
    expect(() => parseHmsText('<html><body>404 Not Found</body></html>')).toThrow(/lacks Lon, Lat, YearDay or Time/);
    expect(() => parseHmsText(HMS_TEXT_BUILT.slice(0, HMS_TEXT_BUILT.indexOf('NOAA 20')))).toThrow(/line 3: .* \(truncated\?\)/);
  });
});

describe('firespots GeoJSON', () => {
  it('round-trips and refuses what is not a dated point collection', () => {
    const spots = parseFirmsCsv(FIRMS_VIIRS_CSV_BUILT);
    expect(firespotsFromGeoJson(JSON.parse(JSON.stringify(firespotsGeoJson(spots))))).toEqual(spots);
    expect(() => firespotsFromGeoJson({ type: 'FeatureCollection', features: [{ geometry: { coordinates: [1, 2] }, properties: {} }] })).toThrow(/feature 0 is not a dated point/);
    expect(() => firespotsFromGeoJson([])).toThrow(/not a GeoJSON FeatureCollection/);
  });
});
