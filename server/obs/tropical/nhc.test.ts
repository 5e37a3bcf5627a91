import { describe, expect, it } from 'vitest';
import { NhcFormatError, parseCurrentStorms, parseForecastAdvisory } from './nhc.ts';

// No NHC product is among the fixtures (../shared/data/README.md): these texts follow NHC's
// documented layouts (CurrentStorms.json sample, NWS Directive 10-601 forecast/advisory); their
// numbers are test values that exercise the reader, not an advisory NHC issued.

const CURRENT_STORMS = JSON.stringify({
  activeStorms: [{
    id: 'al142018', binNumber: 'AT4', name: 'Michael', classification: 'HU', intensity: '105', pressure: '945',
    latitude: '25.6N', longitude: '86.4W', latitudeNumeric: 25.6, longitudeNumeric: -86.4, movementDir: 360, movementSpeed: 11,
    lastUpdate: '2018-10-10T03:00:00.000Z',
    forecastAdvisory: { advNum: '013', issuance: '2018-10-10T03:00:00.000Z', url: 'https://www.nhc.noaa.gov/text/MIATCMAT4.shtml' },
  }],
});

const TCM = `ZCZC MIATCMAT4 ALL
TTAA00 KNHC DDHHMM

HURRICANE MICHAEL FORECAST/ADVISORY NUMBER  13
NWS NATIONAL HURRICANE CENTER MIAMI FL       AL142018
0300 UTC WED OCT 10 2018

HURRICANE CENTER LOCATED NEAR 25.6N  86.4W AT 10/0300Z
POSITION ACCURATE WITHIN  10 NM

PRESENT MOVEMENT TOWARD THE NORTH OR 360 DEGREES AT  11 KT

ESTIMATED MINIMUM CENTRAL PRESSURE 945 MB
MAX SUSTAINED WINDS 105 KT WITH GUSTS TO 130 KT.
64 KT....... 35NE  35SE  20SW  30NW.

REPEAT...CENTER LOCATED NEAR 25.6N  86.4W AT 10/0300Z

FORECAST VALID 10/1200Z 27.4N  86.2W
MAX WIND 115 KT...GUSTS 140 KT.

FORECAST VALID 11/0000Z 29.9N  85.3W...INLAND
MAX WIND 100 KT...GUSTS 120 KT.

FORECAST VALID 11/1200Z 32.3N  83.3W...INLAND
MAX WIND  55 KT...GUSTS  65 KT.

EXTENDED OUTLOOK. NOTE...ERRORS FOR TRACK HAVE AVERAGED NEAR 125 NM
ON DAY 4 AND 175 NM ON DAY 5...AND FOR INTENSITY NEAR 15 KT EACH DAY

OUTLOOK VALID 13/0000Z 38.0N  72.0W...POST-TROP/EXTRATROP
MAX WIND  45 KT...GUSTS  55 KT.

OUTLOOK VALID 15/0000Z...DISSIPATED

NEXT ADVISORY AT 10/0900Z

$$
FORECASTER TEST
`;

describe('NHC CurrentStorms.json (from NHC\'s documented sample layout)', () => {
  it('reads each active storm with its forecast/advisory address', () => {
    expect(parseCurrentStorms(CURRENT_STORMS)).toEqual([{
      id: 'al142018', name: 'Michael', classification: 'HU', windKt: 105, pressureHpa: 945, lat: 25.6, lon: -86.4,
      lastUpdate: Date.UTC(2018, 9, 10, 3), forecastAdvisoryUrl: 'https://www.nhc.noaa.gov/text/MIATCMAT4.shtml',
    }]);
    expect(parseCurrentStorms('{"activeStorms":[]}')).toEqual([]);
  });

  it('refuses a cut document or a storm without an ATCF id', () => {
    expect(() => parseCurrentStorms(CURRENT_STORMS.slice(0, 120))).toThrow(NhcFormatError);
    expect(() => parseCurrentStorms(CURRENT_STORMS.slice(0, 120))).toThrow(/truncated/);
    expect(() => parseCurrentStorms(CURRENT_STORMS.replace('al142018', 'michael'))).toThrow(/not an ATCF id/);
    expect(() => parseCurrentStorms('{}')).toThrow(/no activeStorms/);
  });
});

describe('NHC forecast/advisory (TCM, from the NWS 10-601 layout)', () => {
  it('reads the current centre and each forecast and outlook point with its hour and winds', () => {
    const advisory = parseForecastAdvisory(TCM);
    expect(advisory.id).toBe('al142018');
    expect(advisory.issued).toBe(Date.UTC(2018, 9, 10, 3));
    expect(advisory.points.map((p) => [p.hour, p.lat, p.lon, p.windKt, p.gustKt])).toEqual([
      [0, 25.6, -86.4, 105, 130],
      [9, 27.4, -86.2, 115, 140],
      [21, 29.9, -85.3, 100, 120],
      [33, 32.3, -83.3, 55, 65],
      [69, 38, -72, 45, 55],
    ]);
    expect(advisory.points[4].time).toBe(Date.UTC(2018, 9, 13, 0));
  });

  it('carries a forecast across the end of a month', () => {
    const text = TCM.replace('0300 UTC WED OCT 10 2018', '0300 UTC WED OCT 30 2018').replace(/AT 10\/0300Z/g, 'AT 30/0300Z')
      .replace('VALID 10/1200Z', 'VALID 30/1200Z').replace('VALID 11/0000Z', 'VALID 31/0000Z').replace('VALID 11/1200Z', 'VALID 31/1200Z')
      .replace('VALID 13/0000Z', 'VALID 02/0000Z');
    const points = parseForecastAdvisory(text).points;
    expect(points[4].time).toBe(Date.UTC(2018, 10, 2, 0));
  });

  it('refuses an advisory cut before its end, without its centre, or with times going back', () => {
    expect(() => parseForecastAdvisory(TCM.slice(0, 900))).toThrow(/NHC truncated/);
    expect(() => parseForecastAdvisory(TCM.replace(/CENTER LOCATED NEAR/g, 'CENTRE'))).toThrow(/no "CENTER LOCATED NEAR"/);
    expect(() => parseForecastAdvisory(TCM.replace('VALID 11/1200Z', 'VALID 10/0600Z'))).toThrow(/not after/);
    expect(() => parseForecastAdvisory(TCM.replace('AL142018', 'XX'))).toThrow(/no ATCF id/);
    expect(() => parseForecastAdvisory('')).toThrow(/empty/);
  });
});
