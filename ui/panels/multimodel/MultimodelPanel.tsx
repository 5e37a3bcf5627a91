/**
 * The multi-model window (SPEC §2 /multimodel/{lat}/{lon}): every served product that covers the
 * place, side by side — temperature, wind with its direction, gusts, precipitation and clouds per
 * step, in the user's units — each with its grid spacing and run time. It sits in the bottom pane
 * (opening the point forecast replaces it) and closes when a right-pane or full-screen panel opens
 * (SPEC §2 "Panels and panes", panelModel.ts).
 *
 *   header   title, the place's coordinates and time zone, close
 *   today    one table on a shared time axis (multimodel.ts sharedColumns): per quantity a label
 *            row (its unit; a click cycles it), then one row per product
 *   samples  each sample apart, on its own dates, labelled as a sample of that date: never shown as
 *            a forecast of today (../shared/data/README.md)
 *
 * The point forecast of each product comes from the detail window's request (detail/forecast.ts);
 * cells are written as the detail window writes them (detail/rows.tsx numberIn, WindArrow).
 */

import './multimodel.css';
import { Fragment, startTransition, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { METRICS } from '../../../common/catalogue/metrics.ts';
import { pointPath } from '../../../common/routes.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import type { PointForecast } from '../../../common/api/forecast.ts';
import { HttpError } from '../../http/httpError.ts';
import { fetchPointForecast, windSeries } from '../detail/forecast.ts';
import { placeClock, timeZoneAt, type PlaceClock } from '../detail/placeTime.ts';
import { numberIn, WindArrow } from '../detail/rows.tsx';
import { PanelFrame } from '../PanelFrame.tsx';
import { usePointMark } from '../usePointMark.ts';
import type { PanelProps } from '../registry.ts';
import { comparedProducts, indicesAt, resolutionOf, sampleColumns, sharedColumns, type ComparedProduct } from './multimodel.ts';

type Load = { status: 'loading' } | { status: 'ready'; data: PointForecast } | { status: 'error'; error: Error };
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The compared quantities: the forecast series, the metric of its unit, the detail bundle's row label. */
const QUANTITIES = [
  { id: 'temp', series: 'temp', metric: 'temp', label: 'detail:rows.temp' },
  { id: 'wind', series: 'wind_u', metric: 'wind', label: 'detail:rows.wind' },
  { id: 'gust', series: 'gust', metric: 'wind', label: 'detail:rows.gust' },
  { id: 'rain', series: 'rain', metric: 'rain', label: 'detail:rows.rain' },
  { id: 'clouds', series: 'clouds', metric: 'clouds', label: 'detail:rows.clouds' },
] as const;

export default function MultimodelPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t: tr, i18n } = useTranslation('multimodel');
  const t = tr as unknown as Translate;
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  const frame = usePointMark(app, lat, lon);
  const served = app.data.served.value;
  const products = useMemo(() => comparedProducts(served, lat, lon), [served, lat, lon]);
  const productKey = products.map((p) => p.ident).join(',');
  const units = app.units.units.value;
  const hour12 = app.units.hour12.value;
  const premium = app.settings.get('subscription') === 'premium';
  const token = premium ? (app.settings.get('userToken') as string | null) : null;
  const [loads, setLoads] = useState<{ key: string; byProduct: Record<string, Load> }>({ key: '', byProduct: {} });
  const key = `${lat}/${lon}/${productKey}`;

  useEffect(() => {
    const abort = new AbortController();
    setLoads({ key, byProduct: Object.fromEntries(products.map((p) => [p.ident, { status: 'loading' } as Load])) });
    for (const p of products) {
      fetchPointForecast(p.ident, lat, lon, abort.signal, token).then(
        (data) => startTransition(() => setLoads((prev) => (prev.key === key ? { key, byProduct: { ...prev.byProduct, [p.ident]: { status: 'ready', data } } } : prev))),
        (error: Error) => {
          if (!abort.signal.aborted) setLoads((prev) => (prev.key === key ? { key, byProduct: { ...prev.byProduct, [p.ident]: { status: 'error', error } } } : prev));
        },
      );
    }
    return () => abort.abort();
    // products are named by the key.
  }, [key, token]);

  const timeZone = useMemo(() => timeZoneAt(lat, lon), [lat, lon]);
  const clock = useMemo(() => placeClock(timeZone, i18n.language, hour12), [timeZone, i18n.language, hour12]);
  const byProduct = loads.key === key ? loads.byProduct : {};
  const today = products.filter((p) => !p.sample);
  const samples = products.filter((p) => p.sample);
  const ready = (p: ComparedProduct) => (byProduct[p.ident]?.status === 'ready' ? (byProduct[p.ident] as { data: PointForecast }).data : null);
  const todayForecasts = today.map(ready).filter((f): f is PointForecast => f !== null);
  // "Now" is read when the forecasts arrive, not on every render.
  const columns = useMemo(() => sharedColumns(todayForecasts, Date.now()), [byProduct]);
  const coords = `${lat.toFixed(COORD_DECIMALS)}, ${lon.toFixed(COORD_DECIMALS)}`;
  const openDetail = (ident?: string) => void app.router.navigate(pointPath(lat, lon, ident));

  return (
    <PanelFrame title={t('title')} close={close} className="multimodel" frameRef={frame}>
      <div className="mm" data-testid="multimodel" data-products={productKey} onKeyDown={(e) => e.key === 'Escape' && close()}>
        <p className="mm-place">
          <span data-testid="multimodel-coords">{coords}</span>
          <span>{clock.zone(Date.now())}</span>
          <button type="button" className="mm-link" onClick={() => openDetail()}>{t('openDetail')}</button>
        </p>
        {products.length === 0 && (
          <p className="mm-message" role="status" data-testid="multimodel-none">{app.data.status.value === 'loading' ? t('loading') : t('none')}</p>
        )}
        {today.length > 0 && (
          <section className="mm-section" data-testid="multimodel-today">
            <ModelTable products={today} columns={columns} byProduct={byProduct} units={units} clock={clock} t={t}
              onUnit={(m) => app.units.cycle(m)} onOpen={openDetail} />
          </section>
        )}
        {samples.length > 0 && (
          <section className="mm-section mm-samples" data-testid="multimodel-samples">
            <h3>{t('samples')}</h3>
            <p className="mm-note">{t('samplesNote')}</p>
            {samples.map((p) => {
              const f = ready(p);
              return (
                <div key={p.ident} className="mm-sample" data-sample={p.ident}>
                  <p className="mm-sample-date" data-testid="multimodel-sample-date">
                    {f ? t('sampleOf', { date: clock.dateTime(f.header.refTime) }) : PRODUCTS[p.ident]?.modelName}
                  </p>
                  <ModelTable products={[p]} columns={f ? sampleColumns(f) : []} byProduct={byProduct} units={units} clock={clock} t={t}
                    onUnit={(m) => app.units.cycle(m)} onOpen={openDetail} withDate />
                </div>
              );
            })}
          </section>
        )}
      </div>
    </PanelFrame>
  );
}

/** runText's formatter of each language (one per row would cost a millisecond or more each). */
const runFormats = new Map<string, Intl.DateTimeFormat | null>();

/** The run time as models name it: date and hour in UTC ("27 Nov, 06 UTC"). */
function runText(refTime: number, lang: string): string {
  let format = runFormats.get(lang);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
    } catch {
      format = null;
    }
    runFormats.set(lang, format);
  }
  return format ? `${format.format(refTime)} UTC` : `${new Date(refTime).toISOString().slice(0, 13).replace('T', ' ')} UTC`;
}

function ModelName({ product, load, t, onOpen }: { product: ComparedProduct; load: Load | undefined; t: Translate; onOpen(ident: string): void }) {
  const { i18n } = useTranslation();
  const def = PRODUCTS[product.ident];
  const res = resolutionOf(product.ident);
  const data = load?.status === 'ready' ? load.data : null;
  let facts: ReactNode;
  if (load?.status === 'error') {
    const missing = load.error instanceof HttpError && load.error.status === 404;
    facts = <span className="mm-error">{missing ? t('detail:dataNotAvailable') : t('detail:loadError', { model: def?.modelName ?? product.ident })}</span>;
  } else if (data) {
    facts = (
      <>
        {res && <span title={t('resolutionHint')}>{t('resolution', { deg: res.deg, km: res.km })}</span>}
        <span data-testid="multimodel-run">{t('run', { time: runText(data.header.refTime, i18n.language) })}</span>
      </>
    );
  } else facts = <span>{t('loading')}</span>;
  return (
    <th scope="row" className="mm-model" data-product={product.ident}>
      {/* The demo product's name is its label, "Demo data" (DESIGN.md "Data, honestly"), in the user's language. */}
      <button type="button" className="mm-link" onClick={() => onOpen(product.ident)} title={t('openDetail')}>
        {product.demo ? <span className="mm-badge demo" title={t('detail:place.demo')}>{t('app.demoData', { ns: 'translation' })}</span> : def?.modelName ?? product.ident}
      </button>
      <span className="mm-facts">{facts}</span>
    </th>
  );
}

function ModelTable({ products, columns, byProduct, units, clock, t, onUnit, onOpen, withDate }: {
  products: readonly ComparedProduct[];
  columns: readonly number[];
  byProduct: Readonly<Record<string, Load>>;
  units: Readonly<Record<string, string>>;
  clock: PlaceClock;
  t: Translate;
  onUnit(metric: string): void;
  onOpen(ident: string): void;
  /** Each column says its date (a sample's own). */
  withDate?: boolean;
}) {
  const indices = useMemo(() => Object.fromEntries(products.map((p) => {
    const load = byProduct[p.ident];
    return [p.ident, load?.status === 'ready' ? indicesAt(load.data, columns) : columns.map(() => -1)];
  })), [products, byProduct, columns]);
  const winds = useMemo(() => Object.fromEntries(products.map((p) => {
    const load = byProduct[p.ident];
    return [p.ident, load?.status === 'ready' ? windSeries(load.data.data.wind_u, load.data.data.wind_v) : []];
  })), [products, byProduct]);
  // Whether each column begins a local day: worked out once a table, not once a cell.
  const dayStarts = useMemo(() => {
    const days = columns.map((c) => clock.day(c));
    return days.map((d, i) => i === 0 || d !== days[i - 1]);
  }, [columns, clock]);
  const dayStart = (i: number) => dayStarts[i];
  return (
    <div className="mm-scroll">
      <table className="mm-table">
        <thead>
          <tr>
            <th scope="col" className="mm-corner">{clock.zone(columns[0] ?? Date.now()).split(', ')[1]}</th>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={dayStart(i) ? 'mm-time day-start' : 'mm-time'} title={clock.dateTime(c)} data-ts={c}>
                {(dayStart(i) || withDate) && <span className="mm-day">{withDate ? clock.date(c) : clock.day(c)}</span>}
                <span>{clock.hour(c)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {QUANTITIES.map((q) => {
            const unit = units[q.metric] ?? METRICS[q.metric].units[0];
            const label = METRICS[q.metric].conv[unit]?.label ?? unit;
            const rows = products.filter((p) => {
              const load = byProduct[p.ident];
              return load?.status !== 'ready' || load.data.data[q.series]?.some((v) => v !== null);
            });
            if (!rows.length) return null;
            return (
              <Fragment key={q.id}>
                <tr className="mm-quantity">
                  <th scope="rowgroup" colSpan={1}>
                    {t(q.label)}
                    <button type="button" className="mm-unit" onClick={() => onUnit(q.metric)} title={t('detail:changeUnit')}>{label}</button>
                  </th>
                  <td colSpan={Math.max(1, columns.length)} />
                </tr>
                {rows.map((p) => (
                  <tr key={p.ident} data-row={`${q.id}:${p.ident}`}>
                    <ModelName product={p} load={byProduct[p.ident]} t={t} onOpen={onOpen} />
                    {columns.map((c, i) => (
                      <ValueCell key={c} quantity={q.id} series={q.series} metric={q.metric} unit={unit} k={indices[p.ident][i]}
                        load={byProduct[p.ident]} wind={winds[p.ident]} t={t} dayStart={dayStart(i)} />
                    ))}
                  </tr>
                ))}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ValueCell({ quantity, series, metric, unit, k, load, wind, t, dayStart }: {
  quantity: string; series: string; metric: string; unit: string; k: number; load: Load | undefined;
  wind: ReturnType<typeof windSeries>; t: Translate; dayStart: boolean;
}) {
  const cls = dayStart ? 'mm-cell day-start' : 'mm-cell';
  if (k < 0 || load?.status !== 'ready') return <td className={cls} />;
  if (quantity === 'wind') {
    const w = wind[k];
    if (!w) return <td className={cls} />;
    return (
      <td className={cls} data-value={w.speed} title={t('detail:windFrom', { deg: Math.round(w.from) })}>
        <WindArrow from={w.from} size={12} />{numberIn('wind', unit, w.speed)}
      </td>
    );
  }
  const v = load.data.data[series]?.[k];
  const text = numberIn(metric, unit, v);
  return <td className={cls} data-value={v ?? ''}>{quantity === 'rain' && Number(text) === 0 ? '' : text}</td>;
}
