/**
 * A place's own time (SPEC §2 "Detail view": timezone): its IANA time zone from the coordinates,
 * offsets and local calendar days through Intl, and sunrise and sunset per local day.
 *
 * The zone comes from @photostructure/tz-lookup (a maintained fork of tz-lookup: the time-zone
 * boundary map packed into 73 KB, offline, CC0); sun times from suncalc (Vladimir Agafonkin's
 * small implementation of the astronomy of http://aa.quae.nl/en/reken/zonpositie.html, within
 * a minute of published tables at mid latitudes). Both load with the detail window only.
 */

import tzLookup from '@photostructure/tz-lookup';
import { getPosition, getTimes } from 'suncalc';
import { MINUTE_MS } from '../../../common/time.ts';

/** Sunrise and sunset are when the Sun's upper limb touches the horizon, refraction included (suncalc's -0.833°). */
const SUNRISE_ALTITUDE_DEG = -0.833;

/** The IANA zone of a place; 'UTC' where the lookup has none (it throws on invalid coordinates). */
export function timeZoneAt(lat: number, lon: number): string {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  try {
    return tzLookup(lat, wrapped);
  } catch {
    return 'UTC';
  }
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** Calendar fields of an instant in a zone. */
function zonedParts(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    partsFormats.set(timeZone, format);
  }
  const out: Record<string, number> = {};
  for (const p of format.formatToParts(ms)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year, month: out.month, day: out.day, hour: out.hour % 24, minute: out.minute, second: out.second };
}

/** Minutes the zone is ahead of UTC at an instant (Paris in summer: 120; New York in winter: -300). */
export function utcOffsetMinutes(timeZone: string, ms: number): number {
  const p = zonedParts(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / MINUTE_MS);
}

/** "UTC+2", "UTC-3:30", "UTC+5:45", "UTC". */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** The local calendar day of an instant, "YYYY-MM-DD". */
export function localDayKey(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The instant of local noon on the local day of `ms` (DST changes happen at night, so noon is well defined). */
export function localNoon(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  const guess = Date.UTC(p.year, p.month - 1, p.day, 12);
  return guess - utcOffsetMinutes(timeZone, guess) * MINUTE_MS;
}

export interface SunDay {
  /** Local day, "YYYY-MM-DD". */
  day: string;
  /** Instants, null when the Sun does not rise or set that day (polar day or night). */
  sunrise: number | null;
  sunset: number | null;
  /** Polar day: the Sun stays up; polar night: it stays down. */
  polar: 'day' | 'night' | null;
}

/** Sunrise and sunset of the local day holding `ms`. */
export function sunDay(ms: number, lat: number, lon: number, timeZone: string): SunDay {
  const noon = localNoon(ms, timeZone);
  const times = getTimes(new Date(noon), lat, lon);
  return {
    day: localDayKey(noon, timeZone),
    sunrise: times.sunrise ? times.sunrise.getTime() : null,
    sunset: times.sunset ? times.sunset.getTime() : null,
    polar: times.alwaysUp ? 'day' : times.alwaysDown ? 'night' : null,
  };
}

/** Whether the Sun is above the horizon at an instant. */
export function isDaylight(ms: number, lat: number, lon: number): boolean {
  return getPosition(new Date(ms), lat, lon).altitude > SUNRISE_ALTITUDE_DEG;
}

export interface DayGroup {
  /** Local day, "YYYY-MM-DD". */
  day: string;
  /** Index of its first column and how many columns it spans. */
  start: number;
  count: number;
  /** The instant of its first column (for formatting the day's name). */
  first: number;
}

/** Consecutive columns of the same local day. */
export function groupByLocalDay(ts: readonly number[], timeZone: string): DayGroup[] {
  const groups: DayGroup[] = [];
  ts.forEach((t, i) => {
    const day = localDayKey(t, timeZone);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.count++;
    else groups.push({ day, start: i, count: 1, first: t });
  });
  return groups;
}

/** Formatters for one place, language and clock: hours, days and times in the place's own zone. */
export interface PlaceClock {
  timeZone: string;
  /** "15" or "3 PM": a column's hour. */
  hour(ms: number): string;
  /** The hour and, on the 12-hour clock, its day period apart ("3", "PM") to set them in two sizes. */
  hourParts(ms: number): { hour: string; period: string };
  /** "Oct 6, 2018": a date. */
  date(ms: number): string;
  /** "07:42" or "7:42 AM". */
  time(ms: number): string;
  /** "Mon 21". */
  day(ms: number): string;
  /** "Monday 21 October 2018, 15:00": a full date for titles. */
  dateTime(ms: number): string;
  /** "Europe/Paris, UTC+2" at that instant. */
  zone(ms: number): string;
}

/** Clocks made so far: each holds five Intl formatters, a few milliseconds to make, so windows reuse them. */
const clocks = new Map<string, PlaceClock>();

export function placeClock(timeZone: string, language: string, hour12: boolean): PlaceClock {
  const key = `${timeZone}|${language}|${hour12}`;
  let clock = clocks.get(key);
  if (!clock) clocks.set(key, clock = makePlaceClock(timeZone, language, hour12));
  return clock;
}

function makePlaceClock(timeZone: string, language: string, hour12: boolean): PlaceClock {
  const make = (options: Intl.DateTimeFormatOptions) => {
    try {
      return new Intl.DateTimeFormat(language, { timeZone, ...options });
    } catch {
      return new Intl.DateTimeFormat('en', { timeZone, ...options });
    }
  };
  const hour = make({ hour: 'numeric', hour12 });
  const time = make({ hour: hour12 ? 'numeric' : '2-digit', minute: '2-digit', hour12 });
  const day = make({ weekday: 'short', day: 'numeric' });
  const date = make({ day: 'numeric', month: 'short', year: 'numeric' });
  const full = make({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12 });
  return {
    timeZone,
    hour: (ms) => hour.format(ms),
    hourParts(ms) {
      let h = '';
      let period = '';
      for (const p of hour.formatToParts(ms)) {
        if (p.type === 'hour') h = p.value;
        else if (p.type === 'dayPeriod') period = p.value;
      }
      return { hour: h || hour.format(ms), period };
    },
    date: (ms) => date.format(ms),
    time: (ms) => time.format(ms),
    day: (ms) => day.format(ms),
    dateTime: (ms) => full.format(ms),
    zone: (ms) => `${timeZone}, ${offsetLabel(utcOffsetMinutes(timeZone, ms))}`,
  };
}

