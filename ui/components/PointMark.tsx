/** The mark of the place a point window is open for (ui/state/pointMark.ts), following the map. */

import { useEffect, useRef } from 'react';
import { effect } from '@preact/signals-core';
import { useSignals } from '@preact/signals-react/runtime';
import { globeProject } from '../../common/globe.ts';
import { lonLatToScreen } from '../../common/map.ts';
import type { AppState } from '../state/appState.ts';

/** The picker stands on the same place when closer than this (degrees): its own pin marks it. */
const SAME_PLACE_DEG = 1e-3;

export function PointMark({ app }: { app: AppState }) {
  useSignals();
  const ref = useRef<HTMLDivElement>(null);
  const point = app.pointMark.value;
  const picker = app.picker.position.value;
  // Follows the map without re-rendering, as the picker does.
  useEffect(() => effect(() => {
    const view = app.map.view.value;
    const p = app.pointMark.value;
    if (!p || !ref.current) return;
    const at = view.globe ? globeProject(view, p.lon, p.lat) : { ...lonLatToScreen(view, p.lon, p.lat), z: 1 };
    ref.current.style.visibility = at.z < 0 ? 'hidden' : '';
    ref.current.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px)`;
  }), [app, point]);
  if (!point) return null;
  if (picker && Math.abs(picker.lat - point.lat) < SAME_PLACE_DEG && Math.abs(picker.lon - point.lon) < SAME_PLACE_DEG) return null;
  return <div ref={ref} className="point-mark" data-testid="point-mark" data-lat={point.lat} data-lon={point.lon} aria-hidden="true" />;
}
