import { describe, expect, it } from 'vitest';
import { lonLatToScreen, screenToLonLat } from '../../common/map.ts';
import { globeProject, globeRadius, globeUnproject, GLOBE_MAX_ZOOM, globeZoomToFit } from '../../common/globe.ts';
import { createMapModel } from '../state/mapModel.ts';
import { Camera } from './camera.ts';

/** Just enough of an element for the camera: listeners, a box and a style. */
function fakeElement() {
  const listeners = new Map<string, (e: unknown) => void>();
  return {
    listeners,
    style: {} as Record<string, string>,
    addEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
    getBoundingClientRect: () => ({ left: 0, top: 0, width: 800, height: 600 }),
    setPointerCapture: () => {},
  };
}

function setup() {
  const map = createMapModel({ lat: 45, lon: 10, zoom: 5 });
  map.setSize(800, 600, 1);
  const element = fakeElement();
  let now = 0;
  const frames: ((t: number) => void)[] = [];
  const clicks: [number, number][] = [];
  const camera = new Camera(element as unknown as HTMLElement, map, {
    now: () => now,
    requestFrame: (cb) => frames.push(cb),
    cancelFrame: () => {},
    onClick: (x, y) => clicks.push([x, y]),
  });
  const pointer = (type: string, x: number, y: number, pointerId = 1) =>
    element.listeners.get(type)!({ type, clientX: x, clientY: y, pointerId, button: 0, pointerType: 'touch' });
  const runFrames = (ms: number) => {
    for (let i = 0; i < 200 && frames.length; i++) {
      now += ms;
      frames.shift()!(now);
    }
  };
  return { map, camera, element, pointer, clicks, frames, advance: (ms: number) => { now += ms; }, runFrames };
}

describe('camera', () => {
  it('a drag keeps the grabbed point under the pointer', () => {
    const { map, pointer, advance } = setup();
    const grabbed = screenToLonLat(map.view.value, 300, 200);
    pointer('pointerdown', 300, 200);
    advance(200);
    pointer('pointermove', 350, 260);
    advance(200);
    pointer('pointermove', 420, 330);
    advance(200);
    pointer('pointerup', 420, 330);
    const at = lonLatToScreen(map.view.value, grabbed.lon, grabbed.lat);
    expect(at.x).toBeCloseTo(420, 6);
    expect(at.y).toBeCloseTo(330, 6);
  });

  it('a short press is a click, not a drag', () => {
    const { pointer, clicks, map, advance } = setup();
    const before = map.view.value;
    pointer('pointerdown', 100, 100);
    advance(80);
    pointer('pointermove', 102, 101);
    pointer('pointerup', 102, 101);
    expect(clicks).toEqual([[100, 100]]);
    expect(map.view.value.lon).toBe(before.lon);
  });

  it('zooms around a point and keeps it in place', () => {
    const { map, camera } = setup();
    const p = screenToLonLat(map.view.value, 600, 150);
    camera.zoomAround(7.5, 600, 150);
    const at = lonLatToScreen(map.view.value, p.lon, p.lat);
    expect(map.view.value.zoom).toBe(7.5);
    expect(at.x).toBeCloseTo(600, 6);
    expect(at.y).toBeCloseTo(150, 6);
  });

  it('eases key zoom to whole levels within 3..16', () => {
    const { map, camera, runFrames } = setup();
    camera.zoomBy(1);
    runFrames(16);
    expect(map.view.value.zoom).toBe(6);
    for (let i = 0; i < 20; i++) camera.zoomBy(1);
    runFrames(16);
    expect(map.view.value.zoom).toBe(16);
  });

  it('a fast release keeps moving and slows down (inertia)', () => {
    const { map, pointer, advance, runFrames } = setup();
    pointer('pointerdown', 600, 300);
    for (let i = 1; i <= 5; i++) {
      advance(10);
      pointer('pointermove', 600 - 20 * i, 300);
    }
    pointer('pointerup', 500, 300);
    const released = map.view.value.lon;
    runFrames(16);
    expect(map.view.value.lon).toBeGreaterThan(released + 1);
  });

  describe('on the globe', () => {
    it('opens the whole globe and goes back to the flat map at the centre it turned to', () => {
      const { map } = setup();
      map.setGlobe(true);
      expect(map.view.value.globe).toBe(true);
      expect(map.view.value.zoom).toBeCloseTo(globeZoomToFit(800, 600), 12);
      map.moveTo({ lon: 120, lat: -20 });
      map.setGlobe(false);
      expect(map.view.value).toMatchObject({ globe: false, lon: 120, lat: -20, zoom: 3 });
    });

    it('turns the globe under a drag: on the equator the point under the centre follows the pointer', () => {
      const { map, pointer, advance } = setup();
      map.setGlobe(true);
      map.moveTo({ lat: 0 });
      const { lon, lat } = map.view.value;
      pointer('pointerdown', 400, 300);
      advance(200);
      pointer('pointermove', 450, 300);
      advance(200);
      pointer('pointerup', 450, 300);
      // Turned by 50 px / R radians, the point lies R sin(50 / R) from the centre: within half a pixel here.
      const at = globeProject(map.view.value, lon, lat);
      expect(Math.abs(at.x - 450)).toBeLessThan(0.5);
      expect(at.y).toBeCloseTo(300, 6);
    });

    it('keeps turning after a fling, slower and slower, then stops (inertia)', () => {
      const { map, pointer, advance, frames } = setup();
      map.setGlobe(true);
      pointer('pointerdown', 600, 300);
      for (let i = 1; i <= 5; i++) {
        advance(10);
        pointer('pointermove', 600 - 20 * i, 300);
      }
      pointer('pointerup', 500, 300);
      const released = map.view.value.lon;
      const r = globeRadius(map.view.value.zoom);
      // Each inertia frame turns the globe less than the one before, until it stops.
      const steps: number[] = [];
      let last = released;
      for (let i = 0; i < 200 && frames.length; i++) {
        advance(16);
        frames.shift()!(0);
        // Longitude wraps at the antimeridian: the step is the short way round.
        steps.push(((map.view.value.lon - last + 540) % 360) - 180);
        last = map.view.value.lon;
      }
      expect(frames.length).toBe(0);
      expect(steps.length).toBeGreaterThan(5);
      for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeLessThan(steps[i - 1]);
      // Eastwards (the drag went west) and well past the release: 2 px/ms decaying over 325 ms.
      expect(steps[steps.length - 1]).toBeGreaterThan(0);
      expect(steps.reduce((a, b) => a + b, 0) * (Math.PI / 180) * r).toBeGreaterThan(200);
    });

    it('zooms the globe about the pointer: the point under a wheel stays in place (a pinch zooms about its midpoint the same way)', () => {
      const { map, element, runFrames } = setup();
      map.setGlobe(true);
      const wheel = (deltaY: number, x: number, y: number) => element.listeners.get('wheel')!({ deltaY, deltaMode: 0, clientX: x, clientY: y, preventDefault: () => {} });
      const under = globeUnproject(map.view.value, 520, 240)!;
      const zoom0 = map.view.value.zoom;
      wheel(-150, 520, 240);
      runFrames(16);
      expect(map.view.value.zoom).toBeCloseTo(zoom0 + 0.5, 6);
      const at = globeProject(map.view.value, under.lon, under.lat);
      expect(at.x).toBeCloseTo(520, 6);
      expect(at.y).toBeCloseTo(240, 6);
    });

    it('zooms the globe within its own range', () => {
      const { map, camera, runFrames } = setup();
      map.setGlobe(true);
      for (let i = 0; i < 20; i++) camera.zoomBy(1);
      runFrames(16);
      expect(map.view.value.zoom).toBe(GLOBE_MAX_ZOOM);
    });
  });
});
