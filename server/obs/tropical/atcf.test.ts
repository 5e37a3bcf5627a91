import { describe, expect, it } from 'vitest';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { AtcfFormatError, parseAtcf, stormName, validTime } from './atcf.ts';
import { TROPICAL_FIXTURE } from './testing.ts';

const text = async (path: string) => new TextDecoder().decode(await readFixture(path));

describeWithFixtures('ATCF b-deck: the JTWC best tracks of Vongfong and Neoguri (2014)', () => {
  it('reads Vongfong: 121 lines make 52 fixes with their radii, 155 kt at the peak', async () => {
    const records = parseAtcf(await text(TROPICAL_FIXTURE.vongfong));
    // 121 lines: 7 fixes without radii, 45 with 34 kt radii, 39 of them with 50 kt and 30 with 64 kt lines too.
    expect(records).toHaveLength(52);
    expect(records.filter((r) => r.radii.r34).length).toBe(45);
    expect(records.filter((r) => r.radii.r50).length).toBe(39);
    expect(records.filter((r) => r.radii.r64).length).toBe(30);
    const first = records[0];
    expect(first).toMatchObject({ basin: 'WP', number: 19, tech: 'BEST', tau: 0, lat: 5.5, lon: 165.7, windKt: 20, pressureHpa: 1007, type: 'DB', name: 'INVEST' });
    expect(first.time).toBe(Date.UTC(2014, 9, 1, 18));
    expect(first.radii).toEqual({ r34: null, r50: null, r64: null });
    // Line 60-62: 2014-10-08 12Z, 18.4N 131.0E, 145 kt, 914 hPa, super typhoon, radii NEQ.
    const peakDay = records.find((r) => r.time === Date.UTC(2014, 9, 8, 12))!;
    expect(peakDay).toMatchObject({ lat: 18.4, lon: 131, windKt: 145, pressureHpa: 914, type: 'ST', name: 'VONGFONG', gustKt: null });
    expect(peakDay.radii).toEqual({ r34: [140, 130, 130, 140], r50: [90, 75, 75, 90], r64: [50, 45, 45, 50] });
    expect(Math.max(...records.map((r) => r.windKt ?? 0))).toBe(155);
    expect(records[records.length - 1].time).toBe(Date.UTC(2014, 9, 13, 18));
    expect(stormName(records)).toBe('VONGFONG');
    expect(validTime(first)).toBe(first.time);
  });

  it('reads Neoguri: 140 kt at the peak, from 2014-07-02 12Z to 07-11 00Z', async () => {
    const records = parseAtcf(await text(TROPICAL_FIXTURE.neoguri));
    expect(records[0].time).toBe(Date.UTC(2014, 6, 2, 12));
    expect(records[records.length - 1].time).toBe(Date.UTC(2014, 6, 11, 0));
    expect(Math.max(...records.map((r) => r.windKt ?? 0))).toBe(140);
    expect(stormName(records)).toBe('NEOGURI');
  });

  it('refuses a file cut inside a line, or a line cut before its storm type', async () => {
    const whole = await text(TROPICAL_FIXTURE.vongfong);
    const cut = whole.slice(0, whole.indexOf('\n', 5000) - 20);
    expect(() => parseAtcf(cut)).toThrow(AtcfFormatError);
    expect(() => parseAtcf(cut)).toThrow(/truncated/);
    const lines = whole.split('\n');
    lines[3] = lines[3].split(',').slice(0, 9).join(',');
    const err = (() => { try { parseAtcf(lines.join('\n')); } catch (e) { return e as AtcfFormatError; } })();
    expect(err).toMatchObject({ name: 'AtcfFormatError', kind: 'truncated', line: 4 });
  });

  it('refuses garbled fields with the line and the field named', async () => {
    const lines = (await text(TROPICAL_FIXTURE.vongfong)).split('\n');
    const garble = (index: number, field: number, value: string) => {
      const copy = [...lines];
      const f = copy[index].split(',');
      f[field] = value;
      copy[index] = f.join(',');
      return () => parseAtcf(copy.join('\n'));
    };
    expect(garble(2, 6, ' 65X')).toThrow(/garbled, line 3: coordinate "65X"/);
    expect(garble(2, 2, ' 2014133106')).toThrow(/time "2014133106" is not a date/);
    expect(garble(2, 8, ' 2x')).toThrow(/VMAX "2x" is not an integer/);
    expect(garble(2, 0, 'XX')).toThrow(/basin "XX"/);
    expect(() => parseAtcf('\n\n')).toThrow(/empty/);
  });
});

describe('ATCF a-deck (no a-deck fixture: lines built from the ATCF manual, abdeck.txt)', () => {
  // The layout of the manual's a-deck example (TECH OFCL, TAU 0/12/24); positions and winds here
  // are test values that exercise the reader, not a real storm's.
  const deck = [
    'AL, 14, 2018101000, 03, OFCL,   0, 251N,  865W, 110,  945, HU,  34, NEQ,  160,  140,   90,  120,    0,    0,  20, 130,   0,    ,   0,    ,    ,    ,   MICHAEL, ',
    'AL, 14, 2018101000, 03, OFCL,   0, 251N,  865W, 110,  945, HU,  64, NEQ,   35,   35,   20,   30,    0,    0,  20, 130,   0,    ,   0,    ,    ,    ,   MICHAEL, ',
    'AL, 14, 2018101000, 03, OFCL,  12, 274N,  862W, 115,    0, HU,  34, AAA,  150,    0,    0,    0,    0,    0,   0, 140,   0,    ,   0,    ,    ,    ,   MICHAEL, ',
    'AL, 14, 2018101000, 03, OFCL,  24, 299N,  853W, 100,    0, HU,   0,    ,    0,    0,    0,    0,    0,    0,   0, 120,   0,    ,   0,    ,    ,    ,   MICHAEL, ',
    'AL, 14, 2018101000, 03, CARQ,   0, 251N,  865W, 110,  945, HU,   0,    ,    0,    0,    0,    0,    0,    0,   0,   0,   0,    ,   0,    ,    ,    ,   MICHAEL, ',
    '',
  ].join('\n');

  it('merges each aid and hour into one record with its radii, westerly longitudes negative', () => {
    const records = parseAtcf(deck);
    expect(records.map((r) => `${r.tech}+${r.tau}`)).toEqual(['OFCL+0', 'OFCL+12', 'OFCL+24', 'CARQ+0']);
    expect(records[0]).toMatchObject({ basin: 'AL', number: 14, lat: 25.1, lon: -86.5, windKt: 110, gustKt: 130 });
    expect(records[0].radii).toEqual({ r34: [160, 140, 90, 120], r50: null, r64: [35, 35, 20, 30] });
    expect(records[1].radii.r34).toEqual([150, 150, 150, 150]);
    expect(records[1].pressureHpa).toBeNull();
    expect(validTime(records[2])).toBe(Date.UTC(2018, 9, 11, 0));
  });
});
