import { describe, expect, it } from 'vitest';
import { worldSize } from '../../../common/map.ts';
import { particleCopies } from './particles.ts';

describe('particle copies', () => {
  it('draws one copy while the view is at most one world wide', () => {
    expect(particleCopies(worldSize(3), 1280)).toEqual([0]);
    expect(particleCopies(worldSize(3), worldSize(3))).toEqual([0]);
    expect(particleCopies(worldSize(8), 3840)).toEqual([0]);
  });

  it('draws the copies on either side of a view wider than the world', () => {
    // 2400 px at zoom 3 (a 2048 px world): 210.9° either side of the centre.
    expect(particleCopies(worldSize(3), 2400)).toEqual([-1, 0, 1]);
    // Just over three worlds wide: 1.5 turns and a bit either side.
    expect(particleCopies(1000, 3002)).toEqual([-2, -1, 0, 1, 2]);
  });
});
