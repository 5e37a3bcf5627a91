/**
 * The TEXT:CSV reader. No capture of weather.uwyo.edu's CSV answer is in ../shared/data yet: the
 * layout is the one its readers publish (uwyoCsv.ts), and the real observations are the TEXT:LIST
 * fixture's (Norman, 12 UTC 22 Dec 2018), written in that layout by uwyoCsvText.
 */

import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../live/testing.ts';
import { readSoundingFixture, uwyoCsvText } from './testing.ts';
import { parseUwyoTextList } from './uwyo.ts';
import { LAYER_HPA, parseUwyoCsv, THIN_ABOVE_LEVELS, UWYO_CSV_HEADER } from './uwyoCsv.ts';

const HEADER = UWYO_CSV_HEADER.join(',');
const LAUNCH = Date.UTC(2026, 6, 21, 12);
const ask = { station: '03808', time: LAUNCH };
/** A row in the service's column order: pressure, height, temperature, dew point, direction, speed. */
const row = (p: number | string, z: number | string, t: number | string, td: number | string, dir: number | string, speed: number | string) =>
  `2026-07-21 11:17:10,-5.32,50.22,${p},${z},${t},${td},,,,,${dir},${speed}`;

describeWithFixtures('UWyo TEXT:CSV on the real Norman sounding', () => {
  it('reads back the sounding the TEXT:LIST page holds: levels, winds in m/s, launch position and ground height', async () => {
    const [{ sounding: page }] = parseUwyoTextList(await readSoundingFixture('uwyo'));
    const { sounding, published } = parseUwyoCsv(uwyoCsvText(page), { station: '72357', time: page.time, name: 'Norman' });
    // The page lists 44 hPa twice (at 21336 and 21330 m): levels go up, so the second is left out.
    expect(sounding).toEqual({ ...page, levels: page.levels.filter((l, i) => i === 0 || l.pressure < page.levels[i - 1].pressure) });
    expect(sounding.elevation).toBe(345);
    expect(sounding.levels).toHaveLength(103);
    // The answer prints no indices.
    expect(published).toEqual({});
  });
});

describe('UWyo TEXT:CSV reader', () => {
  it('finds the columns by name and takes the station and launch from the request; blank cells are missing values', () => {
    const swapped = ['time', 'latitude', 'longitude', 'wind speed_m/s', 'wind direction_degree', 'pressure_hPa', 'geopotential height_m',
      'temperature_C', 'dew point temperature_C'].join(',');
    const { sounding } = parseUwyoCsv(`${swapped}\n2026-07-21 11:17:10,50.22,-5.32,4.1,360,1019.2,87,19.7,16\n2026-07-21 11:18:10,50.22,-5.31,,,1000,250,18.1,\n`, ask);
    expect(sounding).toEqual({
      source: 'radiosonde', id: '03808', lat: 50.22, lon: -5.32, elevation: 87, time: LAUNCH,
      levels: [
        { pressure: 1019.2, height: 87, temp: 19.7, dewpoint: 16, windDir: 360, windSpeed: 4.1 },
        { pressure: 1000, height: 250, temp: 18.1, dewpoint: null, windDir: null, windSpeed: null },
      ],
    });
  });

  it('leaves out rows that do not go up (a repeated level, the balloon sinking) and rows with nothing but a height', () => {
    const text = [HEADER, row(1000, 100, 15, 5, 360, 5), row(1000, 110, 14, 5, 350, 6), row(1001, 95, 14, 5, 350, 6), row(900, '', '', '', '', ''), row(850, 1500, 10, 4, 340, 7)].join('\n');
    expect(parseUwyoCsv(text, ask).sounding.levels.map((l) => l.pressure)).toEqual([1000, 850]);
  });

  it('refuses what it cannot read, naming the column, row or cut', () => {
    expect(() => parseUwyoCsv('', ask)).toThrow(/UWyo TEXT:CSV: empty answer/);
    expect(() => parseUwyoCsv('Unable to retrieve the data for 03808.\n', ask)).toThrow(/no column "longitude"/);
    expect(() => parseUwyoCsv('time,latitude\n2026-07-21 11:17:10,50.2184\n', ask)).toThrow(/no column "longitude"/);
    expect(() => parseUwyoCsv(`${HEADER}\n${row('oops', 4, 5, 6, 7, 8)}\n`, ask)).toThrow(/row 2 .*pressure_hPa "oops" is not a number/);
    expect(() => parseUwyoCsv(`${HEADER}\n${row(1000, 100, 15, 5, 360, 5)}\n${row(900, 1000, 10, 4, 350, 6).slice(0, 40)}`, ask)).toThrow(/row 3 .*the answer is cut/);
    expect(() => parseUwyoCsv(`${HEADER}\n${row('', 100, 15, 5, 360, 5)}\n`, ask)).toThrow(/row 2 .*has no pressure/);
    expect(() => parseUwyoCsv(`${HEADER}\n`, ask)).toThrow(/no levels/);
    expect(() => parseUwyoCsv(`${HEADER}\n${row(1000, 100, 15, 5, 360, 5).replace('50.22', '95.5')}\n`, ask)).toThrow(/launch position 95.5, -5.32 is not on the Earth/);
  });

  it('thins a high-resolution flight to levels LAYER_HPA apart, keeping the ground and the top; a TEMP-sized profile passes whole', () => {
    const flight = (count: number) => {
      const rows = [HEADER];
      // 1013 hPa at the ground to 10 hPa at the burst, evenly in pressure.
      for (let i = 0; i < count; i++) {
        const p = 1013 - (1003 * i) / (count - 1);
        rows.push(row(p.toFixed(3), Math.round(i * 6), (15 - i / 100).toFixed(2), (5 - i / 100).toFixed(2), 270, 10));
      }
      return rows.join('\n');
    };
    const high = parseUwyoCsv(flight(5000), ask).sounding.levels;
    expect(high[0].pressure).toBe(1013);
    expect(high.at(-1)!.pressure).toBe(10);
    expect(high.length).toBeGreaterThan(400);
    expect(high.length).toBeLessThan(520);
    for (let i = 1; i < high.length - 1; i++) expect(high[i - 1].pressure - high[i].pressure).toBeGreaterThanOrEqual(LAYER_HPA);
    expect(parseUwyoCsv(flight(THIN_ABOVE_LEVELS), ask).sounding.levels).toHaveLength(THIN_ABOVE_LEVELS);
  });
});
