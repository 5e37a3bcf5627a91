/**
 * The map selector (SPEC §2: opens by itself above zoom 11): the base map and its options. Isobar
 * draws its own offline vector base map (Natural Earth land, coastlines, borders); the raster
 * base maps of SPEC §2 (satellite, outdoor, winter) need a map tile server, which a self-hosted
 * instance has not configured, so they are listed as unavailable rather than pretended.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { PanelProps } from '../registry.ts';
import './mapSelector.css';

export default function MapSelectorPanel({ app, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('menu');
  const graticule = app.settings.get('graticule') as boolean;
  return (
    <div className="map-selector" data-testid="map-selector">
      <strong>{t('mapSelector.title')}</strong>
      <label className="map-selector-choice active">
        <input type="radio" name="basemap" checked readOnly /> {t('mapSelector.vector')}
      </label>
      <span className="map-selector-note" title={t('mapSelector.rasterHint')}>{t('mapSelector.raster')}</span>
      <label className="map-selector-toggle">
        <input type="checkbox" checked={graticule} onChange={(e) => app.settings.set('graticule', e.currentTarget.checked)} data-testid="graticule-toggle" />
        {t('mapSelector.graticule')}
      </label>
      <button type="button" className="map-selector-close" onClick={close} aria-label={t('mapSelector.close')}>×</button>
    </div>
  );
}
