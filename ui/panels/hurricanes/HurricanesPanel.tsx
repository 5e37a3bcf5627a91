/**
 * The hurricane tracker (route /hurricanes/{id?}, SPEC §2; menu "hurricane tracker"): the storms
 * the server publishes (server/obs/tropical; active ones first, then the season's past ones) with
 * their class and highest wind, and one storm's details — its fixes with times in the user's time
 * zone and winds and pressures in the user's units, its forecast points. While the window is open
 * the map draws the storms (the hurricanes overlay: tracks coloured by class, fixes, forecast
 * points, NHC's cone); opening a storm pans the map to it.
 */

import './hurricanes.css';
import { useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { STORM_DETAIL, STORM_LIST, STORM_ID_PATTERN, STORM_LIST_PATH, stormDetailPath, type StormDetail, type StormList, type StormSummary } from '../../../common/api/storms.ts';
import { convertBack, formatValue, METRICS } from '../../../common/catalogue/metrics.ts';
import { hurricaneNumber } from '../../../common/tropical/category.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { fetchObsSourceState, nothingShown } from '../../http/obsSource.ts';
import { renderClient } from '../../map/renderClient.ts';
import type { AppState } from '../../state/appState.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { showForecastLabels } from './forecastLabels.ts';
import { stormShapes } from './stormShapes.ts';

/** How many storms of the list the map draws when none is chosen (each is one file to fetch). */
const MAX_DRAWN = 12;

function useUnits(app: AppState) {
  useSignals();
  const wind = app.units.unitOf('wind');
  const pressure = app.units.unitOf('pressure');
  return {
    wind: (kt: number | null) => (kt === null ? '—' : formatValue(METRICS.wind, wind, convertBack(METRICS.wind, 'kt', kt))),
    pressure: (hpa: number | null) => (hpa === null ? '—' : formatValue(METRICS.pressure, pressure, convertBack(METRICS.pressure, 'hPa', hpa))),
    hour12: app.units.hour12.value,
  };
}

function CategoryBadge({ storm }: { storm: Pick<StormSummary, 'category' | 'superTyphoon'> }) {
  const { t } = useTranslation('hurricanes');
  const n = hurricaneNumber(storm.category);
  const label = storm.superTyphoon ? t('superTyphoon') : n ? t('category', { n }) : t(storm.category === 'TS' ? 'tropicalStorm' : 'depression');
  return <span className={`storm-badge storm-${storm.category}`} data-testid="storm-category">{label}</span>;
}

export default function HurricanesPanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t, i18n } = useTranslation('hurricanes');
  const units = useUnits(app);
  const id = typeof params.id === 'string' && new RegExp(STORM_ID_PATTERN).test(params.id) ? params.id : null;
  const [list, setList] = useState<StormList | null>(null);
  const [details, setDetails] = useState<Record<string, StormDetail>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    fetchAnswer(STORM_LIST, STORM_LIST_PATH, { signal: abort.signal }).then(setList, async (e: Error) => {
      if (e.name === 'AbortError') return;
      if ((e as { status?: number }).status !== 404) return setError(e.message);
      // No list published: no storm source followed, or the one followed has not delivered yet.
      const followed = await fetchObsSourceState('storms', abort.signal).catch(() => null);
      if (abort.signal.aborted) return;
      const { key, source } = nothingShown(followed, 'none');
      setError(t(key, { source: source?.label, minutes: source?.minutes }));
    });
    return () => abort.abort();
  }, [t]);

  const chosen = id && list ? list.storms.find((s) => s.id === id) ?? null : null;
  // The storms the map draws: the chosen one, else the first of the list.
  const drawn = useMemo(() => (chosen ? [chosen] : (list?.storms ?? []).slice(0, MAX_DRAWN)), [chosen, list]);

  useEffect(() => {
    const abort = new AbortController();
    for (const s of drawn) {
      if (details[s.id]) continue;
      fetchAnswer(STORM_DETAIL, stormDetailPath(s.source, s.id), { signal: abort.signal })
        .then((d) => setDetails((old) => ({ ...old, [s.id]: d })), () => undefined);
    }
    return () => abort.abort();
  }, [drawn, details]);

  useEffect(() => {
    const shown = drawn.map((s) => details[s.id]).filter((d): d is StormDetail => !!d);
    void renderClient.api().setShapes({ name: 'storms', shapes: shown.length ? stormShapes(shown) : null });
  }, [drawn, details]);
  useEffect(() => () => void renderClient.api().setShapes({ name: 'storms', shapes: null }), []);

  // Opening a storm pans the map to its latest position.
  useEffect(() => {
    if (chosen) app.map.moveTo({ lat: chosen.last.lat, lon: chosen.last.lon, zoom: Math.max(4, app.map.view.peek().zoom) });
  }, [chosen, app]);

  const time = useMemo(() => new Intl.DateTimeFormat(i18n.language, {
    month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: units.hour12, timeZoneName: 'short',
  }), [i18n.language, units.hour12]);

  const detail = chosen ? details[chosen.id] : undefined;
  // The chosen storm's forecast points carry their times on the map.
  const hourOnly = useMemo(() => new Intl.DateTimeFormat(i18n.language, { weekday: 'short', hour: 'numeric', hour12: units.hour12 }), [i18n.language, units.hour12]);
  useEffect(() => {
    const points = detail?.forecast?.points.slice(1) ?? [];
    if (!points.length) return undefined;
    return showForecastLabels(app, points.map((p) => ({ lon: p.lon, lat: p.lat, text: hourOnly.format(p.time) })));
  }, [detail, app, hourOnly]);
  return (
    <PanelFrame title={chosen ? chosen.name || chosen.id.toUpperCase() : t('title')} close={close} className="hurricanes-panel">
      {error && <p className="storm-empty" data-testid="storms-error">{error}</p>}
      {!error && list && !chosen && (
        list.storms.length === 0 ? <p className="storm-empty" data-testid="storms-empty">{t('none')}</p> : (
          <ul className="storm-list" data-testid="storm-list">
            {list.storms.map((s) => (
              <li key={s.id} data-storm={s.id}>
                <button type="button" onClick={() => void app.router.navigate(`/hurricanes/${s.id}`)}>
                  <span className="storm-name">{s.name || s.id.toUpperCase()}</span>
                  <CategoryBadge storm={s} />
                  <span className="storm-wind">{t('maxWind', { value: units.wind(s.maxWindKt) })}</span>
                  <span className="storm-when">{s.active ? t('active') : t('past', { date: time.format(s.last.time) })}</span>
                </button>
              </li>
            ))}
          </ul>
        )
      )}
      {id && list && !chosen && <p className="storm-empty">{t('unknown')}</p>}
      {chosen && (
        <div className="storm-detail" data-testid="storm-detail">
          <p className="storm-summary">
            <CategoryBadge storm={chosen} /> {t('maxWind', { value: units.wind(chosen.maxWindKt) })}
            {chosen.minPressureHpa != null && <> · {t('minPressure', { value: units.pressure(chosen.minPressureHpa) })}</>}
          </p>
          <button type="button" className="storm-back" onClick={() => void app.router.navigate('/hurricanes')}>{t('all')}</button>
          {detail?.forecast && (
            <>
              <h3>{t('forecast')}</h3>
              <table className="storm-table" data-testid="storm-forecast">
                <thead><tr><th>{t('time')}</th><th>{t('position')}</th><th>{t('wind')}</th></tr></thead>
                <tbody>
                  {detail.forecast.points.map((p) => (
                    <tr key={p.time}><td>{time.format(p.time)}</td><td>{p.lat.toFixed(1)}, {p.lon.toFixed(1)}</td><td>{units.wind(p.windKt)}</td></tr>
                  ))}
                </tbody>
              </table>
              {detail.cone && <p className="storm-note">{t('cone', { season: detail.cone.season })}</p>}
            </>
          )}
          <h3>{t('track')}</h3>
          {detail ? (
            <table className="storm-table" data-testid="storm-track">
              <thead><tr><th>{t('time')}</th><th>{t('position')}</th><th>{t('wind')}</th><th>{t('pressure')}</th></tr></thead>
              <tbody>
                {[...detail.track].reverse().map((f) => (
                  <tr key={f.time}><td>{time.format(f.time)}</td><td>{f.lat.toFixed(1)}, {f.lon.toFixed(1)}</td><td>{units.wind(f.windKt)}</td><td>{units.pressure(f.pressureHpa)}</td></tr>
                ))}
              </tbody>
            </table>
          ) : <p className="storm-empty">…</p>}
          {detail && <p className="storm-note">{t('source', { attribution: detail.attribution })}</p>}
        </div>
      )}
    </PanelFrame>
  );
}
