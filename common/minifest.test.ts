import { describe, expect, it } from 'vitest';
import { MinifestError, bracketSteps, hourStamp, nearestStep, parseHourStamp, parseMinifest, tilePath } from './minifest.ts';

const H = 3_600_000;
const ref = Date.UTC(2026, 10, 25, 0);

describe('minifest', () => {
  it('expands dst ranges into valid times', () => {
    const c = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 3], [3, 6, 12]] });
    expect(c.timestamps.map((t) => (t - ref) / H)).toEqual([0, 1, 2, 3, 6, 9, 12]);
    expect(c.start).toBe(ref);
    expect(c.end).toBe(ref + 12 * H);
  });

  it.each([
    ['no ref', { dst: [[1, 0, 3]] }, /no ref/],
    ['no dst', { ref: '2026-11-25T00:00:00Z' }, /no dst/],
    ['empty dst', { ref: '2026-11-25T00:00:00Z', dst: [] }, /no dst/],
    ['bad date', { ref: 'yesterday', dst: [[1, 0, 3]] }, /not a date/],
    ['bad range', { ref: '2026-11-25T00:00:00Z', dst: [[0, 0, 3]] }, /out of order/],
    ['too many steps', { ref: '2026-11-25T00:00:00Z', dst: [[1, 0, 100000]] }, /too many/],
    ['not an object', null, /not an object/],
  ])('rejects a minifest with %s', (_, input, message) => {
    expect(() => parseMinifest(input)).toThrow(MinifestError);
    expect(() => parseMinifest(input)).toThrow(message);
  });

  it('brackets a time between two steps', () => {
    const c = parseMinifest({ ref: '2026-11-25T00:00:00Z', dst: [[3, 0, 12]] });
    expect(bracketSteps(c, ref + 4 * H)).toEqual({ before: ref + 3 * H, after: ref + 6 * H, t: 1 / 3 });
    expect(bracketSteps(c, ref + 3 * H)).toEqual({ before: ref + 3 * H, after: ref + 3 * H, t: 0 });
    expect(bracketSteps(c, ref - H).t).toBe(0);
    expect(bracketSteps(c, ref + 99 * H).before).toBe(ref + 12 * H);
    expect(nearestStep(c, ref + 5 * H)).toBe(ref + 6 * H);
  });

  it('writes tile paths with hour stamps', () => {
    expect(hourStamp(ref + 6 * H)).toBe('2026112506');
    expect(parseHourStamp('2026112506')).toBe(ref + 6 * H);
    expect(parseHourStamp('2026113106')).toBeNull();
    expect(tilePath({ directory: 'demo', refTime: ref, validTime: ref + H, z: 1, x: 2, y: 0, file: 'wind', level: 'surface', suffix: 'tile' }))
      .toBe('/tiles/v1.0/demo/2026112500/2026112501/1/2/0/wind-surface.tile');
  });
});
