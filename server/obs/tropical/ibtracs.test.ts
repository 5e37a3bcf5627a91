import { describe, expect, it } from 'vitest';
import { IbtracsFormatError, parseIbtracs } from './ibtracs.ts';
import { stormsFromIbtracs } from './storms.ts';

// No IBTrACS file is among the fixtures: the header and units lines follow the IBTrACS v04 column
// documentation (a subset of its 163 columns, in its order); the rows are test values.
const HEADER = 'SID,SEASON,NUMBER,BASIN,SUBBASIN,NAME,ISO_TIME,NATURE,LAT,LON,WMO_WIND,WMO_PRES,WMO_AGENCY,TRACK_TYPE,DIST2LAND,LANDFALL,IFLAG,USA_AGENCY,USA_ATCF_ID,USA_LAT,USA_LON,USA_RECORD,USA_STATUS,USA_WIND,USA_PRES,USA_SSHS';
const UNITS = ' ,Year, , , , , , ,degrees_north,degrees_east,kts,mb, , ,km,km, , , ,degrees_north,degrees_east, , ,kts,mb,1';
const rows = [
  '2018280N18273,2018,80,NA,GM,MICHAEL,2018-10-10 12:00:00,TS,28.7,-86.3,130,923,hurdat_atl,main,140,140,OOOOOO,hurdat_atl,AL142018,28.7,-86.3, ,HU,130,923,4',
  '2018280N18273,2018,80,NA,GM,MICHAEL,2018-10-10 18:00:00,TS,30.0,-85.5,140,919,hurdat_atl,main,0,0,OOOOOO,hurdat_atl,AL142018,30.0,-85.5,L,HU,140,919,5',
  '2018001S10100,2018,1,SI,MM,NOT_NAMED,2018-01-01 00:00:00,NR,-10.0,100.0, , , ,main,500,500,______, , , , , , , , ,-5',
];
const csv = (lines: string[]) => `${[HEADER, UNITS, ...lines].join('\n')}\n`;

describe('IBTrACS v04 CSV (from the column documentation)', () => {
  it('reads rows by column name, blanks as null, the US agencies\' 1-minute wind first', () => {
    const parsed = parseIbtracs(csv(rows));
    expect(parsed).toHaveLength(3);
    expect(parsed[1]).toEqual({ sid: '2018280N18273', season: 2018, atcfId: 'al142018', name: 'MICHAEL', time: Date.UTC(2018, 9, 10, 18), lat: 30, lon: -85.5, windKt: 140, pressureHpa: 919, type: 'HU' });
    expect(parsed[2]).toMatchObject({ atcfId: '', windKt: null, pressureHpa: null });
    const storms = stormsFromIbtracs(parsed, Date.UTC(2018, 11, 1), 'IBTrACS');
    // Only storms with an ATCF id: the id the list and the routes use.
    expect(storms.map((s) => [s.storm.id, s.storm.category, s.storm.active, s.track.length])).toEqual([['al142018', 'H5', false, 2]]);
  });

  it('refuses a cut row, a missing column and a garbled value', () => {
    expect(() => parseIbtracs(csv([rows[0], rows[1].slice(0, 60)]))).toThrow(IbtracsFormatError);
    expect(() => parseIbtracs(csv([rows[0], rows[1].slice(0, 60)]))).toThrow(/truncated, line 4/);
    expect(() => parseIbtracs(csv(rows).slice(0, -1))).toThrow(/ends inside a line/);
    expect(() => parseIbtracs(csv(rows).replace('USA_WIND', 'USA_WINDS'))).toThrow(/no USA_WIND column/);
    expect(() => parseIbtracs(csv([rows[0].replace(',HU,130,923,4', ',HU,1x0,923,4')]))).toThrow(/USA_WIND "1x0"/);
    expect(() => parseIbtracs(csv([rows[0].replace('2018-10-10 12:00:00', '10/10/2018')]))).toThrow(/ISO_TIME/);
  });
});
