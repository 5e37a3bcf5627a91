/**
 * The user's unit per metric and clock (SPEC §3 "Metric": saved as metric_{ident}; settings
 * defaultUnits and hourFormat; SPEC §9 defaults by country: imperial for us, my, lr; the 12-hour
 * clock for us, uk, ph, ...). A metric without a saved unit follows defaultUnits, and when that is
 * unset, the country's system (the default unit of a metric is its first, the imperial default its
 * second: common/catalogue/metrics.ts defaultUnit).
 */

import { computed, type ReadonlySignal } from '@preact/signals-core';
import { METRICS, defaultUnit } from '../../common/catalogue/metrics.ts';
import { hourFormatFor, unitSystemFor } from '../../common/locale.ts';
import type { SettingKey } from '../../common/settings.ts';
import type { SettingsStore } from './settingsStore.ts';

export interface UnitsModel {
  readonly units: ReadonlySignal<Readonly<Record<string, string>>>;
  /** True for the 12-hour clock. */
  readonly hour12: ReadonlySignal<boolean>;
  unitOf(metric: string): string;
  /** Refuses a unit the metric does not allow; saves it as metric_{ident}. */
  setUnit(metric: string, unit: string): boolean;
  /** The next allowed unit (the legend cycles through them on click). */
  cycle(metric: string): void;
  /** Metric or imperial for every metric at once (setting defaultUnits; clears the per-metric choices). */
  setSystem(system: 'metric' | 'imperial'): void;
}

/** Country from a BCP 47 language tag such as en-US. */
export function countryOf(languageTag: string | undefined): string {
  const m = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/.exec(languageTag ?? '');
  return m ? m[1].toLowerCase() : '';
}

export function createUnitsModel(country: string, settings: SettingsStore): UnitsModel {
  const metricKey = (ident: string) => `metric_${ident}` as SettingKey;
  const countryCode = () => (settings.get('country') as string | null) ?? country;
  const units = computed(() => {
    const chosen = settings.get('defaultUnits') as string;
    const system = chosen === 'metric' || chosen === 'imperial' ? chosen : unitSystemFor(countryCode());
    return Object.fromEntries(Object.values(METRICS).map((m) => [m.ident, (settings.get(metricKey(m.ident)) as string | null) ?? defaultUnit(m, system)]));
  });
  const hour12 = computed(() => ((settings.get('hourFormat') as string | null) ?? hourFormatFor(countryCode())) === '12h');
  const setUnit = (metric: string, unit: string) => {
    if (!METRICS[metric]?.units.includes(unit)) return false;
    return settings.set(metricKey(metric), unit as never);
  };
  return {
    units,
    hour12,
    unitOf: (metric) => units.value[metric] ?? METRICS[metric]?.units[0] ?? '',
    setUnit,
    cycle(metric) {
      const m = METRICS[metric];
      if (!m) return;
      const i = m.units.indexOf(units.value[metric]);
      setUnit(metric, m.units[(i + 1) % m.units.length]);
    },
    setSystem(system) {
      settings.set('defaultUnits', system);
      for (const m of Object.values(METRICS)) settings.reset(metricKey(m.ident));
    },
  };
}
