/**
 * The user's unit per metric (SPEC §3 "Metric": saved as metric_{ident}); defaults by country
 * (SPEC §9: imperial for us, my, lr). Persistence to idb arrives with the settings store.
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';
import { METRICS, defaultUnit } from '../../common/catalogue/metrics.ts';
import { unitSystemFor } from '../../common/locale.ts';

export interface UnitsModel {
  readonly units: ReadonlySignal<Readonly<Record<string, string>>>;
  unitOf(metric: string): string;
  /** Refuses a unit the metric does not allow. */
  setUnit(metric: string, unit: string): boolean;
  /** The next allowed unit (the legend cycles through them on click). */
  cycle(metric: string): void;
}

/** Country from a BCP 47 language tag such as en-US. */
export function countryOf(languageTag: string | undefined): string {
  const m = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/.exec(languageTag ?? '');
  return m ? m[1].toLowerCase() : '';
}

export function createUnitsModel(country: string): UnitsModel {
  const system = unitSystemFor(country);
  const units = signal<Record<string, string>>(
    Object.fromEntries(Object.values(METRICS).map((m) => [m.ident, defaultUnit(m, system)])),
  );
  const setUnit = (metric: string, unit: string) => {
    if (!METRICS[metric]?.units.includes(unit)) return false;
    units.value = { ...units.value, [metric]: unit };
    return true;
  };
  return {
    units,
    unitOf: (metric) => units.value[metric] ?? METRICS[metric]?.units[0] ?? '',
    setUnit,
    cycle(metric) {
      const m = METRICS[metric];
      if (!m) return;
      const i = m.units.indexOf(units.value[metric]);
      setUnit(metric, m.units[(i + 1) % m.units.length]);
    },
  };
}
