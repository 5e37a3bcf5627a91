/**
 * The "nearest stations" window (SPEC §2 windows without a route; opened by the map's context menu
 * with the point): the weather stations nearest the point, as the detail window lists them
 * (NearestStations), or a line saying there is none near.
 */

import { useTranslation } from 'react-i18next';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { NearestStations } from './NearestStations.tsx';

export default function NearestStationsPanel({ app, params, close }: PanelProps) {
  const { t } = useTranslation('station');
  const lat = Number(params.lat);
  const lon = Number(params.lon);
  return (
    <PanelFrame title={t('nearest')} close={close} className="nearest-stations-panel">
      {Number.isFinite(lat) && Number.isFinite(lon) && <NearestStations app={app} lat={lat} lon={lon} emptyText={t('noneNear')} />}
    </PanelFrame>
  );
}
