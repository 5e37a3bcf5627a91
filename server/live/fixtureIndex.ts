/**
 * Test helper: writes the index files upstreams publish beside their GRIB2 files, from the GRIB2
 * bytes themselves, so the fixture server can serve any fixture in any upstream layout.
 *
 * Each field's identity is read from its sections (WMO FM 92 GRIB2):
 *   section 0  octet 7 discipline, octets 9-16 total message length
 *   section 1  octets 13-19 reference time (year u16, month, day, hour, minute, second)
 *   section 4  octets 8-9 product template; 10 category; 11 number; 18 time unit; 19-22 forecast
 *              time; 23 first surface type, 24 scale, 25-28 scaled value; 29-34 second surface;
 *              template 4.8: 47 statistical process, 49 unit and 50-53 length of the time range
 *              (template 4.11 the same three octets later)
 * A message with several fields (sections 2-7 repeated) gives index lines `n.1`, `n.2` at one offset.
 *
 * Names are the ones wgrib2 (NOAA `.idx`) and ecCodes (ECMWF `.index`) give the fixtures' fields;
 * an unknown parameter gets a `var{d}_{c}_{n}` name, which no source asks for.
 */

import { gribMessages } from './gribMessages.ts';

export interface Surface { type: number; value: number }

export interface FieldIdentity {
  messageOffset: number;
  messageLength: number;
  /** 1-based number of the message, and of the field within it. */
  message: number;
  field: number;
  fieldsInMessage: number;
  discipline: number;
  category: number;
  number: number;
  refTime: number;
  /** Forecast hours at the start of the field's time range. */
  forecastHours: number;
  /** Statistical processing (4.10: 0 average, 1 accumulation, 2 maximum, 3 minimum) and its hours. */
  statistic: { process: number; hours: number } | null;
  surface1: Surface | null;
  surface2: Surface | null;
}

// Code table 4.4 unit -> hours.
const UNIT_HOURS: Record<number, number> = { 0: 1 / 60, 1: 1, 2: 24, 10: 3, 11: 6, 12: 12, 13: 1 / 3600 };

function surface(view: DataView, at: number): Surface | null {
  const type = view.getUint8(at);
  if (type === 255) return null;
  const scaleByte = view.getUint8(at + 1);
  const scale = scaleByte & 0x80 ? -(scaleByte & 0x7f) : scaleByte;
  const raw = view.getUint32(at + 2);
  const value = raw === 0xffffffff ? 0 : (raw & 0x80000000 ? -(raw & 0x7fffffff) : raw) / 10 ** scale;
  return { type, value };
}

export function gribFields(bytes: Uint8Array): FieldIdentity[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fields: FieldIdentity[] = [];
  for (const [m, span] of gribMessages(bytes).entries()) {
    const discipline = bytes[span.offset + 6];
    let at = span.offset + 16;
    const end = span.offset + span.length - 4;
    let refTime = 0;
    const found: FieldIdentity[] = [];
    while (at < end) {
      const length = view.getUint32(at);
      const section = view.getUint8(at + 4);
      if (section === 1) {
        refTime = Date.UTC(view.getUint16(at + 12), view.getUint8(at + 14) - 1, view.getUint8(at + 15),
          view.getUint8(at + 16), view.getUint8(at + 17), view.getUint8(at + 18));
      } else if (section === 4) {
        const template = view.getUint16(at + 7);
        const unit = UNIT_HOURS[view.getUint8(at + 17)] ?? 1;
        const statAt = template === 8 ? at + 46 : template === 11 ? at + 49 : -1;
        found.push({
          messageOffset: span.offset, messageLength: span.length, message: m + 1, field: found.length + 1, fieldsInMessage: 0,
          discipline, category: view.getUint8(at + 9), number: view.getUint8(at + 10), refTime,
          forecastHours: view.getUint32(at + 18) * unit,
          statistic: statAt < 0 ? null : {
            process: view.getUint8(statAt), hours: view.getUint32(statAt + 3) * (UNIT_HOURS[view.getUint8(statAt + 2)] ?? 1),
          },
          surface1: surface(view, at + 22), surface2: surface(view, at + 28),
        });
      }
      if (length < 5) throw new Error(`Bad section length ${length} at byte ${at}`);
      at += length;
    }
    for (const field of found) field.fieldsInMessage = found.length;
    fields.push(...found);
  }
  return fields;
}

// Code table 4.2, the fields the fixtures and the sources use (wgrib2 abbreviations).
const NOAA_NAMES: Record<string, string> = {
  '0.0.0': 'TMP', '0.0.6': 'DPT', '0.1.0': 'SPFH', '0.1.1': 'RH', '0.1.3': 'PWAT', '0.1.7': 'PRATE', '0.1.8': 'APCP', '0.1.13': 'WEASD',
  '0.1.52': 'TPRATE', '0.2.2': 'UGRD', '0.2.3': 'VGRD', '0.2.8': 'VVEL', '0.2.22': 'GUST', '0.3.0': 'PRES', '0.3.1': 'PRMSL',
  '0.3.5': 'HGT', '0.3.192': 'MSLET', '0.6.1': 'TCDC', '0.6.3': 'LCDC', '0.6.4': 'MCDC', '0.6.5': 'HCDC', '0.7.6': 'CAPE',
  '0.7.7': 'CIN', '10.0.3': 'HTSGW', '10.0.10': 'DIRPW', '10.0.11': 'PERPW',
  '0.1.11': 'SNOD', '0.1.192': 'CRAIN', '0.1.193': 'CFRZR', '0.1.194': 'CICEP', '0.1.195': 'CSNOW', '0.14.0': 'TOZNE',
  '0.19.0': 'VIS', '2.0.0': 'LAND', '10.2.0': 'ICEC', '10.0.4': 'WVDIR', '10.0.5': 'WVHGT', '10.0.6': 'WVPER',
  '10.0.7': 'SWDIR', '10.0.8': 'SWELL', '10.0.9': 'SWPER',
};

function fmt(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

export function noaaLevel(s1: Surface | null, s2: Surface | null): string {
  if (!s1) return 'unknown level';
  const second = s2 && s2.type === s1.type ? s2 : null;
  switch (s1.type) {
    case 1: return 'surface';
    case 100: return `${fmt(s1.value / 100)} mb`;
    case 101: return 'mean sea level';
    case 103: return second ? `${fmt(s1.value)}-${fmt(second.value)} m above ground` : `${fmt(s1.value)} m above ground`;
    case 108: return `${fmt(s1.value / 100)}-${fmt((second?.value ?? 0) / 100)} mb above ground`;
    case 10: return 'entire atmosphere (considered as a single layer)';
    case 200: return 'entire atmosphere';
    case 214: return 'low cloud layer';
    case 224: return 'middle cloud layer';
    case 234: return 'high cloud layer';
    case 4: return '0C isotherm';
    case 215: return 'cloud ceiling';
    case 241: return `${fmt(s1.value)} in sequence`;
    case 242: return 'convective cloud bottom level';
    case 243: return 'convective cloud top level';
    default: return `level type ${s1.type} value ${fmt(s1.value)}`;
  }
}

export function noaaForecast(f: FieldIdentity): string {
  if (f.statistic) {
    const kind = ['ave', 'acc', 'max', 'min'][f.statistic.process] ?? `stat${f.statistic.process}`;
    return `${fmt(f.forecastHours)}-${fmt(f.forecastHours + f.statistic.hours)} hour ${kind} fcst`;
  }
  return f.forecastHours === 0 ? 'anl' : `${fmt(f.forecastHours)} hour fcst`;
}

export function noaaName(f: FieldIdentity): string {
  return NOAA_NAMES[`${f.discipline}.${f.category}.${f.number}`] ?? `var${f.discipline}_${f.category}_${f.number}`;
}

/** A wgrib2-style `.idx` for a GRIB2 file: `n[.m]:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:`. */
export function noaaIndexText(bytes: Uint8Array): string {
  return gribFields(bytes).map((f) => {
    const number = f.fieldsInMessage > 1 ? `${f.message}.${f.field}` : String(f.message);
    const date = new Date(f.refTime).toISOString().replace(/[-T:]/g, '').slice(0, 10);
    return `${number}:${f.messageOffset}:d=${date}:${noaaName(f)}:${noaaLevel(f.surface1, f.surface2)}:${noaaForecast(f)}:\n`;
  }).join('');
}

/** ecCodes short name of a field (the subset the fixtures and sources need). */
export function ecmwfParam(f: FieldIdentity): string {
  const key = `${f.discipline}.${f.category}.${f.number}`;
  const t = f.surface1?.type;
  const height = t === 103 ? f.surface1?.value : undefined;
  const byKey: Record<string, () => string | undefined> = {
    '0.0.0': () => (height === 2 ? '2t' : t === 100 ? 't' : undefined),
    '0.0.6': () => (height === 2 ? '2d' : undefined),
    '0.1.1': () => (height === 2 ? '2r' : 'r'),
    '0.1.8': () => 'tp',
    '0.1.52': () => (f.statistic?.process === 1 ? 'tp' : 'tprate'),
    '0.2.2': () => (height === 10 ? '10u' : height === 100 ? '100u' : 'u'),
    '0.2.3': () => (height === 10 ? '10v' : height === 100 ? '100v' : 'v'),
    '0.2.22': () => (height === 10 ? '10fg' : 'gust'),
    '0.3.0': () => (t === 101 ? 'msl' : 'sp'),
    '0.3.1': () => 'prmsl',
    '0.3.4': () => 'z',
    '0.3.5': () => 'gh',
    '0.6.1': () => 'tcc', '0.6.3': () => 'lcc', '0.6.4': () => 'mcc', '0.6.5': () => 'hcc',
    '0.7.6': () => 'cape',
    '10.0.3': () => 'swh',
  };
  return byKey[key]?.() ?? key;
}

/** An ECMWF open-data `.index` (JSON lines) for a GRIB2 file. */
export function ecmwfIndexText(bytes: Uint8Array): string {
  return gribFields(bytes).filter((f) => f.field === 1).map((f) => {
    const date = new Date(f.refTime).toISOString();
    const pressure = f.surface1?.type === 100;
    const step = f.forecastHours + (f.statistic?.hours ?? 0);
    const line: Record<string, string | number> = {
      domain: 'g', date: date.slice(0, 10).replace(/-/g, ''), time: date.slice(11, 16).replace(':', ''), expver: '0001',
      class: 'od', type: 'fc', stream: 'oper', step: fmt(step), levtype: pressure ? 'pl' : 'sfc',
    };
    if (pressure) line.levelist = fmt((f.surface1?.value ?? 0) / 100);
    line.param = ecmwfParam(f);
    line._offset = f.messageOffset;
    line._length = f.messageLength;
    return `${JSON.stringify(line)}\n`;
  }).join('');
}

/**
 * A copy of GRIB2 bytes as another run would publish them: every message's reference time
 * (section 1) set to `refTime` and, for instantaneous fields (product template 4.0), its forecast
 * time to `forecastHours` in hours. Lets a fixture stand in for any run and step of a model.
 */
export function republishGrib(bytes: Uint8Array, refTime: number, forecastHours: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const d = new Date(refTime);
  for (const span of gribMessages(out)) {
    let at = span.offset + 16;
    const end = span.offset + span.length - 4;
    while (at < end) {
      const length = view.getUint32(at);
      const section = view.getUint8(at + 4);
      if (section === 1) {
        view.setUint16(at + 12, d.getUTCFullYear());
        for (const [k, v] of [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()].entries()) view.setUint8(at + 14 + k, v);
      } else if (section === 4) {
        const template = view.getUint16(at + 7);
        if (template !== 0) throw new Error(`republishGrib: product template 4.${template} is not instantaneous (4.0)`);
        view.setUint8(at + 17, 1);
        view.setUint32(at + 18, forecastHours);
      }
      if (length < 5) throw new Error(`Bad section length ${length} at byte ${at}`);
      at += length;
    }
  }
  return out;
}
