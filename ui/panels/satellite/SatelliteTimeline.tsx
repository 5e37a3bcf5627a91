/**
 * The satellite overlay's timeline (SPEC §1 satellite): the steps of the live window (and, for
 * Premium, the archive's last day), play/pause, the shown frame's time and age (marked stale past
 * SATELLITE_STALE_MS), and the satellites' credit line (label and attribution). A server that
 * follows no satellite says so, with the setting that turns one on. Strings: the radsat bundle.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { SATELLITE_STALE_MS } from '../../../common/satellite.ts';
import type { AppState } from '../../state/appState.ts';
import { ageParts, useFrameClock } from '../radar/frameAge.ts';
import { SATELLITE_RANGES } from '../../state/satelliteModel.ts';
import '../radar/radar.css';

/** The setting that turns the satellite sources on (README "Observations"). */
export const SATELLITE_SETTING = 'ISOBAR_OBS=goesEast,goesWest';


export function SatelliteTimeline({ app, hour12 }: { app: AppState; hour12: boolean }) {
  useSignals();
  const { t } = useTranslation('radsat');
  const now = useFrameClock();
  const sat = app.satellite;
  const steps = sat.steps.value;
  const index = sat.index.value;
  const step = sat.step.value;
  const playing = sat.playing.value;
  const range = sat.range.value;
  const premium = sat.premium.value;
  if (sat.unconfigured.value) {
    return (
      <div className="timeline radar-timeline loading" role="status" data-testid="satellite-unconfigured">
        {t('satellite.unconfigured', { setting: SATELLITE_SETTING })}
      </div>
    );
  }
  if (!step) {
    return (
      <div className="timeline radar-timeline loading" data-testid="satellite-timeline">
        {sat.error.value ? t('satellite.error', { message: sat.error.value }) : steps.length === 0 && sat.sources.value.length > 0 ? t('satellite.noFrames') : t('satellite.loading')}
      </div>
    );
  }
  // A scan is never ahead of now: a clock a little behind the server's reads 0 minutes ago.
  const age = ageParts(Math.max(0, now - step.time));
  const stale = now - step.time > SATELLITE_STALE_MS;
  const time = new Date(step.time).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12 });
  const sources = sat.sources.value.filter((s) => step.frames.some((f) => f.source === s.id));
  const attributions = sources.map((s) => s.attribution).filter((a, i, all) => all.indexOf(a) === i);
  return (
    <div className="timeline radar-timeline satellite-timeline" data-testid="satellite-timeline" data-index={index} data-frames={steps.length} data-time={step.time} data-stale={stale}>
      <button type="button" className="timeline-play" onClick={() => (playing ? sat.pause() : sat.play())}
        aria-label={playing ? t('pause') : t('satellite.play')} data-testid="satellite-play">
        {playing ? '❚❚' : '▶'}
      </button>
      <div className="timeline-track">
        <input type="range" min={0} max={steps.length - 1} step={1} value={index} aria-label={t('satellite.timeline')}
          onChange={(e) => sat.setIndex(Number(e.target.value))} data-testid="satellite-slider" />
      </div>
      <output className="timeline-time radar-time" data-testid="satellite-time">
        {time}{' '}
        <span className={stale ? 'radar-age stale' : 'radar-age'} data-testid="satellite-age" title={stale ? t('satellite.staleHint') : undefined}>
          {t(age.key, { count: age.count })}{stale && ` · ${t('satellite.stale')}`}
        </span>
      </output>
      <div className="radar-segments" role="group" aria-label={t('segments')} data-testid="satellite-ranges">
        {SATELLITE_RANGES.map((r) => {
          const locked = r === 'archive' && !premium;
          return (
            <button key={r} type="button" className={r === range ? 'active' : undefined} aria-pressed={r === range} data-range={r}
              disabled={locked} title={locked ? t('satellite.premiumArchive') : undefined} onClick={() => sat.setRange(r)}>
              {t(`satellite.range.${r}`)}{locked && <span className="radar-premium"> {t('premium')}</span>}
            </button>
          );
        })}
      </div>
      <small className="radar-attribution" data-testid="satellite-credit" data-sources={sources.map((s) => s.id).join(',')}>
        {sources.map((s) => s.label).join(', ')}{attributions.length > 0 && ` — ${attributions.join(' · ')}`}
      </small>
    </div>
  );
}
