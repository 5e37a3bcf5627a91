import { describe, expect, it, vi } from 'vitest';
import { favouriteProblem, FAVOURITE_TITLE_MAX_LENGTH, isSameLocation, validateFavourite } from './favourites.ts';

describe('favourite validation (SPEC §5 "Favourite")', () => {
  it.each([
    // value, accepted
    [{ type: 'fav', title: 'Home', lat: 50.1, lon: 14.4 }, true],
    [{ type: 'fav', title: 'Home' }, true],
    [{ type: 'airport', title: 'Prague', icao: 'LKPR' }, true],
    [{ type: 'station', title: 'Milešovka', stationId: 'wmo-11464' }, true],
    [{ type: 'webcam', title: 'Sněžka', webcamId: 1234567 }, true],
    [{ type: 'route', title: 'Commute', route: '50.1,14.4;50.2,14.5' }, true],
    [{ type: 'fav', title: 'Pinned', lat: 1, lon: 2, pinned: 1_700_000_000_000, pin2homepage: true, cc: 'cz', id: 'abc', updated: 5 }, true],
    // SPEC §5: non-empty title
    [{ type: 'fav', title: '' }, false],
    [{ type: 'fav', title: '   ' }, false],
    [{ type: 'fav' }, false],
    [{ type: 'fav', title: 'x'.repeat(FAVOURITE_TITLE_MAX_LENGTH + 1) }, false],
    // SPEC §5: one of the five types
    [{ type: 'city', title: 'Paris' }, false],
    [{ title: 'Paris' }, false],
    // SPEC §5: each type's extra
    [{ type: 'airport', title: 'Prague' }, false],
    [{ type: 'airport', title: 'Prague', icao: 1234 }, false],
    [{ type: 'station', title: 'S', stationId: 11464 }, false],
    [{ type: 'webcam', title: 'W', webcamId: '1234567' }, false],
    [{ type: 'webcam', title: 'W', webcamId: Number.NaN }, false],
    [{ type: 'route', title: 'R' }, false],
    [{ type: 'route', title: 'R', route: '' }, false],
    // fields that are there must be right
    [{ type: 'fav', title: 'A', lat: 91, lon: 0 }, false],
    [{ type: 'fav', title: 'A', lat: 10 }, false],
    [{ type: 'fav', title: 'A', lat: '10', lon: '20' }, false],
    [{ type: 'fav', title: 'A', pin2homepage: 'yes' }, false],
    [{ type: 'fav', title: 'A', pinned: -1 }, false],
    [{ type: 'fav', title: 'A', id: 7 }, false],
    // not objects
    [null, false],
    ['fav', false],
    [[{ type: 'fav', title: 'A' }], false],
  ])('%j -> %s', (value, accepted) => {
    expect(favouriteProblem(value) === null).toBe(accepted);
    const log = vi.fn();
    const result = validateFavourite(value, log);
    expect(result !== null).toBe(accepted);
    // SPEC §5: "otherwise rejected, error logged, null returned".
    expect(log).toHaveBeenCalledTimes(accepted ? 0 : 1);
  });

  it('keeps the known fields only', () => {
    expect(validateFavourite({ type: 'fav', title: 'A', lat: 1, lon: 2, extra: '<script>' })).toEqual({ type: 'fav', title: 'A', lat: 1, lon: 2 });
  });

  it.each([
    [{ lat: 50, lon: 14 }, { lat: 50.009, lon: 13.991 }, true],
    [{ lat: 50, lon: 14 }, { lat: 50.011, lon: 14 }, false],
    [{ lat: 0, lon: 179.998 }, { lat: 0, lon: -179.998 }, true],
    [{ lat: 0, lon: 10 }, { lat: 0, lon: 370 }, true],
  ])('same location %j %j -> %s (SPEC §9 tolerance 0.01°)', (a, b, same) => {
    expect(isSameLocation(a, b)).toBe(same);
  });
});
