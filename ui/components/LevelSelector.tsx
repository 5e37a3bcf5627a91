/**
 * The level selector (SPEC §3 "Levels"): the levels the shown overlay has in the shown model,
 * surface at the bottom, as on a sounding. Hidden when there is only one.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { LEVELS } from '../../common/catalogue/levels.ts';
import type { AppState } from '../state/appState.ts';

function levelLabel(ident: string, t: (key: string, values?: Record<string, unknown>) => string): string {
  const level = LEVELS.find((l) => l.ident === ident);
  if (level?.hPa !== undefined) return t('level.hPa', { hPa: level.hPa });
  if (level?.heightM !== undefined) return t('level.height', { m: level.heightM });
  return t('level.surface');
}

export function LevelSelector({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const levels = app.layer.levels.value;
  const current = app.layer.level.value;
  if (levels.length < 2) return null;
  // Highest (lowest pressure) at the top; 100 m just above the surface.
  const ordered = [...levels].sort((a, b) => rank(b) - rank(a));
  return (
    <div className="level-selector" role="radiogroup" aria-label={t('level.title')} data-testid="level-selector">
      {ordered.map((ident) => (
        <button key={ident} type="button" role="radio" aria-checked={ident === current} data-level={ident}
          className={ident === current ? 'level active' : 'level'} onClick={() => app.layer.setLevel(ident)}>
          {levelLabel(ident, t)}
        </button>
      ))}
    </div>
  );
}

function rank(ident: string): number {
  const level = LEVELS.find((l) => l.ident === ident);
  if (level?.hPa !== undefined) return 2000 - level.hPa;
  if (level?.heightM !== undefined) return 1;
  return 0;
}
