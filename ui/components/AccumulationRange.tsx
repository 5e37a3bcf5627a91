/**
 * The accumulation range (SPEC §3 acRange: the next 12 h, 24 h, 3, 5 or 10 days), shown while an
 * accumulation overlay is: a choice sets the acRange setting; where the calendar's end cuts the
 * range short (SPEC §4), the range shown is said beside it.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { AC_RANGES } from '../../common/catalogue/accumulations.ts';
import type { AppState } from '../state/appState.ts';

type T = (key: string, values?: Record<string, unknown>) => string;

/** "12 h", "3 d": whole days from 48 h on, hours below. */
export function rangeLabel(hours: number, t: T): string {
  return hours >= 48 && hours % 24 === 0 ? t('accumulation.days', { d: hours / 24 }) : t('accumulation.hours', { h: hours });
}

export function AccumulationRange({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const range = app.accumulation.range.value;
  if (range === null) return null;
  const chosen = app.accumulation.chosen.value;
  return (
    <div className="accumulation-range" role="radiogroup" aria-label={t('accumulation.title')} data-testid="accumulation-range" data-range={range}>
      <span className="accumulation-title">{t('accumulation.title')}</span>
      {AC_RANGES.map((hours) => (
        <button key={hours} type="button" role="radio" aria-checked={hours === chosen} data-hours={hours}
          className={hours === chosen ? 'level active' : 'level'} onClick={() => app.accumulation.choose(hours)}>
          {rangeLabel(hours, t)}
        </button>
      ))}
      {range !== chosen && <span className="accumulation-fitted" data-testid="accumulation-fitted">{t('accumulation.fitted', { range: rangeLabel(range, t) })}</span>}
    </div>
  );
}
