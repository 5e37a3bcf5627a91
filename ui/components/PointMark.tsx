/** The mark of the place a point window is open for (ui/state/pointMark.ts), following the map. */

import { useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { AppState } from '../state/appState.ts';
import { useFollowMap } from './useFollowMap.ts';

/** The picker stands on the same place when closer than this (degrees): its own pin marks it. */
const SAME_PLACE_DEG = 1e-3;

export function PointMark({ app }: { app: AppState }) {
  useSignals();
  const ref = useRef<HTMLDivElement>(null);
  const point = app.pointMark.value;
  const picker = app.picker.position.value;
  useFollowMap(app, ref, app.pointMark);
  if (!point) return null;
  if (picker && Math.abs(picker.lat - point.lat) < SAME_PLACE_DEG && Math.abs(picker.lon - point.lon) < SAME_PLACE_DEG) return null;
  return <div ref={ref} className="point-mark" data-testid="point-mark" data-lat={point.lat} data-lon={point.lon} aria-hidden="true" />;
}
