/**
 * The warnings control (SPEC §3 overlay capAlerts): a button in the map's right column that draws
 * the active weather warnings over whatever overlay shows, and their legend of severity colours
 * while they show. With the capAlerts overlay chosen the warnings show anyway and the map's legend
 * is theirs (Legend.tsx), so the control steps aside.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS } from '../../common/capAlerts.ts';
import { CAP_ALERTS_SETTING, capAlertsDrawn, capAlertsPublished, capAlertsShown } from '../map/capAlerts.ts';
import type { AppState } from '../state/appState.ts';

const PANEL = { background: 'rgba(0,0,0,0.55)', borderRadius: 4, fontSize: 12 } as const;

/**
 * The severity colours of the warnings, most severe first (Unknown left out: no colour to learn);
 * with them, "no warnings in force" when none is drawn, or, when the server has published none at
 * all (no source has delivered: offline, or ISOBAR_OBS leaves them out), the setting that chooses
 * them. `row`: the colours in one line with the note before them (the map's legend, above the
 * timeline); else a column with the note under it (the control in the map's right column).
 */
export function CapAlertsLegend({ testId = 'cap-alerts-legend', row = false }: { testId?: string; row?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const drawn = capAlertsDrawn.value;
  const note = !capAlertsPublished.value
    ? <small className="cap-alerts-note" role="status" data-testid="cap-alerts-unpublished">{t('capAlerts.unpublished', { setting: CAP_ALERTS_SETTING })}</small>
    : drawn === 0 ? <small className="cap-alerts-note" data-testid="cap-alerts-none">{t('capAlerts.none')}</small> : null;
  return (
    <div style={{ display: 'flex', flexDirection: row ? 'row' : 'column', alignItems: row ? 'center' : 'stretch', gap: 4 }}>
      {note && <div style={{ ...PANEL, order: row ? 0 : 1, maxWidth: row ? 420 : 200, padding: '4px 6px' }}>{note}</div>}
      <ul className="cap-alerts-legend" data-testid={testId}
        style={{ ...PANEL, display: 'flex', flexDirection: row ? 'row' : 'column', gap: row ? 10 : 0, listStyle: 'none', margin: 0, padding: '4px 6px' }}>
        {CAP_SEVERITIES.slice(0, 4).map((severity) => (
          <li key={severity} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden="true" style={{ width: 12, height: 12, display: 'inline-block', background: `rgb(${CAP_SEVERITY_COLOURS[severity].join(',')})` }} />
            {t(`capAlerts.${severity}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CapAlertsControl({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const shown = capAlertsShown.value;
  if (app.layer.overlay.value === 'capAlerts') return null;
  return (
    <div className="isolines-control cap-alerts-control" data-testid="cap-alerts-control" data-areas={capAlertsDrawn.value ?? ''}>
      <button type="button" className={shown ? 'level active' : 'level'} aria-pressed={shown} data-testid="cap-alerts-toggle"
        onClick={() => { capAlertsShown.value = !shown; }}>
        {t('overlay.capAlerts')}
      </button>
      {shown && <CapAlertsLegend />}
    </div>
  );
}
