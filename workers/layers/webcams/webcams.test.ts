import { describe, expect, it } from 'vitest';
import { WEBCAM_SIZE_PX, webcamMarks } from './webcams.ts';

describe('webcam marks', () => {
  it('one disc per webcam, the user\'s own in another colour', () => {
    const marks = webcamMarks(Float32Array.of(14.4, 2.35), Float32Array.of(50.1, 48.86), Uint8Array.of(0, 1));
    expect(Array.from(marks.lon)).toEqual([Math.fround(14.4), Math.fround(2.35)]);
    expect(Array.from(marks.size)).toEqual([WEBCAM_SIZE_PX, WEBCAM_SIZE_PX]);
    expect(Array.from(marks.color.subarray(0, 4))).not.toEqual(Array.from(marks.color.subarray(4, 8)));
    expect(marks.color[3]).toBeGreaterThan(200);
  });
});
