import { describe, expect, it } from 'vitest';
import {
  angularDistance, capBounds, clampGlobeZoom, zoomGlobeAbout, constrainGlobeView, globeProject, globeRadius, globeUnproject, globeZoomToFit,
  GLOBE_MAX_LAT, GLOBE_MAX_ZOOM, GLOBE_MIN_ZOOM, particleSegment, rotateGlobe, visibleCapRadius, type GlobeView,
} from './globe.ts';

/** The zoom whose globe has radius 1 CSS px: Snyder's examples take R = 1. */
const UNIT_ZOOM = Math.log2((2 * Math.PI) / 256);

describe('orthographic projection', () => {
  it('matches the worked example of Snyder (1987), orthographic sphere', () => {
    // R = 1, φ1 = 40° N, λ0 = 100° W; φ = 30° N, λ = 110° W -> x = -0.1503837, y = -0.1651911.
    const view: GlobeView = { lon: -100, lat: 40, zoom: UNIT_ZOOM, width: 0, height: 0 };
    expect(globeRadius(view.zoom)).toBeCloseTo(1, 12);
    const p = globeProject(view, -110, 30);
    expect(p.x).toBeCloseTo(-0.1503837, 7);
    // Screen y runs downwards.
    expect(-p.y).toBeCloseTo(-0.1651911, 7);
    expect(p.z).toBeGreaterThan(0);
  });

  it('inverts the forward projection over the visible hemisphere', () => {
    const view: GlobeView = { lon: 170, lat: 35, zoom: 3, width: 1280, height: 720 };
    for (let lat = -50; lat <= 89; lat += 7) {
      for (let lon = 100; lon <= 240; lon += 9) {
        const p = globeProject(view, lon, lat);
        if (p.z < 0.05) continue;
        const back = globeUnproject(view, p.x, p.y)!;
        expect(back).not.toBeNull();
        expect(angularDistance(back.lon, back.lat, lon, lat)).toBeLessThan(1e-9);
      }
    }
  });

  it('puts the centre in the middle, the limb at the radius and the far side behind', () => {
    const view: GlobeView = { lon: 0, lat: 0, zoom: 3, width: 800, height: 600 };
    const r = globeRadius(3);
    expect(globeProject(view, 0, 0)).toMatchObject({ x: 400, y: 300, z: 1 });
    const limb = globeProject(view, 90, 0);
    expect(limb.x).toBeCloseTo(400 + r, 9);
    expect(limb.z).toBeCloseTo(0, 12);
    expect(globeProject(view, 0, 90).y).toBeCloseTo(300 - r, 9);
    expect(globeProject(view, 180, 0).z).toBeCloseTo(-1, 12);
    expect(globeProject(view, 120, 10).z).toBeLessThan(0);
    expect(globeUnproject(view, 400 + r + 1, 300)).toBeNull();
    expect(globeUnproject(view, 400, 300)).toEqual({ lon: 0, lat: 0 });
  });

  it('answers longitudes across the antimeridian in [-180, 180)', () => {
    const view: GlobeView = { lon: 179, lat: 0, zoom: 4, width: 600, height: 600 };
    const p = globeProject(view, -178, 5);
    const back = globeUnproject(view, p.x, p.y)!;
    expect(back.lon).toBeCloseTo(-178, 9);
    expect(back.lat).toBeCloseTo(5, 9);
  });
});

describe('visible cap', () => {
  it('is the whole hemisphere while the disc fits the viewport, narrower when zoomed in', () => {
    expect(visibleCapRadius({ lon: 0, lat: 0, zoom: 2, width: 1280, height: 720 })).toBe(90);
    const r = globeRadius(6);
    const zoomed = visibleCapRadius({ lon: 0, lat: 0, zoom: 6, width: 1280, height: 720 });
    expect(zoomed).toBeCloseTo(Math.asin(Math.hypot(640, 360) / r) * 180 / Math.PI, 12);
    expect(zoomed).toBeLessThan(20);
  });

  it('takes every longitude when a pole is in the cap, else the tangent meridians', () => {
    expect(capBounds(20, 30, 90)).toEqual({ west: -160, east: 200, north: 90, south: -60, fullLon: true });
    const b = capBounds(10, 0, 30);
    expect(b.fullLon).toBe(false);
    expect(b.west).toBeCloseTo(-20, 9);
    expect(b.east).toBeCloseTo(40, 9);
    // At 60° N a cap of 10° spans asin(sin 10° / cos 60°) = 20.3° either side.
    const c = capBounds(0, 60, 10);
    expect(c.east).toBeCloseTo(Math.asin(Math.sin(10 * Math.PI / 180) / 0.5) * 180 / Math.PI, 9);
    // Every point of the cap's circle lies within the box.
    for (let a = 0; a < 360; a += 5) {
      const rad = (a * Math.PI) / 180;
      // Destination point 10° from (0, 60) on bearing a.
      const lat1 = (60 * Math.PI) / 180;
      const d = (10 * Math.PI) / 180;
      const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(rad));
      const lon2 = Math.atan2(Math.sin(rad) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
      expect((lon2 * 180) / Math.PI).toBeGreaterThanOrEqual(c.west - 1e-9);
      expect((lon2 * 180) / Math.PI).toBeLessThanOrEqual(c.east + 1e-9);
      expect((lat2 * 180) / Math.PI).toBeLessThanOrEqual(c.north + 1e-9);
      expect((lat2 * 180) / Math.PI).toBeGreaterThanOrEqual(c.south - 1e-9);
    }
  });
});

describe('particle segments', () => {
  const view: GlobeView = { lon: 175, lat: 10, zoom: 3, width: 1000, height: 800 };

  it('draws a step across the antimeridian as the short segment it is', () => {
    // The engine writes relative longitudes: 179.9° E to 179.9° W is +4.9° to +5.1° from 175° E.
    const seg = particleSegment(view, [4.9, 0], [5.1, 0])!;
    expect(seg).not.toBeNull();
    const length = Math.hypot(seg[1].x - seg[0].x, seg[1].y - seg[0].y);
    expect(length).toBeCloseTo(0.2 * (Math.PI / 180) * globeRadius(3) * Math.cos(10 * Math.PI / 180), 1);
  });

  it('draws a step near the pole that stays on the visible side, and hides the far side', () => {
    const polar = { ...view, lat: 60 };
    // 89.9° N, moving 30° of longitude in one step: short on the globe.
    const near = particleSegment(polar, [0, 29.9], [30, 29.9])!;
    expect(Math.hypot(near[1].x - near[0].x, near[1].y - near[0].y)).toBeLessThan(1);
    expect(particleSegment(polar, [180, -30], [180.5, -30])).toBeNull();
    // One end on the limb's far side hides the whole step.
    expect(particleSegment(view, [89.9, -10], [90.5, -10])).toBeNull();
  });

  it('hides a respawned particle (degenerate segment)', () => {
    expect(particleSegment(view, [1, 1], [1, 1])).toBeNull();
  });
});

describe('globe camera', () => {
  it('rotates under a drag and stays within its ranges', () => {
    const view: GlobeView = { lon: 0, lat: 0, zoom: 3, width: 800, height: 600 };
    const r = globeRadius(3);
    const turned = rotateGlobe(view, (r * Math.PI) / 2, 0);
    expect(turned.lon).toBeCloseTo(-90, 9);
    expect(rotateGlobe(view, 0, r * 3).lat).toBe(GLOBE_MAX_LAT);
    expect(rotateGlobe({ ...view, lon: 179 }, -r * 0.1, 0).lon).toBeLessThan(-170);
    expect(constrainGlobeView({ ...view, zoom: 40 }).zoom).toBe(GLOBE_MAX_ZOOM);
    expect(clampGlobeZoom(-3)).toBe(GLOBE_MIN_ZOOM);
  });

  it('fits the globe to the viewport', () => {
    const z = globeZoomToFit(1280, 720);
    expect(globeRadius(z) * 2).toBeCloseTo(0.8 * 720, 6);
  });

  it('zooms about the pointer: the point under it stays under it, in and out, across the antimeridian and near a pole', () => {
    const cases: [GlobeView, number, number, number][] = [
      [{ lon: 0, lat: 0, zoom: 2.5, width: 800, height: 600 }, 3.5, 600, 200],
      [{ lon: 170, lat: 30, zoom: 3, width: 800, height: 600 }, 4.2, 700, 350],
      [{ lon: -40, lat: 70, zoom: 2, width: 1280, height: 720 }, 2.8, 740, 400],
      [{ lon: 100, lat: -35, zoom: 4, width: 800, height: 600 }, 3.3, 250, 480],
    ];
    for (const [view, zoom, sx, sy] of cases) {
      const under = globeUnproject(view, sx, sy)!;
      const zoomed = zoomGlobeAbout(view, zoom, sx, sy);
      expect(zoomed.zoom).toBe(zoom);
      const at = globeProject(zoomed, under.lon, under.lat);
      expect(at.x).toBeCloseTo(sx, 6);
      expect(at.y).toBeCloseTo(sy, 6);
      expect(at.z).toBeGreaterThan(0);
      // And back: zooming out again about the same point returns to the first view.
      const back = zoomGlobeAbout(zoomed, view.zoom, sx, sy);
      expect(back.lon).toBeCloseTo(view.lon, 6);
      expect(back.lat).toBeCloseTo(view.lat, 6);
    }
  });

  it('zooms about the centre where the pointer is off the disc, and puts a point off the smaller disc on its limb', () => {
    const view: GlobeView = { lon: 20, lat: 10, zoom: 2, width: 800, height: 600 };
    // Radius at zoom 2 about 163 px: (790, 300) is in space.
    expect(zoomGlobeAbout(view, 3, 790, 300)).toEqual({ ...view, zoom: 3 });
    // A point 140 px east of the centre on a globe zoomed out to a radius of 115 px: it stays in sight, east of the centre, at the limb.
    const under = globeUnproject(view, 540, 300)!;
    const out = zoomGlobeAbout(view, 1.5, 540, 300);
    const at = globeProject(out, under.lon, under.lat);
    expect(at.z).toBeGreaterThanOrEqual(-1e-9);
    expect(at.z).toBeLessThan(0.2);
    expect(at.x).toBeGreaterThan(400 + 0.9 * globeRadius(1.5));
  });
});
