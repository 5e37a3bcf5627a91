import { describe, expect, it } from 'vitest';
import { IndexFormatError, parseEcmwfIndex, parseNoaaIndex, planRanges } from './indexFiles.ts';

const NOAA = [
  '1:0:d=2024010200:PRMSL:mean sea level:anl:',
  '2:990:d=2024010200:CLMR:1 hybrid level:anl:',
  '3.1:1500:d=2024010200:UGRD:10 m above ground:anl:',
  '3.2:1500:d=2024010200:VGRD:10 m above ground:anl:',
  '4:2500:d=2024010200:TMP:2 m above ground:anl:',
  '',
].join('\n');

describe('parseNoaaIndex', () => {
  it('reads fields with lengths from the next message; the last runs to the end', () => {
    const entries = parseNoaaIndex(NOAA);
    expect(entries.map((e) => [e.number, e.variable, e.level, e.forecast, e.offset, e.length])).toEqual([
      ['1', 'PRMSL', 'mean sea level', 'anl', 0, 990],
      ['2', 'CLMR', '1 hybrid level', 'anl', 990, 510],
      ['3.1', 'UGRD', '10 m above ground', 'anl', 1500, 1000],
      ['3.2', 'VGRD', '10 m above ground', 'anl', 1500, 1000],
      ['4', 'TMP', '2 m above ground', 'anl', 2500, null],
    ]);
    expect(entries[0].date).toBe('2024010200');
  });

  it.each([
    ['<html>404 Not Found</html>'],
    ['1:abc:d=2024010200:TMP:2 m above ground:anl:'],
    ['1:0:2024010200:TMP:2 m above ground:anl:'],
  ])('refuses %j', (text) => {
    expect(() => parseNoaaIndex(text)).toThrow(IndexFormatError);
  });
});

describe('parseEcmwfIndex', () => {
  it('reads JSON lines', () => {
    const text = [
      '{"domain": "g", "date": "20240102", "time": "0000", "step": "3", "levtype": "sfc", "param": "2t", "_offset": 0, "_length": 600}',
      '{"domain": "g", "date": "20240102", "time": "0000", "step": "3", "levtype": "pl", "levelist": "500", "param": "gh", "_offset": 600, "_length": 700}',
    ].join('\n');
    const [t2m, gh] = parseEcmwfIndex(text);
    expect(t2m).toMatchObject({ param: '2t', levtype: 'sfc', levelist: undefined, step: '3', offset: 0, length: 600 });
    expect(gh).toMatchObject({ param: 'gh', levtype: 'pl', levelist: '500', offset: 600, length: 700 });
    expect(gh.keys.date).toBe('20240102');
  });

  it.each([['not json'], ['{"param": "2t", "_offset": 0}'], ['{"_offset": 0, "_length": 5}']])('refuses %j', (text) => {
    expect(() => parseEcmwfIndex(text)).toThrow(IndexFormatError);
  });
});

describe('planRanges', () => {
  const e = (offset: number, length: number | null) => ({ offset, length });

  it('merges exactly adjacent messages, never across a gap', () => {
    expect(planRanges([e(0, 10), e(10, 5), e(20, 5), e(25, 5)])).toEqual([{ start: 0, end: 14 }, { start: 20, end: 29 }]);
  });

  it('sorts, drops the duplicate offsets of multi-field messages, keeps an open end last', () => {
    expect(planRanges([e(50, null), e(30, 20), e(0, 10), e(30, 20)])).toEqual([{ start: 0, end: 9 }, { start: 30, end: null }]);
  });

  it('splits merged ranges at the size cap', () => {
    expect(planRanges([e(0, 10), e(10, 10), e(20, 10)], 20)).toEqual([{ start: 0, end: 19 }, { start: 20, end: 29 }]);
  });
});
