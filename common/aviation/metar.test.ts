import { describe, expect, it } from 'vitest';
import { decodeMetar, MetarFormatError, sanitizeReport, timeOfDayGroup } from './metar.ts';

// The real reports of ../shared/data/text/metar-taf are checked in server/obs/metar/fixtures.test.ts
// (common/ reads no files); these are the rules around them.
describe('timeOfDayGroup', () => {
  const now = Date.UTC(2024, 2, 1, 0, 30); // 1 March 2024 00:30Z
  it('dates a group of today, of an earlier day this month and of last month', () => {
    expect(timeOfDayGroup(1, 0, 20, now)).toBe(Date.UTC(2024, 2, 1, 0, 20));
    expect(timeOfDayGroup(29, 23, 50, now)).toBe(Date.UTC(2024, 1, 29, 23, 50));
    expect(timeOfDayGroup(31, 12, 0, now)).toBe(Date.UTC(2024, 0, 31, 12, 0)); // February has no 31st
  });
});

describe('sanitizeReport', () => {
  it('cuts a report at the next report of the same station glued after it', () => {
    expect(sanitizeReport('EGLL 170550Z AUTO 09011KT 9999 NCD 10/05 Q1016 NOSIG EGLL 170520Z AUTO 09011KT 9999 NCD 10/05 Q1016'))
      .toBe('EGLL 170550Z AUTO 09011KT 9999 NCD 10/05 Q1016 NOSIG');
  });
  it('keeps AUTO after the time and CLR', () => {
    expect(sanitizeReport('KMCO 170553Z AUTO 31007KT 10SM CLR 15/09 A2999')).toBe('KMCO 170553Z AUTO 31007KT 10SM CLR 15/09 A2999');
  });
});

describe('decodeMetar', () => {
  const now = Date.UTC(2023, 9, 17, 6);
  it('refuses a report without a time, a NIL report and one the parser cannot read, naming the raw text', () => {
    expect(() => decodeMetar('KJFK 1 1 1 1 1 1 2 1', now)).toThrow(MetarFormatError);
    expect(() => decodeMetar('EGLL 170550Z NIL', now)).toThrow(/NIL report: "EGLL 170550Z NIL"/);
    expect(() => decodeMetar('ENBO 26003KT 200V300KT 8000', now)).toThrow(/ENBO 26003KT 200V300KT 8000/);
    expect(() => decodeMetar('', now)).toThrow(MetarFormatError);
  });
  it('reads a vertical visibility as the ceiling, in base units', () => {
    const m = decodeMetar('KTRK 170545Z 00000KT 1/4SM FZFG VV002 M01/M02 A3000', now);
    expect(m.ceilingFt).toBe(200);
    expect(m.flightCategory).toBe('LIFR');
    expect(m.visibilityM).toBeCloseTo(402.336, 3);
    expect(m.weather).toEqual(['FZFG']);
    expect(m.qnhHpa).toBeCloseTo(1015.917, 3);
    expect(m.temperatureC).toBe(-1);
  });
  it('gives CAVOK its visibility and no ceiling', () => {
    const m = decodeMetar('LKPR 170530Z 24012G25KT CAVOK 12/08 Q1012', now);
    expect(m.cavok).toBe(true);
    expect(m.visibilityAtLeast).toBe(true);
    expect(m.flightCategory).toBe('VFR');
    expect(m.wind?.gustMs).toBeCloseTo(25 * 1852 / 3600, 6);
  });
});
