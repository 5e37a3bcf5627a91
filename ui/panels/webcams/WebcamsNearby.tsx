/**
 * "Webcams nearby" in the detail window (SPEC §2 "Detail view: ... webcams nearby"): up to four
 * webcams nearest the place, each opening the webcams window. Its texts are in the webcams bundle,
 * loaded when the strip first shows; with no webcam near, nothing is drawn.
 */

import './webcams.css';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webcam } from '../../../common/api/webcams.ts';
import { loadBundle } from '../../i18n.ts';
import type { AppState } from '../../state/appState.ts';
import { fetchWebcamsNearby } from './webcamsApi.ts';
import { WebcamImage } from './WebcamsPanel.tsx';

const NEARBY_LIMIT = 4;

export function WebcamsNearby({ app, lat, lon }: { app: AppState; lat: number; lon: number }) {
  const { t, i18n } = useTranslation('webcams');
  const [webcams, setWebcams] = useState<{ key: string; list: Webcam[] } | null>(null);
  const token = app.settings.get('userToken') as string | null;
  const key = `${lat}/${lon}/${i18n.language}/${token ?? ''}`;
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([fetchWebcamsNearby(lat, lon, { lang: i18n.language, token, limit: NEARBY_LIMIT, signal: abort.signal }), loadBundle('webcams')]).then(
      ([answer]) => !abort.signal.aborted && setWebcams({ key, list: answer.webcams }),
      () => !abort.signal.aborted && setWebcams({ key, list: [] }),
    );
    return () => abort.abort();
  }, [key, lat, lon, i18n.language, token]);
  const list = webcams?.key === key ? webcams.list : [];
  if (!list.length) return null;
  return (
    <section className="webcams-nearby" data-testid="detail-webcams">
      <h3>{t('nearbyTitle')}</h3>
      <div className="webcams-strip">
        {list.map((w) => (
          <button key={w.id} type="button" className="webcams-item" data-testid="detail-webcam" onClick={() => void app.router.navigate(`/webcams/${w.id}`)}>
            <WebcamImage webcam={w} token={token} small />
            <span className="webcams-item-text"><strong>{w.title}</strong><small>{t('distance', { km: (w.distanceKm ?? 0).toFixed(1) })}</small></span>
          </button>
        ))}
      </div>
    </section>
  );
}
