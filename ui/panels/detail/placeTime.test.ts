import { describe, expect, it } from 'vitest';
import { groupByLocalDay, isDaylight, localDayKey, localNoon, offsetLabel, placeClock, sunDay, timeZoneAt, utcOffsetMinutes } from './placeTime.ts';
import { HOUR_MS, MINUTE_MS } from '../../../common/time.ts';

describe('time zone of a place', () => {
  it.each([
    [48.853, 2.349, 'Europe/Paris'],
    [40.713, -74.006, 'America/New_York'],
    [27.7, 85.3, 'Asia/Kathmandu'],
    [-33.868, 151.209, 'Australia/Sydney'],
    [35.68, 139.69, 'Asia/Tokyo'],
    [51.5, -0.12, 'Europe/London'],
    // Longitudes beyond ±180 (SPEC §9 lon ±720) wrap.
    [48.853, 362.349, 'Europe/Paris'],
  ])('(%f, %f) is %s', (lat, lon, zone) => {
    expect(timeZoneAt(lat, lon)).toBe(zone);
  });

  it('is UTC where the lookup refuses the coordinates', () => {
    expect(timeZoneAt(Number.NaN, 0)).toBe('UTC');
  });

  it.each([
    ['Europe/Paris', Date.UTC(2024, 6, 1), 120],
    ['Europe/Paris', Date.UTC(2024, 0, 15), 60],
    ['America/New_York', Date.UTC(2024, 0, 15), -300],
    ['Asia/Kolkata', Date.UTC(2024, 0, 15), 330],
    ['Asia/Kathmandu', Date.UTC(2024, 0, 15), 345],
    ['America/St_Johns', Date.UTC(2024, 0, 15), -210],
    ['UTC', Date.UTC(2024, 0, 15), 0],
    // Paris leaves summer time at 01:00 UTC on 27 October 2024.
    ['Europe/Paris', Date.UTC(2024, 9, 27, 0, 59), 120],
    ['Europe/Paris', Date.UTC(2024, 9, 27, 1, 0), 60],
  ])('%s is %i minutes ahead of UTC at %i', (zone, ms, minutes) => {
    expect(utcOffsetMinutes(zone, ms)).toBe(minutes);
  });

  it.each([[0, 'UTC'], [120, 'UTC+2'], [-300, 'UTC-5'], [330, 'UTC+5:30'], [345, 'UTC+5:45'], [-210, 'UTC-3:30']])('offset %i reads %s', (m, text) => {
    expect(offsetLabel(m)).toBe(text);
  });

  it('local days and noon follow the zone, across midnight UTC and DST changes', () => {
    // 23:30 UTC on 20 June is already 21 June in Paris and still 20 June in New York.
    const t = Date.UTC(2024, 5, 20, 23, 30);
    expect(localDayKey(t, 'Europe/Paris')).toBe('2024-06-21');
    expect(localDayKey(t, 'America/New_York')).toBe('2024-06-20');
    expect(localNoon(t, 'Europe/Paris')).toBe(Date.UTC(2024, 5, 21, 10));
    expect(localNoon(Date.UTC(2024, 9, 27, 23), 'Europe/Paris')).toBe(Date.UTC(2024, 9, 28, 11));
    expect(localNoon(t, 'Asia/Kathmandu')).toBe(Date.UTC(2024, 5, 21, 12) - 345 * MINUTE_MS);
  });

  it('groups columns by local day', () => {
    const ts = [0, 3, 6, 9, 12, 15, 18, 21, 24].map((h) => Date.UTC(2024, 5, 20, 12) + h * HOUR_MS);
    const groups = groupByLocalDay(ts, 'Europe/Paris');
    // 12Z..21Z on the 20th are 14..23 local; 00Z on the 21st is 02 local.
    expect(groups.map((g) => [g.day, g.start, g.count])).toEqual([['2024-06-20', 0, 4], ['2024-06-21', 4, 5]]);
    expect(groupByLocalDay(ts, 'UTC').map((g) => g.count)).toEqual([4, 5]);
    expect(groupByLocalDay(ts, 'Pacific/Auckland').map((g) => g.day)).toEqual(['2024-06-21', '2024-06-22']);
  });
});

describe('sunrise and sunset', () => {
  /**
   * Published times (local clock time, rounded to the minute: timeanddate.com / US Naval
   * Observatory tables); the computed instants must be within 2 minutes.
   */
  it.each([
    ['Paris, summer solstice', 48.853, 2.349, 'Europe/Paris', Date.UTC(2024, 5, 21, 12), '05:47', '21:58'],
    ['Paris, winter solstice', 48.853, 2.349, 'Europe/Paris', Date.UTC(2024, 11, 21, 12), '08:42', '16:56'],
    ['Paris, equinox', 48.853, 2.349, 'Europe/Paris', Date.UTC(2024, 2, 20, 12), '06:53', '19:04'],
    ['New York, summer solstice', 40.713, -74.006, 'America/New_York', Date.UTC(2024, 5, 21, 16), '05:25', '20:31'],
    ['Sydney, summer solstice', -33.868, 151.209, 'Australia/Sydney', Date.UTC(2024, 11, 21, 1), '05:41', '20:05'],
  ])('%s', (_name, lat, lon, zone, ms, rise, set) => {
    const sun = sunDay(ms, lat, lon, zone);
    expect(sun.polar).toBeNull();
    const clock = placeClock(zone, 'en-GB', false);
    const minutes = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
    expect(Math.abs(minutes(clock.time(sun.sunrise!)) - minutes(rise))).toBeLessThanOrEqual(2);
    expect(Math.abs(minutes(clock.time(sun.sunset!)) - minutes(set))).toBeLessThanOrEqual(2);
    expect(sun.day).toBe(localDayKey(ms, zone));
  });

  it('polar day and polar night have no sunrise or sunset', () => {
    expect(sunDay(Date.UTC(2024, 5, 21, 12), 78.22, 15.65, 'Arctic/Longyearbyen')).toMatchObject({ sunrise: null, sunset: null, polar: 'day' });
    expect(sunDay(Date.UTC(2024, 11, 21, 12), 78.22, 15.65, 'Arctic/Longyearbyen')).toMatchObject({ sunrise: null, sunset: null, polar: 'night' });
  });

  it('daylight between sunrise and sunset', () => {
    const sun = sunDay(Date.UTC(2024, 5, 21, 12), 48.853, 2.349, 'Europe/Paris');
    expect(isDaylight(sun.sunrise! + 5 * MINUTE_MS, 48.853, 2.349)).toBe(true);
    expect(isDaylight(sun.sunrise! - 5 * MINUTE_MS, 48.853, 2.349)).toBe(false);
    expect(isDaylight(sun.sunset! - 5 * MINUTE_MS, 48.853, 2.349)).toBe(true);
    expect(isDaylight(sun.sunset! + 5 * MINUTE_MS, 48.853, 2.349)).toBe(false);
  });
});

describe('place clock', () => {
  it('formats in the place\'s zone with the 12- or 24-hour clock', () => {
    const t = Date.UTC(2018, 9, 10, 18); // 13:00 in Chicago (CDT)
    const h24 = placeClock('America/Chicago', 'en-GB', false);
    expect(h24.hour(t)).toBe('13');
    expect(h24.time(t)).toBe('13:00');
    expect(h24.day(t)).toBe('Wed 10');
    expect(h24.zone(t)).toBe('America/Chicago, UTC-5');
    const h12 = placeClock('America/Chicago', 'en-US', true);
    expect(h12.hour(t)).toBe('1 PM');
    expect(h12.time(t)).toBe('1:00 PM');
    expect(h12.hourParts(t)).toEqual({ hour: '1', period: 'PM' });
    expect(h24.hourParts(t)).toEqual({ hour: '13', period: '' });
    expect(h24.date(t)).toBe('10 Oct 2018');
    expect(placeClock('UTC', 'xx-not-a-language', false).hour(t)).toBe('18');
  });
});
