/**
 * The consent window (SPEC §2 windows without a route: consent; §4 "Consent"): asks once whether
 * analytics may run, and stores the answer as explicit consent of version 2023/11 (SPEC §9). It
 * never closes by the pane rules; only an answer closes it.
 */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelProps } from '../registry.ts';
import { useServices } from '../../services/ServicesContext.tsx';
import './consent.css';

export default function ConsentPanel({ close }: PanelProps) {
  const { t } = useTranslation('consent');
  const [details, setDetails] = useState(false);
  // The consent model (services/appServices.ts) opened this window: its services are in.
  const { appServices } = useServices();
  const decide = (analytics: boolean) => void appServices().then(({ consent }) => {
    consent.decide(analytics);
    close();
  });
  return (
    <div className="consent" role="dialog" aria-labelledby="consent-title" data-testid="consent">
      <h2 id="consent-title">{t('title')}</h2>
      <p>{t('text', { name: t('translation:app.name') })}</p>
      <button type="button" className="consent-details-toggle" aria-expanded={details} onClick={() => setDetails(!details)}>
        {t('details')}
      </button>
      {details && <p className="consent-details">{t('detailsText')}</p>}
      <div className="consent-actions">
        <button type="button" className="consent-reject" onClick={() => decide(false)}>{t('reject')}</button>
        <button type="button" className="consent-accept" onClick={() => decide(true)}>{t('accept')}</button>
      </div>
      <p className="consent-change">{t('change')}</p>
    </div>
  );
}
