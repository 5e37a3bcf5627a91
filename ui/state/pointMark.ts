/**
 * The place a window about one point is open for (the point forecast, the sounding, the model
 * comparison): marked on the map (ui/components/PointMark.tsx), and brought into the part of the
 * map the window leaves visible when it opens there from an address, a search or a favourite.
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { lonLatToScreen, screenToLonLat, type View } from '../../common/map.ts';
import { wrapLon } from '../../common/tiling.ts';

export interface LonLat {
  lat: number;
  lon: number;
}

/** The places marked, one per open point window; the one opened last shows. */
export interface PointMarks {
  readonly shown: ReadonlySignal<LonLat | null>;
  /** Marks `place` until the returned function is called (the window closes or moves on). */
  add(place: LonLat): () => void;
}

export function createPointMarks(): PointMarks {
  const marks = signal<readonly LonLat[]>([]);
  return {
    shown: computed(() => marks.value[marks.value.length - 1] ?? null),
    add(place) {
      const own = { lat: place.lat, lon: place.lon };
      marks.value = [...marks.value, own];
      return () => {
        marks.value = marks.value.filter((m) => m !== own);
      };
    },
  };
}

/** CSS px kept between the point and the edges of the visible map (the top bar, the window). */
export const POINT_MARK_MARGIN_PX = 64;

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The map centre that puts `point` in the middle of the map's visible part beside `pane` (a window
 * along the bottom, or along the right), or null where the point already shows there or the
 * window covers most of the map (a phone's full-screen window). `view` in CSS px from the map's
 * top-left, as `pane`.
 */
export function centreShowing(view: View, point: LonLat, pane: Rect): LonLat | null {
  const visible = { left: 0, top: 0, right: view.width, bottom: view.height };
  if (pane.top >= view.height * 0.3 && pane.width >= view.width * 0.5) visible.bottom = pane.top;
  else if (pane.left >= view.width * 0.3 && pane.height >= view.height * 0.5) visible.right = pane.left;
  else return null;
  const margin = Math.min(POINT_MARK_MARGIN_PX, (visible.bottom - visible.top) / 4, (visible.right - visible.left) / 4);
  const at = lonLatToScreen(view, point.lon, point.lat);
  const inside = at.x >= visible.left + margin && at.x <= visible.right - margin && at.y >= visible.top + margin && at.y <= visible.bottom - margin;
  if (inside) return null;
  const target = { x: (visible.left + visible.right) / 2, y: (visible.top + visible.bottom) / 2 };
  const centre = screenToLonLat(view, view.width / 2 + at.x - target.x, view.height / 2 + at.y - target.y);
  return { lat: centre.lat, lon: wrapLon(centre.lon) };
}
