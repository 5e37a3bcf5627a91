/** Pieces the station window and the detail window's nearest stations share: the user's units, the wind arrow. */

import './station.css';
import { useSignals } from '@preact/signals-react/runtime';
import { convert, formatValue, METRICS } from '../../../common/catalogue/metrics.ts';
import type { AppState } from '../../state/appState.ts';

export function useStationUnits(app: AppState) {
  useSignals();
  const unit = (metric: string) => app.units.unitOf(metric);
  const format = (metric: string, value: number | null) => (value === null ? '—' : formatValue(METRICS[metric], unit(metric), value));
  return {
    unit,
    format,
    /** The number in the user's unit, for charts. */
    value: (metric: string, base: number) => convert(METRICS[metric], unit(metric), base),
    hour12: app.units.hour12.value,
  };
}

/** An arrow pointing where the wind blows to (it comes from `from` degrees). */
export function WindArrow({ from, size = 14 }: { from: number | null; size?: number }) {
  if (from === null) return null;
  return (
    <svg width={size} height={size} viewBox="-8 -8 16 16" aria-hidden="true" className="station-arrow">
      <path d="M0 -7 L4 4 L0 2 L-4 4 Z" transform={`rotate(${(from + 180) % 360})`} fill="currentColor" />
    </svg>
  );
}

