/** Keeps an element on a place of the map as the map moves, without re-rendering (the picker, a point window's mark). */

import { useEffect, type RefObject } from 'react';
import { effect, type ReadonlySignal } from '@preact/signals-core';
import { globeProject } from '../../common/globe.ts';
import { lonLatToScreen } from '../../common/map.ts';
import type { AppState } from '../state/appState.ts';

export function useFollowMap(app: AppState, ref: RefObject<HTMLElement | null>, place: ReadonlySignal<{ lat: number; lon: number } | null>): void {
  const shown = place.value;
  useEffect(() => effect(() => {
    const view = app.map.view.value;
    const p = place.value;
    if (!p || !ref.current) return;
    // On the globe (SPEC §2 window "globe") by its projection; turned to the far side, the element hides.
    const at = view.globe ? globeProject(view, p.lon, p.lat) : { ...lonLatToScreen(view, p.lon, p.lat), z: 1 };
    ref.current.style.visibility = at.z < 0 ? 'hidden' : '';
    ref.current.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px)`;
  }), [app, ref, place, shown]);
}
