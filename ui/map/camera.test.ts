import { describe, expect, it } from 'vitest';
import { lonLatToScreen, screenToLonLat } from '../../common/map.ts';
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
  return { map, camera, pointer, clicks, advance: (ms: number) => { now += ms; }, runFrames };
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
});
