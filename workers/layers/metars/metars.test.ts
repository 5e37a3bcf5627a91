import { describe, expect, it } from 'vitest';
import { FLIGHT_CATEGORY_COLOURS } from '../../../common/aviation/flightCategory.ts';
import { metarMarks } from './metars.ts';

describe('metarMarks', () => {
  it('colours each station by its flight category, grey without one', () => {
    const marks = metarMarks(new Float32Array([1, 2, 3]), new Float32Array([4, 5, 6]), new Int8Array([0, 3, -1]));
    expect([...marks.color.slice(0, 3)]).toEqual([...FLIGHT_CATEGORY_COLOURS.VFR]);
    expect([...marks.color.slice(4, 7)]).toEqual([...FLIGHT_CATEGORY_COLOURS.LIFR]);
    expect([...marks.color.slice(8, 11)]).toEqual([140, 140, 140]);
    expect(marks.color[3]).toBe(240);
    expect(marks.lon).toHaveLength(3);
  });
});
