import { describe, expect, it } from 'vitest';
import { lonLatToScreen, screenToLonLat, type View } from '../../common/map.ts';
import { centreShowing, createPointMarks } from './pointMark.ts';

const view: View = { lat: 50, lon: 10, zoom: 5, width: 1280, height: 720 };
const bottom = { left: 0, top: 400, width: 1280, height: 320 };
const right = { left: 870, top: 56, width: 400, height: 544 };
const phone = { left: 0, top: 0, width: 1280, height: 720 };

describe('bringing a point window\'s place beside the window', () => {
  it('leaves the map where the place shows in the part the window leaves visible', () => {
    expect(centreShowing(view, { lat: 50, lon: 10 }, right)).toBeNull();
    // Above a bottom window: 200 px above the centre is well inside 0..400.
    const { lat, lon } = screenToLonLat(view, 640, 160);
    expect(centreShowing(view, { lat, lon }, bottom)).toBeNull();
  });

  it('moves the map so that a place under a bottom window, or off the map, stands in the middle of what is visible', () => {
    for (const place of [{ lat: 50, lon: 10 }, { lat: 46, lon: 14 }, { lat: -33.9, lon: 151.2 }]) {
      const centre = centreShowing(view, place, bottom)!;
      expect(centre).not.toBeNull();
      const at = lonLatToScreen({ ...view, ...centre }, place.lon, place.lat);
      expect(at.x).toBeCloseTo(640, 0);
      expect(at.y).toBeCloseTo(200, 0);
    }
  });

  it('beside a right window the place goes to the middle of the map left of it', () => {
    const place = { lat: 50, lon: 30 };
    const centre = centreShowing(view, place, right)!;
    const at = lonLatToScreen({ ...view, ...centre }, place.lon, place.lat);
    expect(at.x).toBeCloseTo(435, 0);
    expect(at.y).toBeCloseTo(360, 0);
    expect(centre.lon).toBeGreaterThanOrEqual(-180);
    expect(centre.lon).toBeLessThan(180);
  });

  it('a window over the whole map (a phone\'s) moves nothing', () => {
    expect(centreShowing(view, { lat: -33.9, lon: 151.2 }, phone)).toBeNull();
  });
});

describe('the places marked', () => {
  it('shows the one opened last; each window takes off only its own', () => {
    const marks = createPointMarks();
    expect(marks.shown.value).toBeNull();
    const offDetail = marks.add({ lat: 50.087, lon: 14.421 });
    const offSounding = marks.add({ lat: 48.2, lon: 16.37 });
    expect(marks.shown.value).toEqual({ lat: 48.2, lon: 16.37 });
    offDetail();
    expect(marks.shown.value).toEqual({ lat: 48.2, lon: 16.37 });
    const offAgain = marks.add({ lat: 50.087, lon: 14.421 });
    offSounding();
    expect(marks.shown.value).toEqual({ lat: 50.087, lon: 14.421 });
    offAgain();
    offAgain();
    expect(marks.shown.value).toBeNull();
  });
});
