/**
 * The sounding window (SPEC §2 /sounding/{lat}/{lon}; right pane, replaced by /radiosonde without
 * animation): the model's vertical profile at the place as a skew-T log-p diagram with parcel
 * curves, indices and a hodograph, from the meteogram answer's pressure levels
 * (GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}), with a slider over the run's steps and the
 * product and run shown. The product is the map's where it has pressure levels at the place, else
 * the first served one that has; the others are offered in a list.
 */

import './sounding.css';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { LevelForecast, PointForecast } from '../../../common/api/forecast.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { soundingFromForecast } from '../../../common/sounding/modelSounding.ts';
import { fetchMeteogram, fetchPlaceName, fetchPointForecast, stepAt } from '../detail/forecast.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import { usePointMark } from '../usePointMark.ts';
import type { PanelProps } from '../registry.ts';
import { analyse } from './analysis.ts';
import { hasSoundingLevels, soundingProducts } from './soundingProducts.ts';
import { SoundingView } from './SoundingView.tsx';
import { altitudeIn, type Translate } from './SkewT.tsx';

/** The pressure levels and, where the product has them, the surface values of the same place (the sounding's ground). */
type Load = { key: string; status: 'loading' } | { key: string; status: 'ready'; data: LevelForecast; point: PointForecast | null } | { key: string; status: 'error'; message: string };

export default function SoundingPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t: tr, i18n } = useTranslation('sounding');
  const t = tr as unknown as Translate;
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  const frame = usePointMark(app, lat, lon);
  const served = app.data.served.value.map((p) => p.ident);
  const mapProduct = app.data.calendarProduct.value ?? app.layer.product.value;
  const candidates = useMemo(() => soundingProducts(served, mapProduct, lat, lon), [served.join(), mapProduct, lat, lon]);
  const [picked, setPicked] = useState<string | null>(null);
  const product = picked && candidates.includes(picked) ? picked : candidates[0] ?? null;
  const premium = app.settings.get('subscription') === 'premium';
  const token = premium ? (app.settings.get('userToken') as string | null) : null;
  const units = {
    temp: app.units.unitOf('temp'), altitude: app.units.unitOf('altitude'), wind: app.units.unitOf('wind'), precip: app.units.unitOf('precip'),
  };
  const hour12 = app.units.hour12.value;

  const key = product ? `${product}/${lat}/${lon}` : '';
  const [load, setLoad] = useState<Load | null>(null);
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!product) return;
    const abort = new AbortController();
    setLoad({ key, status: 'loading' });
    // A point forecast that fails leaves the sounding without its surface level, not without levels.
    const point = fetchPointForecast(product, lat, lon, abort.signal, token).catch(() => null);
    Promise.all([fetchMeteogram(product, lat, lon, abort.signal, token), point]).then(([data, surface]) => {
      // A transition: the diagram, its analysis and the index table render in slices that leave the
      // main thread free in between (issue 16: no task over 50 ms).
      startTransition(() => {
        // The step of the map's time when the map shows this product (else the run's first).
        setStep(data.ts.length ? stepAt(data.ts, app.timeline.timestamp.peek()) : 0);
        setLoad({ key, status: 'ready', data, point: surface });
      });
    }, (error: Error) => {
      if (!abort.signal.aborted) setLoad({ key, status: 'error', message: error.message });
    });
    return () => abort.abort();
  }, [key, product, lat, lon, token, app]);

  const [place, setPlace] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    void fetchPlaceName(lat, lon, Math.min(11, app.map.zoom.peek()), i18n.language, abort.signal).then((n) => {
      if (!abort.signal.aborted) setPlace(n);
    });
    return () => abort.abort();
  }, [app, lat, lon, i18n.language]);

  const ready = load?.key === key && load.status === 'ready' ? load : null;
  const answer = ready ? ready.data : null;
  const k = answer ? Math.min(step, answer.ts.length - 1) : 0;
  const sounding = useMemo(() => (ready && ready.data.ts.length && hasSoundingLevels(ready.data) ? soundingFromForecast(ready.data, k, ready.point) : null), [ready, k]);
  const time = useMemo(() => new Intl.DateTimeFormat(i18n.language, {
    timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12, timeZoneName: 'short',
  }), [i18n.language, hour12]);
  const coords = `${lat.toFixed(COORD_DECIMALS)}, ${lon.toFixed(COORD_DECIMALS)}`;
  const modelName = (ident: string) => PRODUCTS[ident]?.modelName ?? ident;

  let body;
  if (!candidates.length) {
    body = <p className="sounding-message" role="alert" data-testid="sounding-error">{t(served.length ? 'noLevelProduct' : 'loading')}</p>;
  } else if (!load || load.key !== key || load.status === 'loading') {
    body = <p className="sounding-message" role="status">{t('loading')}</p>;
  } else if (load.status === 'error') {
    body = <p className="sounding-message" role="alert" data-testid="sounding-error">{t('loadError', { model: modelName(product!), message: load.message })}</p>;
  } else if (!sounding || sounding.levels.length < 2) {
    body = <p className="sounding-message" role="alert" data-testid="sounding-error">{t('noLevels', { model: modelName(product!) })}</p>;
  } else {
    const ts = answer!.ts;
    const lead = Math.round((ts[k] - answer!.header.refTime) / HOUR_MS);
    body = (
      <>
        <div className="sounding-time">
          <button type="button" aria-label={t('previous')} disabled={k === 0} onClick={() => setStep(k - 1)}>‹</button>
          <input type="range" min={0} max={ts.length - 1} value={k} disabled={ts.length < 2} aria-label={t('time')} data-testid="sounding-slider"
            onChange={(e) => setStep(Number(e.target.value))} />
          <button type="button" aria-label={t('next')} disabled={k === ts.length - 1} onClick={() => setStep(k + 1)}>›</button>
          <span className="sounding-valid" data-testid="sounding-valid" data-ts={ts[k]}>{time.format(ts[k])} <small>(+{lead} h)</small></span>
        </div>
        {ts.length < 2 && <p className="sounding-note" data-testid="sounding-single-step">{t('singleStep')}</p>}
        <SoundingView sounding={sounding} analyse={analyse} units={units} t={t} />
      </>
    );
  }

  return (
    <PanelFrame title={t('title')} close={close} className="sounding-panel" frameRef={frame}>
      <div data-testid="sounding-panel" data-product={product ?? ''}>
        <div className="sounding-head">
          <div>
            <strong data-testid="sounding-place">{place ?? coords}</strong>
            {place && <span className="sounding-coords">{coords}</span>}
          </div>
          <div className="sounding-model">
            {candidates.length > 1 ? (
              <select aria-label={t('model')} value={product ?? ''} onChange={(e) => setPicked(e.target.value)} data-testid="sounding-product">
                {candidates.map((p) => <option key={p} value={p}>{modelName(p)}</option>)}
              </select>
            ) : product && <span data-testid="sounding-product">{modelName(product)}</span>}
            {answer && (
              <span data-testid="sounding-run">
                {t('run', { time: time.format(answer.header.refTime) })}
                {answer.header.sample && <span className="sounding-badge">{t('sample')}</span>}
              </span>
            )}
            {sounding?.elevation != null && <span>{t('elevation', { value: altitudeIn(units.altitude, sounding.elevation) })}</span>}
          </div>
        </div>
        {body}
      </div>
    </PanelFrame>
  );
}
