/**
 * The progress bar (SPEC §2, desktop only): a thin bar along the top of the map while a run of a
 * live source arrives, as far along as its steps built (ui/state/liveProgress.ts). Phones do
 * without it (styles: hidden at the mobile width); the model picker says the same in words.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { liveRuns } from '../state/liveProgress.ts';
import { arrivingText } from './ProductPicker.tsx';

export function RunProgressBar() {
  useSignals();
  const { t } = useTranslation();
  const runs = liveRuns.value;
  if (runs.length === 0) return null;
  const done = runs.reduce((sum, r) => sum + r.done, 0);
  const total = runs.reduce((sum, r) => sum + r.total, 0);
  const label = runs.map((r) => arrivingText(t, r)).join(' · ');
  return (
    <div
      className="run-progress" role="progressbar" data-testid="run-progress" aria-label={t('product.arrivingTitle')}
      aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={label} title={label}
    >
      <div className="run-progress-done" style={{ width: `${total > 0 ? (100 * done) / total : 0}%` }} />
    </div>
  );
}
