/**
 * The map's centre for a window that lists what is near it, once the start position is settled: a
 * window opened by its own address (/webcams) mounts before the map moves from its default view to
 * the user's place (SPEC §2 start-up position: last, home, IP or GPS), and would list what is near
 * the default view. Null until then; read once, as the window opens.
 */

import { useEffect, useState } from 'react';
import { useAppServices } from '../services/ServicesContext.tsx';
import type { AppState } from '../state/appState.ts';

export function useSettledCentre(app: AppState): { lat: number; lon: number } | null {
  const services = useAppServices();
  const [centre, setCentre] = useState<{ lat: number; lon: number } | null>(null);
  useEffect(() => {
    if (!services) return undefined;
    let live = true;
    const read = () => {
      if (!live) return;
      const { lat, lon } = app.map.view.peek();
      setCentre({ lat, lon });
    };
    // A failed start-up position leaves the map where it is: that is the centre then.
    void services.started.then(read, read);
    return () => {
      live = false;
    };
  }, [services, app]);
  return centre;
}
