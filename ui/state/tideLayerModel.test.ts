import { describe, expect, it } from 'vitest';
import { nearestTideStation } from './tideLayerModel.ts';

const STATIONS = {
  ids: ['noaa:9449880', 'noaa:9447130'],
  names: ['Friday Harbor', 'Seattle'],
  lat: [48.5453, 47.6026],
  lon: [-123.0125, -122.3393],
};

describe('the tide POI layer picks the nearest station', () => {
  it('within the reach of the click, else none', () => {
    expect(nearestTideStation(STATIONS, -123.0, 48.55, 5)?.name).toBe('Friday Harbor');
    expect(nearestTideStation(STATIONS, -122.34, 47.61, 5)?.id).toBe('noaa:9447130');
    // Between the two, 50 km from either.
    expect(nearestTideStation(STATIONS, -122.7, 48.0, 5)).toBeNull();
    expect(nearestTideStation({ ids: [], names: [], lat: [], lon: [] }, 0, 0, 100)).toBeNull();
  });
});
