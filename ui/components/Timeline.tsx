/**
 * The timeline (SPEC §2/§4): the run's forecast steps, play/pause, previous/next step, a slider
 * over the whole range with day marks, and the shown time in the user's clock (12/24 h, SPEC §9).
 */

import { useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../state/appState.ts';
import { OverlayIcon } from './icons.tsx';
import { DAY_MS } from '../../common/time.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per language and options, kept: making an Intl.DateTimeFormat costs far more than
 * formatting with it (the first one of a language loads its locale data, tens of ms on a slow phone).
 */
function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

function formatTime(ms: number, hour12: boolean, locale?: string): string {
  return dateFormat(locale, { weekday: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12 }).format(ms);
}

export function Timeline({ app, hour12 }: { app: AppState; hour12: boolean }) {
  useSignals();
  const { t, i18n } = useTranslation();
  const calendar = app.timeline.calendar.value;
  const timestamp = app.timeline.timestamp.value;
  const playing = app.timeline.playing.value;
  const days = useMemo(() => {
    if (!calendar) return [];
    const out: { at: number; day: string; weekday: string }[] = [];
    const first = new Date(calendar.start);
    first.setHours(0, 0, 0, 0);
    const day = dateFormat(i18n.language, { day: 'numeric' });
    const weekday = dateFormat(i18n.language, { weekday: 'short' });
    for (let d = first.getTime() + DAY_MS; d < calendar.end; d += DAY_MS) {
      out.push({ at: d, day: day.format(d), weekday: weekday.format(d) });
    }
    return out;
  }, [calendar, i18n.language]);
  if (!calendar) return <div className="timeline loading">{t('app.loading')}</div>;
  const span = calendar.end - calendar.start || 1;
  const pos = (ms: number) => `${((ms - calendar.start) / span) * 100}%`;
  // SPEC §6: the premium days (from day index 6 of the run) are marked, and a free user's time stops before them.
  const limit = app.timeline.limit.value;
  const premiumFrom = limit === null || limit >= calendar.end ? undefined : limit + 1;
  return (
    <div className="timeline" data-testid="timeline">
      <button type="button" className="timeline-play" onClick={() => (playing ? app.timeline.pause() : app.timeline.play())}
        aria-label={playing ? t('timeline.pause') : t('timeline.play')} data-testid="play">
        <OverlayIcon ident={playing ? 'pause' : 'play'} />
      </button>
      <button type="button" className="timeline-step" onClick={() => app.timeline.step(-1)} aria-label={t('timeline.previous')}>
        <OverlayIcon ident="prev" />
      </button>
      <div className="timeline-track">
        <input
          type="range"
          min={calendar.start}
          max={calendar.end}
          step={60_000}
          value={timestamp}
          onChange={(e) => app.timeline.setTimestamp(Number(e.target.value))}
          aria-label={formatTime(timestamp, hour12, i18n.language)}
          data-testid="timeline-slider"
        />
        {premiumFrom !== undefined && (
          <div className="timeline-premium" style={{ left: pos(premiumFrom) }} title={t('timeline.premiumDay')} data-testid="timeline-premium" />
        )}
        <div className="timeline-days" aria-hidden="true">
          {days.map((d) => (
            <span key={d.at} style={{ left: pos(d.at) }} className={premiumFrom !== undefined && d.at >= premiumFrom ? 'premium' : undefined}>
              {d.day}<span className="timeline-weekday"> {d.weekday}</span>
            </span>
          ))}
        </div>
      </div>
      <button type="button" className="timeline-step" onClick={() => app.timeline.step(1)} aria-label={t('timeline.next')}>
        <OverlayIcon ident="next" />
      </button>
      <output className="timeline-time" data-testid="timeline-time" data-timestamp={timestamp}>
        {formatTime(timestamp, hour12, i18n.language)}
      </output>
    </div>
  );
}
