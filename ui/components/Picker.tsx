/** The picker: the value under a clicked point in the user's unit (SPEC §2 picker), following the map. */

import { useEffect, useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { eaqiTier } from '../../common/catalogue/classes.ts';
import { METRICS, dbzToMmh, formatValue } from '../../common/catalogue/metrics.ts';
import { pointPath } from '../../common/routes.ts';
import { COORD_DECIMALS } from '../../common/url.ts';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';
import { CAP_SEVERITY_COLOURS } from '../../common/capAlerts.ts';
import { capAlertsPicked } from '../map/capAlerts.ts';
import { capAlertPath } from '../panels/capAlert/capAlertPath.ts';
import { kmPerPixel, nearestFire, nearestMetarStation, PICK_RADIUS_PX } from '../state/obsLayersModel.ts';
import { nearestTideStation } from '../state/tideLayerModel.ts';
import { nearestFlash } from '../../common/obs/flashes.ts';
import { relativeAge } from './relativeAge.ts';
import { useFollowMap } from './useFollowMap.ts';

export function Picker({ app }: { app: AppState }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const position = app.picker.position.value;
  // Follows the map without re-rendering: the transform is written straight to the element.
  useFollowMap(app, ref, app.picker.position);
  // SPEC §2: picker-mobile on phones, closing after pickerMobileTimeout seconds (SPEC §3: 3, 6, 9, 12 or always).
  const mobile = app.mobile();
  const timeout = app.settings.get('pickerMobileTimeout') as number | 'always';
  useEffect(() => {
    if (!mobile || !position || timeout === 'always') return;
    const timer = setTimeout(() => app.picker.close(), timeout * 1000);
    return () => clearTimeout(timer);
  }, [app, mobile, position, timeout]);
  // SPEC §3 pois metars: a click on a station opens its airport window instead of the picker.
  const metars = app.obs.metarsOn.value ? app.obs.metars.value : null;
  useEffect(() => {
    if (!position || !metars) return;
    const station = nearestMetarStation(metars, position.lon, position.lat, PICK_RADIUS_PX * kmPerPixel(position.lat, app.map.view.peek().zoom) / 2);
    if (station < 0) return;
    app.picker.close();
    void app.router.navigate(`/airport/${metars.icao[station]}`);
  }, [app, position, metars]);
  if (!position) return null;
  const result = app.picker.result.value;
  let text = '…';
  let direction: number | undefined;
  if (result) {
    const metric = METRICS[result.metric];
    text = result.value === null ? t('picker.noData') : formatValue(metric, app.units.unitOf(metric.ident), result.value);
    // The European AQI's level as its SPEC §9 tier (classes.ts), named, with the level.
    const tier = result.value !== null && metric.ident === 'aqi' ? eaqiTier(result.value) : null;
    if (tier) text = `${t(`airq.tiers.${tier}`)} (${app.units.unitOf(metric.ident)} ${text})`;
    // Radar reflectivity with the rain rate it means (Marshall–Palmer, SPEC §9), in the user's rain unit.
    if (result.value !== null && metric.ident === 'reflectivity') text += ` · ${formatValue(METRICS.rain, app.units.unitOf('rain'), dbzToMmh(result.value))}`;
    direction = result.value === null ? undefined : result.direction;
  }
  // Lightning and fires shown on the map: the nearest flash's age and the nearest fire's detection.
  // The zoom of the moment: the picker does not follow the camera with renders (effect above).
  const radiusKm = PICK_RADIUS_PX * kmPerPixel(position.lat, app.map.view.peek().zoom);
  const lightning = app.obs.lightningOn.value ? app.obs.lightning.value : null;
  const flash = lightning ? nearestFlash(lightning.flashes, position.lon, position.lat, radiusKm) : -1;
  const flashTime = lightning && flash >= 0 ? lightning.flashes.baseTime - 1000 * lightning.flashes.ageSeconds[flash] : null;
  const fires = app.obs.firesOn.value ? app.obs.fires.value : null;
  const fire = fires ? nearestFire(fires.spots, position.lon, position.lat, radiusKm) : null;
  // A tide station shown on the map (pois "tide"): its name, opening its tides in the detail window.
  const tideStations = app.tides.on.value ? app.tides.stations.value : null;
  const tideStation = tideStations ? nearestTideStation(tideStations, position.lon, position.lat, radiusKm) : null;
  const now = Date.now();
  const confidence = fire?.confidence
    ? fire.confidence.kind === 'percent' ? `${fire.confidence.value} %` : t(`obs.confidenceLevel.${fire.confidence.value}`)
    : null;
  return (
    <div ref={ref} className={mobile ? 'picker picker-mobile' : 'picker'} data-testid="picker"
      data-lat={position.lat} data-lon={position.lon} data-value={result?.value ?? ''}>
      <div className="picker-bubble">
        <output className="picker-value" data-testid="picker-value">
          {direction !== undefined && (
            <span className="picker-arrow" style={{ transform: `rotate(${direction + 180}deg)` }} aria-hidden="true">↑</span>
          )}
          {text}
          {direction !== undefined && <small> {t('picker.from', { deg: Math.round(direction) })}</small>}
        </output>
        {capAlertsPicked.value.length > 0 && (
          // The warnings under the point (SPEC §3 capAlerts), opening /cap-alert/{lat}/{lon}.
          <button type="button" className="picker-cap-alert" data-testid="picker-cap-alert"
            style={{ borderLeft: `4px solid rgb(${CAP_SEVERITY_COLOURS[capAlertsPicked.value[0].severity].join(',')})` }}
            onClick={() => void app.router.navigate(capAlertPath(position.lat, position.lon))}>
            {[...new Set(capAlertsPicked.value.map((a) => a.event))].join(', ')}
          </button>
        )}
        {flashTime !== null && (
          <span className="picker-obs" data-testid="picker-flash" data-time={flashTime}>
            {t('obs.flash', { age: relativeAge(flashTime, now, i18n.language) })}
          </span>
        )}
        {fire && (
          <span className="picker-obs" data-testid="picker-fire" data-time={fire.time}>
            {t('obs.fire', { age: relativeAge(fire.time, now, i18n.language) })}
            {confidence && ` · ${t('obs.confidence', { value: confidence })}`}
            {fire.frpMw !== null && ` · ${t('obs.frp', { value: fire.frpMw.toFixed(1) })}`}
            {fire.sensor && ` · ${fire.sensor}`}
          </span>
        )}
        {tideStation && (
          <button type="button" className="picker-tide" data-testid="picker-tide" data-station={tideStation.id}
            onClick={() => void app.router.navigate(pointPath(tideStation.lat, tideStation.lon))}>
            {t('tides:pickerOpen', { name: tideStation.name })}
          </button>
        )}
        <span className="picker-coords">
          {position.lat.toFixed(COORD_DECIMALS)}, {position.lon.toFixed(COORD_DECIMALS)}
        </span>
        <button type="button" className="picker-close" onClick={() => app.picker.close()} aria-label={t('picker.close')}>
          <OverlayIcon ident="close" size={14} />
        </button>
        <button type="button" className="picker-forecast" data-testid="picker-forecast" title={t('detailLink.openHint')}
          onClick={() => void app.router.navigate(pointPath(position.lat, position.lon))}>
          {t('detailLink.open')}
        </button>
      </div>
      <div className="picker-pin" aria-hidden="true" />
    </div>
  );
}
