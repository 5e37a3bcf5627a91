/**
 * The Canadian Forest Fire Weather Index (FWI) System: Van Wagner, C.E. (1987), "Development and
 * structure of the Canadian Forest Fire Weather Index System", Canadian Forestry Service, Forestry
 * Technical Report 35 (equations 1-30), as programmed in Van Wagner, C.E. and Pickett, T.L. (1985),
 * "Equations and FORTRAN program for the Canadian Forest Fire Weather Index System", Forestry
 * Technical Report 33 (its test data are this module's tests).
 *
 * Inputs are noon local standard time observations: temperature (°C), relative humidity (%), 10 m
 * wind (km/h) and the rain of the last 24 h (mm). The three moisture codes carry over from day to
 * day (FFMC, DMC, DC of yesterday); a season starts from the standard start-up values 85, 6, 15.
 *
 * How the ingest uses it (server/ingest/runBuilder.ts, derived fields): a forecast run has no
 * yesterday's codes, so every step is one FWI day from the start-up values, with the step's
 * weather and the rain of the 24 h before it. This is the reference's own start of a season;
 * its limits: the DMC and DC (slow codes: 12 and 52 day time lags) do not know a long drought
 * or a wet spell before the run, so FWI is low-biased in a drought and high-biased after rain;
 * and steps are read at their valid time, not at local noon.
 */

/** Van Wagner (1987) standard start-up values. */
export const FWI_START = { ffmc: 85, dmc: 6, dc: 15 } as const;

/** Effective day lengths (h) for the DMC, by month, 46 °N (Van Wagner 1987 table 1). */
const DMC_DAY_LENGTH = [6.5, 7.5, 9, 12.8, 13.9, 13.9, 12.4, 10.9, 9.4, 8, 7, 6];
/** Day length adjustment for the DC, by month (Van Wagner 1987 table 2). */
const DC_DAY_LENGTH = [-1.6, -1.6, -1.6, 0.9, 3.8, 5.8, 6.4, 5, 2.4, 0.4, -1.6, -1.6];

export interface FwiWeather {
  /** °C. */
  temp: number;
  /** %. */
  rh: number;
  /** 10 m wind, km/h. */
  wind: number;
  /** Rain of the last 24 h, mm. */
  rain: number;
  /** 1..12. */
  month: number;
}

export interface FwiCodes {
  ffmc: number;
  dmc: number;
  dc: number;
}

export interface FwiDay extends FwiCodes {
  isi: number;
  bui: number;
  fwi: number;
}

/** Fine Fuel Moisture Code, equations 1-10. */
export function ffmcOf(ffmc0: number, { temp, rh, wind, rain }: FwiWeather): number {
  let mo = (147.2 * (101 - ffmc0)) / (59.5 + ffmc0);
  if (rain > 0.5) {
    const rf = rain - 0.5;
    let mr = mo + 42.5 * rf * Math.exp(-100 / (251 - mo)) * (1 - Math.exp(-6.93 / rf));
    if (mo > 150) mr += 0.0015 * (mo - 150) ** 2 * Math.sqrt(rf);
    mo = Math.min(250, mr);
  }
  const ed = 0.942 * rh ** 0.679 + 11 * Math.exp((rh - 100) / 10) + 0.18 * (21.1 - temp) * (1 - Math.exp(-0.115 * rh));
  let m: number;
  if (mo > ed) {
    const ko = 0.424 * (1 - (rh / 100) ** 1.7) + 0.0694 * Math.sqrt(wind) * (1 - (rh / 100) ** 8);
    const kd = ko * 0.581 * Math.exp(0.0365 * temp);
    m = ed + (mo - ed) * 10 ** -kd;
  } else {
    const ew = 0.618 * rh ** 0.753 + 10 * Math.exp((rh - 100) / 10) + 0.18 * (21.1 - temp) * (1 - Math.exp(-0.115 * rh));
    if (mo < ew) {
      const k1 = 0.424 * (1 - ((100 - rh) / 100) ** 1.7) + 0.0694 * Math.sqrt(wind) * (1 - ((100 - rh) / 100) ** 8);
      const kw = k1 * 0.581 * Math.exp(0.0365 * temp);
      m = ew - (ew - mo) * 10 ** -kw;
    } else {
      m = mo;
    }
  }
  return Math.max(0, Math.min(101, (59.5 * (250 - m)) / (147.2 + m)));
}

/** Duff Moisture Code, equations 11-17. */
export function dmcOf(dmc0: number, { temp, rh, rain, month }: FwiWeather): number {
  let pr = dmc0;
  if (rain > 1.5) {
    const re = 0.92 * rain - 1.27;
    const mo = 20 + Math.exp(5.6348 - dmc0 / 43.43);
    const b = dmc0 <= 33 ? 100 / (0.5 + 0.3 * dmc0) : dmc0 <= 65 ? 14 - 1.3 * Math.log(dmc0) : 6.2 * Math.log(dmc0) - 17.2;
    const mr = mo + (1000 * re) / (48.77 + b * re);
    pr = Math.max(0, 244.72 - 43.43 * Math.log(mr - 20));
  }
  const t = Math.max(-1.1, temp);
  const k = 1.894 * (t + 1.1) * (100 - rh) * DMC_DAY_LENGTH[month - 1] * 1e-6;
  return pr + 100 * k;
}

/** Drought Code, equations 18-23. */
export function dcOf(dc0: number, { temp, rain, month }: FwiWeather): number {
  let dr = dc0;
  if (rain > 2.8) {
    const rd = 0.83 * rain - 1.27;
    const qo = 800 * Math.exp(-dc0 / 400);
    const qr = qo + 3.937 * rd;
    dr = Math.max(0, 400 * Math.log(800 / qr));
  }
  const t = Math.max(-2.8, temp);
  const v = Math.max(0, 0.36 * (t + 2.8) + DC_DAY_LENGTH[month - 1]);
  return dr + 0.5 * v;
}

/** Initial Spread Index, equations 24-26 (wind km/h). */
export function isiOf(ffmc: number, wind: number): number {
  const m = (147.2 * (101 - ffmc)) / (59.5 + ffmc);
  const ff = 91.9 * Math.exp(-0.1386 * m) * (1 + m ** 5.31 / 4.93e7);
  return 0.208 * Math.exp(0.05039 * wind) * ff;
}

/** Buildup Index, equations 27a-b. */
export function buiOf(dmc: number, dc: number): number {
  if (dmc === 0 && dc === 0) return 0;
  const u = dmc <= 0.4 * dc
    ? (0.8 * dmc * dc) / (dmc + 0.4 * dc)
    : dmc - (1 - (0.8 * dc) / (dmc + 0.4 * dc)) * (0.92 + (0.0114 * dmc) ** 1.7);
  return Math.max(0, u);
}

/** Fire Weather Index, equations 28-30. */
export function fwiOf(isi: number, bui: number): number {
  const fd = bui <= 80 ? 0.626 * bui ** 0.809 + 2 : 1000 / (25 + 108.64 * Math.exp(-0.023 * bui));
  const b = 0.1 * isi * fd;
  return b > 1 ? Math.exp(2.72 * (0.434 * Math.log(b)) ** 0.647) : b;
}

/** One FWI day from yesterday's codes. */
export function fwiDay(yesterday: FwiCodes, weather: FwiWeather): FwiDay {
  const ffmc = ffmcOf(yesterday.ffmc, weather);
  const dmc = dmcOf(yesterday.dmc, weather);
  const dc = dcOf(yesterday.dc, weather);
  const isi = isiOf(ffmc, weather.wind);
  const bui = buiOf(dmc, dc);
  return { ffmc, dmc, dc, isi, bui, fwi: fwiOf(isi, bui) };
}

const KELVIN = 273.15;
const MS_TO_KMH = 3.6;

/**
 * FWI of a forecast step, element by element: one day from the start-up values (FWI_START) with
 * temperature (K), relative humidity (%), 10 m wind components (m/s) and the rain of the 24 h
 * before the step (mm). NaN where an input is missing.
 */
export function fwiFrom(temp: Float32Array, rh: Float32Array, u: Float32Array, v: Float32Array, rain24: Float32Array, month: number): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) {
    const weather = { temp: temp[k] - KELVIN, rh: Math.min(100, Math.max(0, rh[k])), wind: Math.hypot(u[k], v[k]) * MS_TO_KMH, rain: Math.max(0, rain24[k]), month };
    out[k] = Number.isFinite(weather.temp + weather.rh + weather.wind + weather.rain) ? fwiDay(FWI_START, weather).fwi : NaN;
  }
  return out;
}
