/**
 * The decoder (common/aviation/metar.ts: metar-taf-parser plus our sanitising) against the real
 * reports of ../shared/data/text/metar-taf and the parses avwx-engine published with them. The two
 * parsers name things differently; the fields that mean the same thing are compared:
 *
 *   avwx                         ours (DecodedMetar / DecodedTafPeriod)
 *   station, time.dt             station, time (ms)
 *   wind_direction.value         wind.directionDeg (null for VRB; avwx: null value, repr "VRB")
 *   wind_speed / wind_gust       wind.speedMs / gustMs, in knots in the report: value = ours / (1852/3600)
 *   visibility.value + repr      visibilityM: "10" SM -> 10 x 1609.344 m, "9999" m; "P6" (value null) -> 6 SM, visibilityAtLeast
 *   clouds[].type, base          clouds[].cover, baseFt = base x 100
 *   wx_codes[].repr              weather[]
 *   temperature, dewpoint        temperatureC, dewPointC
 *   altimeter.value              qnhHpa: "Qnnnn" hPa as is, "Annnn" inHg x 33.8639
 *   flight_rules                 flightCategory
 *   forecast[].start_time        periods[].from; avwx drops an FM group's minutes (FM090330 starts 03:00), so hours are compared
 */

import { describe, expect, it } from 'vitest';
import { decodeMetar, decodeTaf, MetarFormatError, sanitizeReport, type DecodedConditions } from '../../../common/aviation/metar.ts';
import { parseMetar } from 'metar-taf-parser';
import { describeWithFixtures } from '../../live/testing.ts';
import { FIXTURE_STATIONS, readAvwxMetar, readAvwxTaf, readSanitizeCases, type AvwxConditions } from './testing.ts';

const KT = 1852 / 3600;
const SM = 1609.344;

function expectSameConditions(ours: DecodedConditions, avwx: AvwxConditions, label: string): void {
  expect(ours.flightCategory, `${label} flight rules`).toBe(avwx.flight_rules);
  if (avwx.wind_speed) {
    expect(ours.wind, label).not.toBeNull();
    expect(ours.wind!.speedMs / KT).toBeCloseTo(avwx.wind_speed.value!, 6);
    expect(ours.wind!.directionDeg).toBe(avwx.wind_direction?.repr === 'VRB' ? null : avwx.wind_direction?.value ?? null);
    expect(ours.wind!.gustMs === null ? null : ours.wind!.gustMs / KT).toBe(avwx.wind_gust?.value ?? null);
  } else {
    expect(ours.wind, label).toBeNull();
  }
  if (avwx.visibility) {
    const repr = avwx.visibility.repr;
    const sm = /^P?\d+$/.test(repr) && !/^\d{4}$/.test(repr);
    const value = avwx.visibility.value ?? Number(repr.replace(/^P/, ''));
    expect(ours.visibilityM, `${label} visibility`).toBeCloseTo(sm ? value * SM : value, 3);
    expect(ours.visibilityAtLeast).toBe(repr.startsWith('P') || repr === '9999');
  }
  expect(ours.clouds.map((c) => [c.cover, c.baseFt])).toEqual(avwx.clouds.map((c) => [c.type, c.base === null ? null : c.base * 100]));
  expect(ours.weather).toEqual(avwx.wx_codes.map((w) => w.repr));
}

describeWithFixtures('METAR decoding against the avwx parses of the real reports', () => {
  for (const station of FIXTURE_STATIONS) {
    it(`${station}`, async () => {
      const avwx = await readAvwxMetar(station);
      const time = Date.parse(avwx.time.dt);
      const ours = decodeMetar(avwx.raw, time);
      expect(ours.station).toBe(avwx.station);
      expect(ours.time).toBe(time);
      expectSameConditions(ours, avwx, station);
      expect(ours.temperatureC).toBe(avwx.temperature?.value);
      expect(ours.dewPointC).toBe(avwx.dewpoint?.value);
      const alt = avwx.altimeter!;
      expect(ours.qnhHpa).toBeCloseTo(alt.repr.startsWith('A') ? alt.value! * 33.8639 : alt.value!, 6);
      // Each fixture's raw text carries the station's previous report glued after it: cut off.
      expect(ours.text.split(` ${station} `)).toHaveLength(1);
    });
  }

  it('reads the second report glued to EGLL\'s as nothing (metar-taf-parser alone takes its temperature, 11 °C for 10)', async () => {
    const avwx = await readAvwxMetar('EGLL');
    expect(parseMetar(avwx.raw).temperature).toBe(11);
    expect(decodeMetar(avwx.raw, Date.parse(avwx.time.dt)).temperatureC).toBe(10);
  });
});

describeWithFixtures('TAF decoding against the avwx parses of the real reports', () => {
  for (const station of FIXTURE_STATIONS) {
    it(`${station}`, async () => {
      const avwx = await readAvwxTaf(station);
      const ours = decodeTaf(avwx.raw, Date.parse(avwx.time.dt));
      expect(ours.station).toBe(avwx.station);
      expect(ours.issued).toBe(Date.parse(avwx.time.dt));
      expect(ours.validFrom).toBe(Date.parse(avwx.start_time.dt));
      expect(ours.validTo).toBe(Date.parse(avwx.end_time.dt));
      expect(ours.periods).toHaveLength(avwx.forecast.length);
      avwx.forecast.forEach((f, i) => {
        const p = ours.periods[i];
        const label = `${station} ${f.raw}`;
        expect(p.text.endsWith(f.raw), label).toBe(true);
        expect(Math.floor(p.from / 3_600_000)).toBe(Date.parse(f.start_time.dt) / 3_600_000);
        expectSameConditions(p, f, label);
      });
    });
  }
});

describeWithFixtures('the sanitising cases (metar_sanitize_cases.json)', () => {
  it('repairs each report into what the repaired report reads as', async () => {
    const cases = await readSanitizeCases();
    expect(cases.length).toBeGreaterThan(10);
    const differing: string[] = [];
    for (const c of cases) {
      const ours = sanitizeReport(c.report);
      // avwx also drops CLR ("sky clear below 12 000 ft", automated stations): we keep it, as it says
      // the sky was reported for the flight category; metar-taf-parser reads it as no layer.
      if (ours.replace(' CLR', '') !== c.fixed) differing.push(`${c.report} -> ${ours} (expected ${c.fixed})`);
      const read = (text: string) => { try { return parseMetar(text); } catch { return null; } };
      const a = read(ours);
      const b = read(c.fixed);
      expect(a === null, c.report).toBe(b === null);
      if (a && b) expect({ ...a, message: '' }, c.report).toEqual({ ...b, message: '' });
    }
    expect(differing).toEqual([]);
  });

  it('shows none of the cases half-read: those without a day-time group or any observation are refused', async () => {
    const cases = await readSanitizeCases();
    const refused = cases.filter((c) => {
      try {
        decodeMetar(c.report, Date.UTC(2024, 0, 31));
        return false;
      } catch (error) {
        expect(error).toBeInstanceOf(MetarFormatError);
        expect((error as MetarFormatError).raw).toBe(c.report);
        return true;
      }
    }).map((c) => c.report.split(' ')[c.report.startsWith('METAR') ? 1 : 0]);
    // KJFK 123456Z (hour 34), CALM... (no time), "KJFK 1 1 1" (no time), MPSM and ENBO (no time),
    // K13K (a time, nothing observed).
    expect(refused).toEqual(['KJFK', 'EGLL', 'KJFK', 'MPSM', 'ENBO', 'K13K']);
  });
});

describe('the METAR header rule', () => {
  it('takes a corrected report (METAR COR)', () => {
    expect(decodeMetar('METAR COR KJFK 170551Z 36007KT 10SM FEW085 11/07 A2979', Date.UTC(2023, 9, 17, 6)).station).toBe('KJFK');
  });
});

describeWithFixtures('the fast path and metar-taf-parser read alike', () => {
  // Groups of every kind the fast path reads, and some it leaves to the parser (RERA, 11/, KMH, VV///).
  const GRAMMAR = [
    'LKPR 170530Z 24012G25KT 200V280 0800 1500SW R24/1200U +TSRA FEW///CB BKN012TCU M01/M02 Q1012 NOSIG',
    'KJFK 170551Z 36007KT 1 1/2SM -RASN BR VV002 11/10 A2979',
    'KJFK 170551Z VRB03KT M1/4SM FG VV002 M11/M12 A2979 RMK AO2',
    'KJFK 170551Z 00000KT P6SM VCSH VCTS SKC 21/12 A3001',
    'EGLL 170550Z 09011MPS 9999 NSC 10/05 Q1016 TEMPO 4000 RA',
    'EGLL 170550Z 09011KT CAVOK 10/05 Q1016 RERA',
    'EGLL 170550Z 09011KMH 5000 RA 11/ Q1016',
    'KJFK 170551Z 36007KT 1/2SM FZFG VV/// 11/10 A2979',
  ];
  it('on every fixture report, its glued neighbour, the sanitising cases and the grammar cases', async () => {
    const reports: { raw: string; now: number }[] = GRAMMAR.map((raw) => ({ raw, now: Date.UTC(2023, 9, 17, 6) }));
    for (const station of FIXTURE_STATIONS) {
      const avwx = await readAvwxMetar(station);
      const now = Date.parse(avwx.time.dt);
      reports.push({ raw: avwx.raw, now }, { raw: avwx.raw.slice(avwx.raw.indexOf(` ${station} `, 5) + 1), now: now + 3_600_000 });
    }
    for (const c of await readSanitizeCases()) reports.push({ raw: c.report, now: Date.UTC(2024, 0, 31) });
    const read = (raw: string, now: number, parser: boolean) => { try { return decodeMetar(raw, now, { parser }); } catch (e) { return (e as Error).message; } };
    for (const { raw, now } of reports) expect(read(raw, now, false), raw).toEqual(read(raw, now, true));
  });
});
