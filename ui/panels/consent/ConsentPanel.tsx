/**
 * The consent window (SPEC §2 windows without a route: consent; §4 "Consent"): asks once whether
 * analytics may run, and stores the answer as explicit consent of version 2023/11 (SPEC §9). It
 * never closes by the pane rules; only an answer closes it.
 */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelProps } from '../registry.ts';
import { startAppServices } from '../../services/appServices.ts';
import './consent.css';

export default function ConsentPanel({ app, close }: PanelProps) {
  const { t } = useTranslation('consent');
  const [details, setDetails] = useState(false);
  const decide = (analytics: boolean) => {
    startAppServices(app).consent.decide(analytics);
    close();
  };
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
