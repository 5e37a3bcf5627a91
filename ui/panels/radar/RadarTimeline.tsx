/**
 * The radar window (SPEC §2 "radar"; with radarPlus the "radar-plus" window): the timeline over the
 * observed frames of the last hours up to now, then the nowcast frames marked as a forecast,
 * play/pause, the frame's age and the sources' attribution; under radarPlus the segments
 * short / medium / long / archive (SPEC §3 radarPlusSegmentRange), the archive marked Premium for
 * free users (SPEC §1). Strings: the radsat bundle, loaded with the overlay.
 */

import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { RADAR_SEGMENTS, RADAR_STALE_MS } from '../../../common/radar.ts';
import type { AppState } from '../../state/appState.ts';
import { ageParts, useFrameClock } from './frameAge.ts';
import './radar.css';

/** The setting that turns the default radar sources on (README "Observations"). */
export const RADAR_SETTING = 'ISOBAR_OBS=mrms,radolan,radvor';

export function RadarTimeline({ app, hour12 }: { app: AppState; hour12: boolean }) {
  useSignals();
  const { t } = useTranslation('radsat');
  const now = useFrameClock();
  const radar = app.radar;
  const steps = radar.steps.value;
  const index = radar.index.value;
  const step = radar.step.value;
  const playing = radar.playing.value;
  const plus = app.layer.overlay.value === 'radarPlus';
  const segment = radar.segment.value;
  const premium = radar.premium.value;
  const missing = radar.missing.value;
  if (!step) {
    return (
      <div className="timeline radar-timeline loading" data-testid="radar-timeline" data-missing={missing?.key} role={missing ? 'status' : undefined}>
        {radar.error.value ? t('error', { message: radar.error.value })
          : missing ? t(missing.key, { source: missing.source?.label, minutes: missing.source?.minutes, setting: RADAR_SETTING })
            : steps.length === 0 && radar.sources.value.length > 0 ? t('noFrames') : t('loading')}
      </div>
    );
  }
  const firstNowcast = steps.findIndex((s) => s.nowcast);
  const age = ageParts(now - step.time);
  const stale = !step.nowcast && now - step.time > RADAR_STALE_MS;
  const time = new Date(step.time).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12 });
  const sources = radar.sources.value.filter((s) => step.frames.some((f) => f.sources.includes(s.id)));
  return (
    <div className="timeline radar-timeline" data-testid="radar-timeline" data-index={index} data-frames={steps.length} data-time={step.time} data-nowcast={step.nowcast}>
      <button type="button" className="timeline-play" onClick={() => (playing ? radar.pause() : radar.play())}
        aria-label={playing ? t('pause') : t('play')} data-testid="radar-play">
        {playing ? '❚❚' : '▶'}
      </button>
      <div className="timeline-track">
        <input type="range" min={0} max={steps.length - 1} step={1} value={index} aria-label={t('timeline')}
          onChange={(e) => radar.setIndex(Number(e.target.value))} data-testid="radar-slider" />
        {firstNowcast >= 0 && (
          <div className="radar-nowcast-band" style={{ left: `${(firstNowcast / Math.max(1, steps.length - 1)) * 100}%` }} title={t('nowcastHint')} />
        )}
      </div>
      <output className="timeline-time radar-time" data-testid="radar-time">
        {time}{' '}
        <span className={stale ? 'radar-age stale' : 'radar-age'} data-testid="radar-age">{t(age.key, { count: age.count })}</span>
        {step.nowcast && <span className="radar-nowcast" data-testid="radar-nowcast">{t('nowcast')}</span>}
      </output>
      {plus && (
        <div className="radar-segments" role="group" aria-label={t('segments')} data-testid="radar-segments">
          {RADAR_SEGMENTS.map((s) => {
            const locked = s === 'archive' && !premium;
            return (
              <button key={s} type="button" className={s === segment ? 'active' : undefined} aria-pressed={s === segment} data-segment={s}
                disabled={locked} title={locked ? t('premiumArchive') : undefined} onClick={() => radar.setSegment(s)}>
                {t(`segment.${s}`)}{locked && <span className="radar-premium"> {t('premium')}</span>}
              </button>
            );
          })}
        </div>
      )}
      <small className="radar-attribution" data-testid="radar-attribution">
        {sources.map((s) => s.attribution).filter((a, i, all) => all.indexOf(a) === i).join(' · ')}
      </small>
    </div>
  );
}
