import { describe, expect, it } from 'vitest';
import { tilePath } from './api/tiles.ts';
import { MinifestError, bracketSteps, hourStamp, nearestStep, parseHourStamp, parseMinifest } from './minifest.ts';
import { HOUR_MS } from './time.ts';

const ref = Date.UTC(2026, 10, 25, 0);

describe('minifest', () => {
  it('expands dst ranges into valid times', () => {
    const c = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 3], [3, 6, 12]] });
    expect(c.timestamps.map((t) => (t - ref) / HOUR_MS)).toEqual([0, 1, 2, 3, 6, 9, 12]);
    expect(c.start).toBe(ref);
    expect(c.end).toBe(ref + 12 * HOUR_MS);
  });

  it.each([
    ['no ref', { dst: [[1, 0, 3]] }, /no ref/],
    ['no dst', { ref: '2026-11-25T00:00:00Z' }, /no dst/],
    ['empty dst', { ref: '2026-11-25T00:00:00Z', dst: [] }, /no dst/],
    ['bad date', { ref: 'yesterday', dst: [[1, 0, 3]] }, /not a date/],
    ['bad range', { ref: '2026-11-25T00:00:00Z', dst: [[0, 0, 3]] }, /out of order/],
    ['too many steps', { ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 100000]] }, /too many/],
    ['not an object', null, /not an object/],
    ['layers not an object', { ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 3]], layers: ['waves'] }, /layers is not an object/],
    ['a layer without a level list', { ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 3]], layers: { waves: 'surface' } }, /waves is not a list/],
  ])('rejects a minifest with %s', (_, input, message) => {
    expect(() => parseMinifest(input)).toThrow(MinifestError);
    expect(() => parseMinifest(input)).toThrow(message);
  });

  it('keeps the run\'s layers (tile file -> levels) when the minifest lists them', () => {
    const c = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]], layers: { waves: ['surface'], wind: ['surface', '850h'] } });
    expect(c.layers).toEqual({ waves: ['surface'], wind: ['surface', '850h'] });
    expect(parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]] }).layers).toBeUndefined();
  });

  it('brackets a time between two steps', () => {
    const c = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]] });
    expect(bracketSteps(c, ref + 4 * HOUR_MS)).toEqual({ before: ref + 3 * HOUR_MS, after: ref + 6 * HOUR_MS, t: 1 / 3 });
    expect(bracketSteps(c, ref + 3 * HOUR_MS)).toEqual({ before: ref + 3 * HOUR_MS, after: ref + 3 * HOUR_MS, t: 0 });
    expect(bracketSteps(c, ref - HOUR_MS).t).toBe(0);
    expect(bracketSteps(c, ref + 99 * HOUR_MS).before).toBe(ref + 12 * HOUR_MS);
    expect(nearestStep(c, ref + 5 * HOUR_MS)).toBe(ref + 6 * HOUR_MS);
  });

  it('writes tile paths with hour stamps', () => {
    expect(hourStamp(ref + 6 * HOUR_MS)).toBe('2026112506');
    expect(parseHourStamp('2026112506')).toBe(ref + 6 * HOUR_MS);
    expect(parseHourStamp('2026113106')).toBeNull();
    expect(tilePath({ directory: 'demo', refTime: ref, validTime: ref + HOUR_MS, z: 1, x: 2, y: 0, file: 'wind', level: 'surface', suffix: 'tile' }))
      .toBe('/tiles/v1.0/demo/2026112500/2026112501/1/2/0/wind-surface.tile');
  });
});
