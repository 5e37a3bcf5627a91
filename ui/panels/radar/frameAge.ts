/** What the radar and satellite timelines share: the frame's age in words, and a clock with the radsat bundle. */

import { useEffect, useState } from 'react';
import { MINUTE_MS } from '../../../common/time.ts';
import { loadBundle } from '../../i18n.ts';

/** Age of a frame in whole minutes, hours past 90 minutes; a frame ahead of now (a nowcast) in minutes to come. */
export function ageParts(ms: number): { key: 'minutesAgo' | 'hoursAgo' | 'inMinutes'; count: number } {
  if (ms < 0) return { key: 'inMinutes', count: Math.round(-ms / MINUTE_MS) };
  const minutes = Math.round(ms / MINUTE_MS);
  return minutes > 90 ? { key: 'hoursAgo', count: Math.round(minutes / 60) } : { key: 'minutesAgo', count: minutes };
}

/** Loads the radsat bundle (the component renders again once it is in) and returns now, ms, updated every 30 s. */
export function useFrameClock(): number {
  const [, setBundle] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    void loadBundle('radsat').then(() => setBundle(true));
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);
  return now;
}
