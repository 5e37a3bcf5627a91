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
  const point = app.pointMarks.shown.value;
  const picker = app.picker.position.value;
  useFollowMap(app, ref, app.pointMarks.shown);
  if (!point) return null;
  // Kept (with its place on the map) while the picker's pin covers it, so that it shows again where it is.
  const covered = !!picker && Math.abs(picker.lat - point.lat) < SAME_PLACE_DEG && Math.abs(picker.lon - point.lon) < SAME_PLACE_DEG;
  return <div ref={ref} className={covered ? 'point-mark covered' : 'point-mark'} data-testid="point-mark" data-lat={point.lat} data-lon={point.lon} aria-hidden="true" />;
}
