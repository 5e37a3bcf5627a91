/**
 * The isolines control (SPEC §3 isolinesOn / isolinesType): one button in the map's right column
 * that says which isolines show; it opens the choice of the types the shown product's model
 * definition lists, and Off. Hidden for products that list none.
 */

import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../state/appState.ts';

export function IsolinesControl({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const offered = app.isolines.offered.value;
  const shown = app.isolines.shown.value;
  if (!offered.length) return null;
  return (
    <div className="isolines-control" data-testid="isolines-control" data-shown={shown ?? 'off'}>
      <button type="button" className={shown ? 'level active' : 'level'} aria-expanded={open} data-testid="isolines-toggle"
        onClick={() => setOpen(!open)}>
        {t('isolines.title')}{shown ? `: ${t(`isolines.${shown}`)}` : ''}
      </button>
      {open && (
        <div role="radiogroup" aria-label={t('isolines.title')} className="isolines-choices">
          <button type="button" role="radio" aria-checked={!shown} data-isolines="off" className={!shown ? 'level active' : 'level'}
            onClick={() => { app.isolines.setOn(false); setOpen(false); }}>
            {t('isolines.off')}
          </button>
          {offered.map((type) => (
            <button key={type} type="button" role="radio" aria-checked={type === shown} data-isolines={type}
              className={type === shown ? 'level active' : 'level'} onClick={() => { app.isolines.choose(type); setOpen(false); }}>
              {t(`isolines.${type}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
