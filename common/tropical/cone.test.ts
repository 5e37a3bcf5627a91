import { describe, expect, it } from 'vitest';
import { CONE_RADII_NM, coneRadiusNm, destination, distanceNm, forecastCone, inConvexRing } from './cone.ts';

describe('NHC forecast cone', () => {
  it('has the published radii at the table hours and interpolates between them', () => {
    // NHC aboutcone.shtml, 2023 season, Atlantic: 12 h 26 nm ... 120 h 205 nm.
    expect(coneRadiusNm('AL', 12)).toBe(26);
    expect(coneRadiusNm('AL', 48)).toBe(67);
    expect(coneRadiusNm('AL', 120)).toBe(205);
    expect(coneRadiusNm('EP', 72)).toBe(86);
    expect(coneRadiusNm('AL', 54)).toBe(74);
    expect(coneRadiusNm('AL', 6)).toBe(13);
    expect(coneRadiusNm('AL', 0)).toBe(0);
    expect(coneRadiusNm('AL', 132)).toBeNull();
    // JTWC publishes no such radii.
    expect(coneRadiusNm('WP', 24)).toBeNull();
    for (const table of Object.values(CONE_RADII_NM)) {
      for (let i = 1; i < table!.length; i++) expect(table![i][1]).toBeGreaterThan(table![i - 1][1]);
    }
  });

  it('measures on the sphere: one degree of arc is 111.195 km, destination and distance agree', () => {
    // 2 pi R / 360 with R = 6371.0088 km (IUGG mean radius).
    expect(distanceNm(0, 0, 1, 0) * 1.852).toBeCloseTo(111.195, 2);
    const [lon, lat] = destination(25, -86, 45, 100);
    expect(distanceNm(25, -86, lat, lon)).toBeCloseTo(100, 6);
    expect(lat).toBeGreaterThan(25);
    expect(lon).toBeGreaterThan(-86);
  });

  it('encloses every point within the radius of each forecast position and none far outside', () => {
    const track = [
      { hour: 0, lat: 25, lon: -86 },
      { hour: 24, lat: 28, lon: -86 },
      { hour: 48, lat: 31, lon: -84 },
    ];
    const rings = forecastCone('AL', track)!;
    // Circles at 0, 12 (interpolated), 24, 36 (interpolated) and 48 h: four hulls.
    expect(rings).toHaveLength(4);
    const inside = (lon: number, lat: number) => rings.some((r) => inConvexRing(r, lon, lat));
    // 48 h: radius 67 nm. 66 nm east of the position is in the cone, 70 nm is not.
    const [inLon, inLat] = destination(31, -84, 90, 66);
    const [outLon, outLat] = destination(31, -84, 90, 70);
    expect(inside(inLon, inLat)).toBe(true);
    expect(inside(outLon, outLat)).toBe(false);
    // The analysis position is the cone's tip; at hour 12, halfway along the first leg, the radius is 26 nm.
    expect(inside(-86, 25)).toBe(true);
    const [midIn] = destination(26.5, -86, 90, 24);
    const [midOut] = destination(26.5, -86, 90, 30);
    expect(inside(midIn, 26.5)).toBe(true);
    expect(inside(midOut, 26.5)).toBe(false);
    expect(forecastCone('WP', track)).toBeNull();
    expect(forecastCone('AL', track.slice(0, 1))).toBeNull();
  });

  it('keeps longitudes continuous across the antimeridian', () => {
    const rings = forecastCone('CP', [{ hour: 0, lat: 20, lon: 179 }, { hour: 24, lat: 21, lon: -179 }])!;
    const lons = rings[0].filter((_, i) => i % 2 === 0);
    expect(Math.max(...lons) - Math.min(...lons)).toBeLessThan(5);
  });
});
