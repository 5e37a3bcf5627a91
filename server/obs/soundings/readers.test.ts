import { describe, expect, it } from 'vitest';
import { describeWithFixtures } from '../../live/testing.ts';
import { parseBufkit } from './bufkit.ts';
import { KNOT_MS, SoundingFormatError } from './format.ts';
import { parseSpcTabular } from './spc.ts';
import { OAX_PLACE, readSoundingFixture } from './testing.ts';
import { parseUwyoTextList } from './uwyo.ts';

describeWithFixtures('observed sounding readers on the fixtures', () => {
  it('SPC tabular: OAX 2014-06-16 19 UTC, levels from the ground up, knots to m/s, the below-ground 1000 hPa level dropped', async () => {
    const { sounding } = parseSpcTabular(await readSoundingFixture('spc'), OAX_PLACE);
    expect(sounding.id).toBe('OAX');
    expect(sounding.time).toBe(Date.UTC(2014, 5, 16, 19));
    expect(sounding.source).toBe('radiosonde');
    expect(sounding.levels[0]).toEqual({ pressure: 965, height: 350, temp: 27.8, dewpoint: 23.8, windDir: 150, windSpeed: 23 * KNOT_MS });
    expect(sounding.elevation).toBe(350);
    // 962 hPa has no wind (-9999).
    expect(sounding.levels[1]).toMatchObject({ pressure: 962, windDir: null, windSpeed: null });
    expect(sounding.levels.at(-1)).toMatchObject({ pressure: 7.8, temp: -31.9 });
    expect(sounding.levels.length).toBe(150);
    for (let i = 1; i < sounding.levels.length; i++) expect(sounding.levels[i].pressure).toBeLessThan(sounding.levels[i - 1].pressure);
  });

  it('UWyo TEXT:LIST: OUN 2018-12-22 12 UTC with its station block and published indices', async () => {
    const [read, ...more] = parseUwyoTextList(await readSoundingFixture('uwyo'));
    expect(more).toEqual([]);
    const s = read.sounding;
    expect(s).toMatchObject({ source: 'radiosonde', id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, elevation: 345, time: Date.UTC(2018, 11, 22, 12) });
    // The 1000 hPa line is below the station (a height only): dropped.
    expect(s.levels[0]).toEqual({ pressure: 966, height: 345, temp: 3.6, dewpoint: -1.2, windDir: 55, windSpeed: 2 * KNOT_MS });
    // The last two levels have no wind.
    expect(s.levels.at(-1)).toEqual({ pressure: 6.8, height: 33221, temp: -48.3, dewpoint: -86.3, windDir: null, windSpeed: null });
    expect(s.levels.length).toBe(104);
    expect(read.published['Precipitable water [mm] for entire sounding']).toBe(10.64);
    expect(read.published['Lifted index']).toBe(18.82);
    expect(read.published).not.toHaveProperty('Station latitude');
  });

  it('BUFKIT: 22 hourly RAP soundings for OUN from 2018-12-19 04 UTC, with their STNPRM indices', async () => {
    const all = parseBufkit(await readSoundingFixture('bufkit'), 'RAP');
    expect(all).toHaveLength(22);
    const first = all[0];
    expect(first.sounding).toMatchObject({ source: 'model', id: 'OUN', name: 'RAP', lat: 35.23, lon: -97.47, elevation: 350, time: Date.UTC(2018, 11, 19, 4), refTime: Date.UTC(2018, 11, 19, 4) });
    expect(first.sounding.levels[0]).toEqual({ pressure: 971.6, height: 358.46, temp: 7.14, dewpoint: 4.78, windDir: 147.26, windSpeed: 6.47 * KNOT_MS });
    expect(first.sounding.levels).toHaveLength(50);
    expect(first.published).toEqual({ SHOW: 11.69, LIFT: 10.38, SWET: 64.22, KINX: -6.59, LCLP: 937.09, PWAT: 10.43, TOTL: 30.41, CAPE: 0, LCLT: 277.42, CINS: 0, BRCH: 0 });
    expect(all[17].published).toMatchObject({ CAPE: 20.16, CINS: -15.44, EQLV: 617.32, LFCT: 766.07 });
    expect(all.at(-1)!.sounding.time).toBe(Date.UTC(2018, 11, 20, 1));
    expect(all.at(-1)!.sounding.refTime).toBe(Date.UTC(2018, 11, 19, 4));
  });

  it('cut files are named errors, never half a sounding', async () => {
    const spc = await readSoundingFixture('spc');
    expect(() => parseSpcTabular(spc.slice(0, spc.length / 2), OAX_PLACE)).toThrow(/SPC tabular: no %END%: truncated/);
    const uwyo = await readSoundingFixture('uwyo');
    expect(() => parseUwyoTextList(uwyo.slice(0, uwyo.indexOf('</PRE>')))).toThrow(/UWyo TEXT:LIST: .*truncated/);
    expect(() => parseUwyoTextList(uwyo.slice(0, uwyo.indexOf('Station elevation')))).toThrow(/UWyo TEXT:LIST: .*truncated/);
    const bufkit = await readSoundingFixture('bufkit');
    // Cut in the middle of the first sounding's levels (before the surface series).
    const cut = bufkit.slice(0, bufkit.indexOf('STID', 200) - 60);
    expect(() => parseBufkit(cut)).toThrow(SoundingFormatError);
    expect(() => parseBufkit(cut)).toThrow(/not whole levels/);
  });
});

describe('observed sounding readers on bad input', () => {
  it('garbage is a named error of its format', () => {
    expect(() => parseSpcTabular('<html>Not found</html>', OAX_PLACE)).toThrow(SoundingFormatError);
    expect(() => parseUwyoTextList('<html>Not found</html>')).toThrow(/not a TEXT:LIST page/);
    expect(() => parseUwyoTextList("<HTML><BODY>Can't get 72357 OUN Observations at 12Z 22 Dec 2018</BODY></HTML>")).toThrow(/no sounding/);
    expect(() => parseBufkit('hello')).toThrow(/BUFKIT: no SNPARM/);
  });
  it('a value that is not a number names the line', () => {
    const text = '%TITLE%\n OAX   140616/1900\n\n   LEVEL       HGHT       TEMP       DWPT       WDIR       WSPD\n---\n%RAW%\n 965.00,    350.00,     2x.80,     23.80,    150.00,     23.00\n%END%\n';
    expect(() => parseSpcTabular(text, OAX_PLACE)).toThrow(/line 7 .* is not 6 numbers/);
  });
});
