/**
 * The webcams window (SPEC §2 /webcams, /webcams/{id}): the webcams near the place (the route's
 * lat/lon parameters, else the map's centre once the start position is settled), nearest first,
 * and one webcam with its image, the time the image was taken, its page and who it is from. The
 * user's own webcams (common/webcams.ts) carry edit and remove; any webcam can be a favourite
 * (SPEC §3 type webcam with its webcamId).
 * Every image comes through the server's relay (common/api/webcams.ts webcamImagePath: the page is
 * cross-origin isolated and most webcam hosts do not allow embedding); a user's own one is fetched
 * with their token and shown from a blob: address. Where it cannot be relayed (the host is down,
 * answers no image), the window says so and links to the image's own address.
 */

import './webcams.css';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { webcamImagePath, type Webcam, type WebcamList } from '../../../common/api/webcams.ts';
import { WEBCAMS_NEARBY_DEFAULT_KM } from '../../../common/webcams.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import { HttpError } from '../../http/httpError.ts';
import { relativeAge } from '../../components/relativeAge.ts';
import { useAccount } from '../../services/ServicesContext.tsx';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { useSettledCentre } from '../useSettledCentre.ts';
import { fetchWebcam, fetchWebcamImage, fetchWebcamsNearby } from './webcamsApi.ts';

type Load<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: Error };
/** Webcams the list shows at most. */
const LIST_LIMIT = 30;

export default function WebcamsPanel({ app, params, close, openCount }: PanelProps) {
  useSignals();
  const { t, i18n } = useTranslation('webcams');
  const token = app.settings.signal('userToken').value as string | null;
  const id = typeof params.id === 'number' ? params.id : null;
  const title = id === null ? t('nearbyTitle') : t('title');
  // Near the route's place, else near the map's centre once the map stands where it opened.
  const centre = useSettledCentre(app);
  const place = typeof params.lat === 'number' && typeof params.lon === 'number' ? { lat: params.lat, lon: params.lon } : centre;
  return (
    <PanelFrame title={title} close={close} className="webcams">
      {id !== null
        ? <WebcamDetail app={app} id={id} token={token} lang={i18n.language} />
        : place
          ? <WebcamsList app={app} lat={place.lat} lon={place.lon} token={token} lang={i18n.language} openCount={openCount} />
          : <p className="webcams-message" role="status">{t('loading')}</p>}
    </PanelFrame>
  );
}

function WebcamsList({ app, lat, lon, token, lang, openCount }: { app: PanelProps['app']; lat: number; lon: number; token: string | null; lang: string; openCount: number }) {
  const { t } = useTranslation('webcams');
  const [load, setLoad] = useState<Load<WebcamList>>({ status: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    setLoad({ status: 'loading' });
    fetchWebcamsNearby(lat, lon, { lang, token, limit: LIST_LIMIT, signal: abort.signal }).then(
      (data) => setLoad({ status: 'ready', data }),
      (error: Error) => !abort.signal.aborted && setLoad({ status: 'error', error }),
    );
    return () => abort.abort();
  }, [lat, lon, lang, token, openCount]);
  const loggedIn = !!token;
  // SPEC §3 pois 'cams': the webcams layer on the map (ui/map/webcamsLayer.ts).
  const camsOn = app.settings.signal('pois').value === 'cams';
  return (
    <div className="webcams-list" data-testid="webcams-list">
      <p className="webcams-place">{t('near', { coords: `${lat.toFixed(COORD_DECIMALS)}, ${lon.toFixed(COORD_DECIMALS)}`, km: WEBCAMS_NEARBY_DEFAULT_KM })}</p>
      <label className="webcams-poi">
        <input type="checkbox" checked={camsOn} data-testid="webcams-poi" onChange={(e) => app.settings.set('pois', e.target.checked ? 'cams' : '')} />
        {t('poi')}
      </label>
      <button type="button" className="webcams-button" data-testid="webcams-add" onClick={() => void app.router.navigate(loggedIn ? '/webcams/add' : '/login')}>
        {loggedIn ? t('add') : t('loginToAdd')}
      </button>
      {load.status === 'loading' && <p className="webcams-message" role="status">{t('loading')}</p>}
      {load.status === 'error' && <p className="webcams-message error" role="alert">{t('loadError')}</p>}
      {load.status === 'ready' && (
        <>
          {!load.data.directory && <p className="webcams-note" data-testid="webcams-no-directory">{t('noDirectory')}</p>}
          {load.data.directoryError && <p className="webcams-note">{t('directoryError')}</p>}
          {load.data.webcams.length === 0
            ? <p className="webcams-message" data-testid="webcams-empty">{t('none', { km: WEBCAMS_NEARBY_DEFAULT_KM })}</p>
            : (
              <ul className="webcams-items">
                {load.data.webcams.map((w) => (
                  <li key={w.id}>
                    <button type="button" className="webcams-item" data-testid="webcams-item" data-id={w.id} onClick={() => void app.router.navigate(`/webcams/${w.id}`)}>
                      <WebcamImage webcam={w} token={token} small />
                      <span className="webcams-item-text">
                        <strong>{w.title}</strong>
                        <small>
                          {w.distanceKm !== undefined && t('distance', { km: w.distanceKm.toFixed(1) })}
                          {w.source === 'user' && <span className="webcams-badge">{t('yours')}</span>}
                        </small>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
        </>
      )}
    </div>
  );
}

/** The image through the relay, or where it cannot be shown here, a line that says so. */
export function WebcamImage({ webcam, token, small }: { webcam: Webcam; token: string | null; small?: boolean }) {
  const { t } = useTranslation('webcams');
  const path = webcamImagePath(webcam.id);
  const own = webcam.source === 'user';
  const [failed, setFailed] = useState<string | null>(null);
  // A user's own image: fetched with the token, shown from a blob: address (revoked with it).
  const [blob, setBlob] = useState<{ path: string; url: string } | null>(null);
  useEffect(() => {
    if (!own) return;
    const abort = new AbortController();
    let url: string | null = null;
    fetchWebcamImage(webcam.id, { token, signal: abort.signal }).then(
      (image) => {
        url = URL.createObjectURL(image);
        setBlob({ path, url });
      },
      () => !abort.signal.aborted && setFailed(path),
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [own, path, token, webcam.id]);
  const className = small ? 'webcams-thumb' : 'webcams-image';
  if (failed === path) {
    // A thumbnail has no room for the sentence: a camera sign, the sentence as its title.
    return small
      ? <span className="webcams-thumb failed" role="img" aria-label={t('imageFailed')} title={t('imageFailed')} data-testid="webcam-image-failed">📷</span>
      : <span className="webcams-image failed" data-testid="webcam-image-failed">{t('imageFailed')}</span>;
  }
  const src = own ? (blob?.path === path ? blob.url : null) : path;
  if (src === null) return <span className={className} role="img" aria-label={t('loading')} aria-busy="true" data-testid="webcam-image-loading" />;
  return <img className={className} src={src} alt={webcam.title} loading="lazy" data-testid="webcam-image" onError={() => setFailed(path)} />;
}

function WebcamDetail({ app, id, token, lang }: { app: PanelProps['app']; id: number; token: string | null; lang: string }) {
  useSignals();
  const { t } = useTranslation('webcams');
  const account = useAccount();
  const [load, setLoad] = useState<Load<Webcam>>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    setLoad({ status: 'loading' });
    fetchWebcam(id, { lang, token, signal: abort.signal }).then(
      (data) => setLoad({ status: 'ready', data }),
      (error: Error) => !abort.signal.aborted && setLoad({ status: 'error', error }),
    );
    return () => abort.abort();
  }, [id, lang, token]);

  if (load.status === 'loading') return <p className="webcams-message" role="status">{t('loading')}</p>;
  if (load.status === 'error') {
    const missing = load.error instanceof HttpError && load.error.status === 404;
    return (
      <div className="webcams-detail">
        <p className="webcams-message error" role="alert" data-testid="webcam-not-found">{missing ? t('notFound', { id }) : t('loadError')}</p>
        <button type="button" className="webcams-button" onClick={() => void app.router.navigate('/webcams')}>{t('nearbyTitle')}</button>
      </div>
    );
  }
  const w = load.data;
  const favourites = account?.favourites;
  void favourites?.list.value;
  const fav = favourites?.list.value.find((f) => f.type === 'webcam' && f.webcamId === w.id);
  const toggleFav = async () => {
    if (!account) return;
    setBusy(true);
    try {
      if (fav) await account.favourites.remove(fav.id);
      else if (account.session.loggedIn.peek()) await account.favourites.add({ type: 'webcam', title: w.title, webcamId: w.id, lat: w.lat, lon: w.lon });
      else void app.router.navigate('/login');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="webcams-detail" data-testid="webcam-detail" data-id={w.id}>
      <h3 data-testid="webcam-title">{w.title}</h3>
      <WebcamImage webcam={w} token={token} />
      <p className="webcams-facts">
        <span data-testid="webcam-time">
          {w.imageTime !== undefined
            ? t('imageTime', { time: new Date(w.imageTime).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' }), age: relativeAge(w.imageTime, Date.now(), lang) })
            : t('imageLive')}
        </span>
        {w.place && <span>{w.place}</span>}
        <span>{w.lat.toFixed(COORD_DECIMALS)}, {w.lon.toFixed(COORD_DECIMALS)}</span>
      </p>
      <div className="webcams-actions">
        <button type="button" className="webcams-button" onClick={() => void app.router.navigate(`/${w.lat.toFixed(COORD_DECIMALS)}/${w.lon.toFixed(COORD_DECIMALS)}`)}>{t('forecast')}</button>
        <button type="button" className={fav ? 'webcams-button active' : 'webcams-button'} aria-pressed={!!fav} disabled={busy || !account} data-testid="webcam-fav" onClick={() => void toggleFav()}>
          {fav ? t('favRemove') : t('favAdd')}
        </button>
        {w.pageUrl && <a className="webcams-button" href={w.pageUrl} target="_blank" rel="noopener noreferrer">{t('page')}</a>}
        <a className="webcams-button" href={w.imageUrl} target="_blank" rel="noopener noreferrer">{t('openImage')}</a>
        {w.source === 'user' && (
          <>
            <button type="button" className="webcams-button" data-testid="webcam-edit" onClick={() => void app.router.navigate(`/webcams/edit/${w.id}`)}>{t('edit')}</button>
            <button type="button" className="webcams-button danger" data-testid="webcam-remove" onClick={() => void app.router.navigate(`/webcams/remove/${w.id}`)}>{t('remove')}</button>
          </>
        )}
      </div>
      {w.attribution && <p className="webcams-credit">{w.attribution}</p>}
      <button type="button" className="mm-link webcams-back" onClick={() => void app.router.navigate('/webcams')}>{t('nearbyTitle')}</button>
    </div>
  );
}
