/**
 * The map selector (SPEC §2: opens by itself above zoom 11): the base map and its options. Below
 * zoom 11 Isobar draws its own offline map (Natural Earth; its colours are a setting); above it,
 * the map of the map setting (SPEC §3 map: sznmap = outdoor, sat = satellite, winter) where the
 * server has a tile source for it (common/api/basemaps.ts). A map without a source is listed as
 * not configured, with the server setting that enables it.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { MAP_SETTING_STYLES, TILE_BASEMAP_ENV } from '../../../common/basemapStyles.ts';
import { basemapSources } from '../../map/basemapSources.ts';
import type { PanelProps } from '../registry.ts';
import './mapSelector.css';

type MapSetting = keyof typeof MAP_SETTING_STYLES;
const MAP_SETTINGS = Object.keys(MAP_SETTING_STYLES) as MapSetting[];

export default function MapSelectorPanel({ app, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('menu');
  const graticule = app.settings.get('graticule') as boolean;
  const map = app.settings.get('map') as MapSetting;
  const sources = basemapSources.value;
  const configured = MAP_SETTINGS.filter((m) => sources[MAP_SETTING_STYLES[m]]);
  const missing = [...MAP_SETTINGS.map((m) => MAP_SETTING_STYLES[m]), 'topoMap' as const].filter((style) => !sources[style]);
  // The map setting's map where it is configured; else the offline map stays.
  const shown = sources[MAP_SETTING_STYLES[map]] ? map : null;
  const attribution = shown ? sources[MAP_SETTING_STYLES[shown]]?.attribution : undefined;
  return (
    <div className="map-selector" data-testid="map-selector">
      <strong>{t('mapSelector.title')}</strong>
      <label className={`map-selector-choice${shown === null ? ' active' : ''}`}>
        <input type="radio" name="basemap" checked={shown === null} readOnly disabled={configured.length === 0} /> {t('mapSelector.vector')}
      </label>
      {configured.map((m) => (
        <label key={m} className={`map-selector-choice${shown === m ? ' active' : ''}`} data-testid={`map-selector-${MAP_SETTING_STYLES[m]}`}>
          <input type="radio" name="basemap" checked={shown === m} onChange={() => app.settings.set('map', m)} /> {t(`mapSelector.${MAP_SETTING_STYLES[m]}`)}
        </label>
      ))}
      {missing.map((style) => (
        <span key={style} className="map-selector-note" data-testid={`map-selector-missing-${style}`}>
          {t('mapSelector.notConfigured', { map: t(`mapSelector.${style}`), setting: TILE_BASEMAP_ENV[style] })}
        </span>
      ))}
      <label className="map-selector-toggle">
        <input type="checkbox" checked={graticule} onChange={(e) => app.settings.set('graticule', e.currentTarget.checked)} data-testid="graticule-toggle" />
        {t('mapSelector.graticule')}
      </label>
      {attribution && <small className="map-selector-note">{attribution}</small>}
      <button type="button" className="map-selector-close" onClick={close} aria-label={t('mapSelector.close')}>×</button>
    </div>
  );
}
