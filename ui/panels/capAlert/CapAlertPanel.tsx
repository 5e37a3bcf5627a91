/**
 * The alert-detail window (SPEC §2 /cap-alert/{lat}/{lon}): every weather warning at the place
 * (GET /capalerts/{lat}/{lon}, common/api/capAlerts.ts), most severe first: event, headline,
 * severity, onset and expiry in the place's own time zone, description, instruction, who issued it
 * and the provider's credit line. Texts come in the user's language when the alert carries it
 * (ECCC: English and French), else in the alert's own language (the server chooses).
 */

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAP_ALERTS_ANSWER, capAlertsPath, type CapAlertsAnswer } from '../../../common/api/capAlerts.ts';
import { checkAnswer } from '../../../common/api/schema.ts';
import { timeZoneAt } from '../detail/placeTime.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';

export default function CapAlertPanel({ params, close }: PanelProps) {
  const { t, i18n } = useTranslation('livealerts');
  const { t: tc } = useTranslation();
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  const lang = i18n.language;
  const [answer, setAnswer] = useState<CapAlertsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    setAnswer(null);
    setError(null);
    fetch(capAlertsPath(lat, lon, { lang, source: 'detail' }), { signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        setAnswer(checkAnswer(CAP_ALERTS_ANSWER, await response.json(), 'capalerts'));
      })
      .catch((e: unknown) => { if (!abort.signal.aborted) setError((e as Error).message); });
    return () => abort.abort();
  }, [lat, lon, lang]);
  const timeZone = timeZoneAt(lat, lon);
  const format = new Intl.DateTimeFormat(lang, { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  return (
    <PanelFrame title={t('title')} close={close} className="cap-alert-panel">
      <div data-testid="cap-alert-panel" style={{ padding: '8px 12px', overflowY: 'auto', maxHeight: '60vh' }}>
        {error && <p role="alert">{t('error', { message: error })}</p>}
        {!answer && !error && <p>{tc('app.loading')}</p>}
        {answer && answer.alerts.length === 0 && <p data-testid="cap-alert-none">{t('none')}</p>}
        {answer?.alerts.map((alert) => (
          <article key={alert.id} data-testid="cap-alert" data-severity={alert.severity} lang={alert.language}
            style={{ borderLeft: `6px solid ${alert.colour}`, paddingLeft: 10, marginBottom: 16 }}>
            <h3 style={{ margin: '0 0 4px', textTransform: 'capitalize' }}>{alert.event}</h3>
            <p style={{ margin: 0, fontWeight: 600 }} data-testid="cap-alert-headline">{alert.headline}</p>
            <p style={{ margin: '4px 0' }}>
              <span lang={lang}>{tc(`capAlerts.${alert.severity}`)}</span> · {alert.areaDesc}
            </p>
            <p style={{ margin: '4px 0' }} lang={lang}>
              {t('from')} {format.format(alert.onset)} — {t('until')} {format.format(alert.expires)}
            </p>
            {alert.description && <p style={{ whiteSpace: 'pre-line' }}>{alert.description}</p>}
            {alert.instruction && (
              <>
                <h4 lang={lang} style={{ margin: '8px 0 2px' }}>{t('instruction')}</h4>
                <p style={{ whiteSpace: 'pre-line' }}>{alert.instruction}</p>
              </>
            )}
            <p style={{ fontSize: 12, opacity: 0.8 }}>
              <span lang={lang}>{t('issuedBy')}</span> {alert.senderName || alert.sender}
              {alert.web && <> · <a href={alert.web} target="_blank" rel="noreferrer">{alert.web}</a></>}
            </p>
            <p style={{ fontSize: 11, opacity: 0.7 }}>{alert.attribution}</p>
          </article>
        ))}
      </div>
    </PanelFrame>
  );
}
