/**
 * The warnings control (SPEC §3 overlay capAlerts): a button in the map's right column that draws
 * the active weather warnings over whatever overlay shows, and their legend of severity colours
 * while they show. With the capAlerts overlay chosen the warnings show anyway and the map's legend
 * is theirs (Legend.tsx), so the control steps aside.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS } from '../../common/capAlerts.ts';
import { capAlertsDrawn, capAlertsShown } from '../map/capAlerts.ts';
import type { AppState } from '../state/appState.ts';

/** The severity colours of the warnings, most severe first (Unknown left out: no colour to learn). */
export function CapAlertsLegend({ testId = 'cap-alerts-legend' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <ul className="cap-alerts-legend" data-testid={testId} style={{ listStyle: 'none', margin: 0, padding: '4px 6px', background: 'rgba(0,0,0,0.55)', borderRadius: 4, fontSize: 12 }}>
      {CAP_SEVERITIES.slice(0, 4).map((severity) => (
        <li key={severity} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span aria-hidden="true" style={{ width: 12, height: 12, display: 'inline-block', background: `rgb(${CAP_SEVERITY_COLOURS[severity].join(',')})` }} />
          {t(`capAlerts.${severity}`)}
        </li>
      ))}
    </ul>
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
