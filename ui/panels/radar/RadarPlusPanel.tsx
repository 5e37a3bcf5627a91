/**
 * The radar-plus window (SPEC §2 route /radarPlus): switches the map to the radarPlus overlay,
 * whose timeline (RadarTimeline) offers the segments of SPEC §3 radarPlusSegmentRange, and lists
 * the radar providers with how fresh each is and its attribution.
 */

import { useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';

export default function RadarPlusPanel({ app, close }: PanelProps) {
  useSignals();
  const { t } = useTranslation('radsat');
  useEffect(() => {
    app.layer.setOverlay('radarPlus');
  }, [app]);
  const sources = app.radar.sources.value;
  return (
    <PanelFrame title={t('radarPlus')} close={close} className="radar-plus-panel">
      <p>{t('radarPlusHint')}</p>
      <ul data-testid="radar-sources">
        {sources.map((s) => (
          <li key={s.id} data-source={s.id}>
            <strong>{s.label}</strong>
            {s.latest !== null && <> — {t('latestFrame', { time: new Date(s.latest).toLocaleString() })}</>}
            <br /><small>{s.attribution}</small>
          </li>
        ))}
      </ul>
    </PanelFrame>
  );
}
