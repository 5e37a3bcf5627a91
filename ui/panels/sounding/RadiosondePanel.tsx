/**
 * The radiosonde window (SPEC §2 /radiosonde/{id}; right pane, replaced by /sounding without
 * animation): the latest observed sounding of a station (radiosonde.ts), drawn as the model
 * sounding is (SoundingView), with the station's name, place and the launch time. An unknown
 * station, or a server without radiosonde data, is said so plainly; nothing is drawn then.
 */

import './sounding.css';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Sounding } from '../../../common/sounding/types.ts';
import { COORD_DECIMALS } from '../../../common/url.ts';
import { PanelFrame } from '../PanelFrame.tsx';
import type { PanelProps } from '../registry.ts';
import { analyse } from './analysis.ts';
import { fetchRadiosonde, RadiosondeError } from './radiosonde.ts';
import { SoundingView } from './SoundingView.tsx';
import { altitudeIn, type Translate } from './SkewT.tsx';

type Load = { id: string; status: 'loading' } | { id: string; status: 'ready'; data: Sounding } | { id: string; status: 'error'; error: Error };

export default function RadiosondePanel({ app, params, close }: PanelProps) {
  useSignals();
  const { t: tr, i18n } = useTranslation('sounding');
  const t = tr as unknown as Translate;
  const id = typeof params.id === 'string' ? params.id : String(params.id ?? '');
  const units = {
    temp: app.units.unitOf('temp'), altitude: app.units.unitOf('altitude'), wind: app.units.unitOf('wind'), precip: app.units.unitOf('precip'),
  };
  const hour12 = app.units.hour12.value;
  const [load, setLoad] = useState<Load | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    setLoad({ id, status: 'loading' });
    fetchRadiosonde(id, abort.signal).then(
      // A transition, as the sounding window's (SoundingPanel.tsx): the diagram renders in slices.
      (data) => startTransition(() => setLoad({ id, status: 'ready', data })),
      (error: Error) => {
        if (!abort.signal.aborted) setLoad({ id, status: 'error', error });
      },
    );
    return () => abort.abort();
  }, [id]);
  const time = useMemo(() => new Intl.DateTimeFormat(i18n.language, {
    timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12, timeZoneName: 'short',
  }), [i18n.language, hour12]);

  const current = load?.id === id ? load : null;
  const sounding = current?.status === 'ready' ? current.data : null;
  let body;
  if (!current || current.status === 'loading') {
    body = <p className="sounding-message" role="status">{t('loading')}</p>;
  } else if (current.status === 'error') {
    const { error } = current;
    const problem = error instanceof RadiosondeError ? error.problem : 'failed';
    const source = error instanceof RadiosondeError ? error.source : undefined;
    body = (
      <p className="sounding-message" role="alert" data-testid="sounding-error" data-problem={problem}>
        {t(`radiosonde.${problem}`, { id, message: error.message, source: source?.label, minutes: source?.minutes })}
      </p>
    );
  } else if (current.data.levels.length < 2) {
    body = <p className="sounding-message" role="alert" data-testid="sounding-error" data-problem="empty">{t('radiosonde.empty', { id })}</p>;
  } else {
    body = <SoundingView sounding={current.data} analyse={analyse} units={units} t={t} />;
  }

  return (
    <PanelFrame title={t('radiosonde.title')} close={close} className="sounding-panel">
      <div data-testid="radiosonde-panel" data-station={id}>
        <div className="sounding-head">
          <div>
            <strong data-testid="sounding-place">{sounding?.name ? `${sounding.name} (${id})` : t('radiosonde.station', { id })}</strong>
            {sounding && <span className="sounding-coords">{sounding.lat.toFixed(COORD_DECIMALS)}, {sounding.lon.toFixed(COORD_DECIMALS)}</span>}
          </div>
          {sounding && (
            <div className="sounding-model">
              <span data-testid="sounding-valid" data-ts={sounding.time}>{t('radiosonde.launched', { time: time.format(sounding.time) })}</span>
              {sounding.elevation !== null && <span>{t('radiosonde.elevation', { value: altitudeIn(units.altitude, sounding.elevation) })}</span>}
            </div>
          )}
        </div>
        {body}
      </div>
    </PanelFrame>
  );
}
