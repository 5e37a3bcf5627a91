/**
 * The warnings control (SPEC §3 overlay capAlerts): a button in the map's right column that draws
 * the active weather warnings over the map, and their legend of severity colours while they show.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS } from '../../common/capAlerts.ts';
import { capAlertsDrawn, capAlertsShown } from '../map/capAlerts.ts';

export function CapAlertsControl() {
  useSignals();
  const { t } = useTranslation();
  const shown = capAlertsShown.value;
  return (
    <div className="isolines-control cap-alerts-control" data-testid="cap-alerts-control" data-areas={capAlertsDrawn.value ?? ''}>
      <button type="button" className={shown ? 'level active' : 'level'} aria-pressed={shown} data-testid="cap-alerts-toggle"
        onClick={() => { capAlertsShown.value = !shown; }}>
        {t('overlay.capAlerts')}
      </button>
      {shown && (
        <ul className="cap-alerts-legend" data-testid="cap-alerts-legend" style={{ listStyle: 'none', margin: 0, padding: '4px 6px', background: 'rgba(0,0,0,0.55)', borderRadius: 4, fontSize: 12 }}>
          {CAP_SEVERITIES.slice(0, 4).map((severity) => (
            <li key={severity} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <span aria-hidden="true" style={{ width: 12, height: 12, display: 'inline-block', background: `rgb(${CAP_SEVERITY_COLOURS[severity].join(',')})` }} />
              {t(`capAlerts.${severity}`)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
