/**
 * The legend of the active overlay's colour scale in the user's unit; a click cycles the unit
 * (saved per metric, SPEC §3 metric_{ident}).
 */

import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { eaqiTier } from '../../common/catalogue/classes.ts';
import { colorAt, colorText, scaleDomain } from '../../common/catalogue/colors.ts';
import { colorLayerOf } from '../../common/catalogue/overlays.ts';
import { METRICS, dbzToMmh } from '../../common/catalogue/metrics.ts';
import { IR_COLD_K, IR_WARM_K } from '../../common/satellite.ts';
import type { AppState } from '../state/appState.ts';
import { loadBundle } from '../i18n.ts';
import { rangeLabel } from './AccumulationRange.tsx';
import { CapAlertsLegend } from './CapAlertsControl.tsx';
import { capAlertsDrawn } from '../map/capAlerts.ts';
import { overlayStorms } from '../map/stormsLayer.ts';
import { drawsProductRun } from '../../common/catalogue/layerRules.ts';
import { CATEGORY_COLORS, hurricaneNumber, STORM_CATEGORIES, type StormCategory } from '../../common/tropical/category.ts';

/**
 * The satellite overlay's legend: the grey of the image from dark to bright, with the infrared
 * brightness temperatures it stands for at night (common/satellite.ts IR_WARM_K .. IR_COLD_K) in
 * the user's temperature unit; by day the grey is the visible reflectance. Strings: radsat bundle
 * (loaded with the satellite timeline).
 */
function SatelliteLegend({ app }: { app: AppState }) {
  const { t } = useTranslation('radsat');
  const { t: tCore } = useTranslation();
  const [, setBundle] = useState(false);
  useEffect(() => {
    void loadBundle('radsat').then(() => setBundle(true));
  }, []);
  const layer = colorLayerOf(app.layer.overlayDef.value);
  const unit = app.units.unitOf(layer.metric.ident);
  const def = layer.metric.conv[unit];
  const at = (kelvin: number) => (IR_WARM_K - kelvin) / (IR_WARM_K - IR_COLD_K);
  const stops = Array.from({ length: 12 }, (_, i) => {
    const [r, g, b] = colorAt(layer.colorScale, i / 11);
    return `${colorText([r, g, b, 255])} ${((i / 11) * 100).toFixed(1)}%`;
  });
  // Every other legend line of the unit, so the labels do not run together.
  const labels = def.legend.map((v) => ({ v, at: at(def.from(v)) })).filter((l) => l.at >= 0 && l.at <= 1).filter((_, i) => i % 2 === 0);
  return (
    <button type="button" className="legend satellite-legend" onClick={() => app.units.cycle(layer.metric.ident)} title={tCore('legend.changeUnit')}
      data-testid="legend" data-unit={unit}>
      <span className="legend-unit">{unit}</span>
      <span className="legend-bars">
        <span className="legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} data-testid="satellite-legend-bar">
          {labels.map(({ v, at: x }) => <span key={v} style={{ left: `${x * 100}%` }}>{v}</span>)}
        </span>
        <small className="legend-range" data-testid="satellite-legend-hint">{t('satellite.legend')}</small>
      </span>
    </button>
  );
}

/** The capAlerts overlay's legend: the severity colours, and how many warning areas are drawn. */
function CapAlertsOverlayLegend() {
  useSignals();
  return (
    <div className="legend cap-alerts-overlay-legend" data-testid="legend" data-areas={capAlertsDrawn.value ?? ''}>
      <CapAlertsLegend testId="cap-alerts-overlay-legend" row />
    </div>
  );
}

/**
 * The hurricanes overlay's legend under the wind's: the storm classes' colours (Saffir-Simpson,
 * common/tropical/category.ts), and the tracker's list one click away; "no storms" when none is
 * active. Strings: hurricanes bundle.
 */
function StormsLegend({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation('hurricanes');
  const [, setBundle] = useState(false);
  useEffect(() => {
    void loadBundle('hurricanes').then(() => setBundle(true));
  }, []);
  const storms = overlayStorms.value;
  const label = (c: StormCategory) => (hurricaneNumber(c) ? String(hurricaneNumber(c)) : c);
  return (
    <div className="storms-legend" data-testid="storms-legend" data-storms={storms?.length ?? ''}>
      <span className="storms-legend-classes" title={t('title')}>
        {STORM_CATEGORIES.map((c) => (
          <span key={c} className="storms-legend-class" title={c === 'TD' ? t('depression') : c === 'TS' ? t('tropicalStorm') : t('category', { n: hurricaneNumber(c) })}
            style={{ background: `rgb(${CATEGORY_COLORS[c].join(',')})` }}>{label(c)}</span>
        ))}
      </span>
      {storms && storms.length === 0 && <small data-testid="storms-none">{t('none')}</small>}
      <button type="button" className="storms-legend-open" data-testid="storms-open-tracker" onClick={() => void app.router.navigate('/hurricanes')}>
        {t('all')}
      </button>
    </div>
  );
}

export function Legend({ app }: { app: AppState }) {
  useSignals();
  const overlay = app.layer.overlay.value;
  if (overlay === 'satellite') return <SatelliteLegend app={app} />;
  if (overlay === 'capAlerts') return <CapAlertsOverlayLegend />;
  if (overlay === 'hurricanes') {
    return (
      <>
        {drawsProductRun(app.layer.overlayDef.value, app.layer.productDef.value) && <ScaleLegend app={app} />}
        <StormsLegend app={app} />
      </>
    );
  }
  return <ScaleLegend app={app} />;
}

/** The legend of the colour layer's scale in the user's unit (a click cycles the unit). */
function ScaleLegend({ app }: { app: AppState }) {
  useSignals();
  const { t } = useTranslation();
  const layer = colorLayerOf(app.layer.overlayDef.value);
  const { metric, colorScale } = layer;
  // An accumulation's values are over the range shown (SPEC §3 acRange): the legend says which.
  const range = app.accumulation.range.value;
  const unit = app.units.unitOf(metric.ident);
  const def = metric.conv[unit];
  const [min, max] = scaleDomain(colorScale);
  // Place the unit's legend lines along the scale, and paint the bar under them.
  const values = def.legend.map((v) => def.from(v)).filter((v) => v >= min && v <= max);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const stops = Array.from({ length: 24 }, (_, i) => {
    const v = lo + ((hi - lo) * i) / 23;
    const [r, g, b] = colorAt(colorScale, v);
    return `${colorText([r, g, b, 255])} ${((i / 23) * 100).toFixed(1)}%`;
  });
  // The European AQI's levels are shown as the SPEC §9 tiers (classes.ts), named; the others as numbers.
  const tierOf = (v: number) => (metric.ident === 'aqi' ? eaqiTier(v) : null);
  // Labels closer than this share of the bar to the previous one are left out, so none overlap.
  const named = metric.ident === 'aqi';
  const minGap = named ? 0 : 0.09;
  let lastShown = -1;
  const labels = def.legend.filter((v) => def.from(v) >= min && def.from(v) <= max).flatMap((v) => {
    const at = hi > lo ? (def.from(v) - lo) / (hi - lo) : 0;
    if (lastShown >= 0 && at - lastShown < minGap) return [];
    lastShown = at;
    return [{ v, at }];
  });
  // Radar: under each dBZ line, the rain rate it means (Marshall–Palmer, SPEC §9) in the user's rain unit.
  const rainUnit = metric.ident === 'reflectivity' ? app.units.unitOf('rain') : null;
  const rate = (dbz: number) => {
    const def = METRICS.rain.conv[rainUnit!];
    const v = def.to(dbzToMmh(dbz));
    return v < 10 ? v.toFixed(def.precision + (v < 1 ? 1 : 0)) : v.toFixed(0);
  };
  return (
    <button type="button" className="legend" onClick={() => app.units.cycle(metric.ident)} title={t('legend.changeUnit')}
      data-testid="legend" data-unit={unit} data-range={range ?? undefined}>
      <span className="legend-unit">{unit}{rainUnit && <><br /><small data-testid="legend-rate-unit">{rainUnit}</small></>}</span>
      {range !== null && <span className="legend-range" data-testid="legend-range">{t('accumulation.legend', { range: rangeLabel(range, t) })}</span>}
      <span className={rainUnit ? 'legend-bars' : 'legend-bars single'}>
      <span className="legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})`, marginTop: named ? 12 : undefined }}>
        {labels.map(({ v, at }, k) => {
          const tier = tierOf(v);
          // Named tiers take turns inside and above the bar, so their longer names do not run together.
          const style = tier ? { left: `${at * 100}%`, top: k % 2 ? -12 : 0, fontSize: 9, whiteSpace: 'nowrap' as const } : { left: `${at * 100}%` };
          return (
            <span key={v} style={style} className={tier ? 'legend-class' : undefined} title={tier ? `${t(`airq.tiers.${tier}`)} (${unit} ${v})` : undefined}>
              {tier ? t(`airq.tiers.${tier}`) : v}
            </span>
          );
        })}
      </span>
      {rainUnit && (
        <span className="legend-bar legend-rate" data-testid="legend-rate" title={t('legend.rainRate')}>
          {labels.map(({ v, at }) => <span key={v} style={{ left: `${at * 100}%` }}>{rate(v)}</span>)}
        </span>
      )}
      </span>
    </button>
  );
}
