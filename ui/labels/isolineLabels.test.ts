import { describe, expect, it } from 'vitest';
import { globeProject } from '../../common/globe.ts';
import { lonLatToScreen } from '../../common/map.ts';
import { projectedAngle, rotatedBox } from './isolineLabels.ts';

describe('isoline labels', () => {
  it('box a rotated label by its extent on screen', () => {
    expect(rotatedBox(100, 50, 40, 10, 0)).toEqual({ left: 80, top: 45, right: 120, bottom: 55 });
    const turned = rotatedBox(100, 50, 40, 10, 90);
    expect(turned.right - turned.left).toBeCloseTo(10, 9);
    expect(turned.bottom - turned.top).toBeCloseTo(40, 9);
  });

  it('keep the flat map\'s angle on the flat map, and turn with the globe\'s projection', () => {
    const flat = { lon: 10, lat: 50, zoom: 4, width: 800, height: 600 };
    const label = { lon: 10, lat: 50, angle: 30 };
    expect(projectedAngle(label, (lon, lat) => lonLatToScreen(flat, lon, lat))).toBeCloseTo(30, 3);
    // On a globe centred elsewhere, a parallel (angle 0) at 60° N east of the centre slopes on screen.
    const globe = { lon: -20, lat: 30, zoom: 2, width: 800, height: 600, globe: true };
    const screen = (lon: number, lat: number) => {
      const p = globeProject(globe, lon, lat);
      return p.z > 0 ? { x: p.x, y: p.y } : null;
    };
    const angle = projectedAngle({ lon: 20, lat: 60, angle: 0 }, screen);
    expect(Math.abs(angle)).toBeGreaterThan(10);
    expect(Math.abs(angle)).toBeLessThanOrEqual(90);
    // At the globe's centre a parallel stays level.
    expect(Math.abs(projectedAngle({ lon: -20, lat: 30, angle: 0 }, screen))).toBeLessThan(0.05);
  });
});
