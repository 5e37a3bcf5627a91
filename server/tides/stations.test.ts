import { describe, expect, it } from 'vitest';
import { allStations } from '@neaps/tide-database';
import { TIDE_MAX_DISTANCE_KM } from '../../common/tides.ts';
import { isServable, nearestStation, servedStations, stationById } from './stations.ts';

describe('the tide stations served: licence and kind', () => {
  it('serves only tide stations whose licence permits commercial use, each with its credit line', async () => {
    const served = await servedStations();
    expect(served.length).toBeGreaterThan(5000);
    for (const s of served) {
      expect(s.kind).toBe('tide');
      expect(s.license.commercial_use).toBe(true);
      expect(s.attribution.length).toBeGreaterThan(0);
    }
  });

  it('leaves out the non-commercial (CC BY-NC) stations and the tidal-current stations', async () => {
    const nonCommercial = allStations.find((s) => s.kind === 'tide' && s.license.commercial_use === false)!;
    expect(nonCommercial.license.type).toMatch(/nc/i);
    expect(isServable(nonCommercial)).toBe(false);
    expect(await stationById(nonCommercial.id)).toBeNull();
    const current = allStations.find((s) => s.kind === 'current')!;
    expect(await stationById(current.id)).toBeNull();
    expect((await servedStations()).some((s) => s.license.type.includes('nc'))).toBe(false);
  });

  it('finds the nearest station within the stated distance, and none beyond it', async () => {
    // Friday Harbor's ferry landing, 0.3 km from the gauge: the tide station, not the nearby current station.
    const near = await nearestStation(48.5358, -123.0138);
    expect(near?.station.id).toBe('noaa/9449880');
    expect(near!.distanceKm).toBeLessThan(1.5);
    // Prague is far from any sea.
    expect(await nearestStation(50.08, 14.42)).toBeNull();
    // Longitudes past ±180 (SPEC §9 bounds ±720) are the same place.
    expect((await nearestStation(48.5358, -123.0138 + 360))?.station.id).toBe('noaa/9449880');
    expect(await nearestStation(48.5358, -123.0138, 0.01)).toBeNull();
    expect(TIDE_MAX_DISTANCE_KM).toBeGreaterThan(0);
  });
});
