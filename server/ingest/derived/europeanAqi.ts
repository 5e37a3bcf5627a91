/**
 * The European Air Quality Index of the European Environment Agency (EEA, European Air Quality
 * Index, bands in force 2017-2023, https://airindex.eea.europa.eu): per pollutant, the band of its
 * concentration (µg/m³); the index is the worst band of the pollutants measured, levels 1-6
 * (good, fair, moderate, poor, very poor, extremely poor).
 *
 *   band:   1 good   2 fair   3 moderate   4 poor    5 very poor   6 extremely poor
 *   PM2.5   0-10     10-20    20-25        25-50     50-75         75-800
 *   PM10    0-20     20-40    40-50        50-100    100-150       150-1200
 *   NO2     0-40     40-90    90-120       120-230   230-340       340-1000
 *   O3      0-50     50-100   100-130      130-240   240-380       380-800
 *   SO2     0-100    100-200  200-350      350-500   500-750       750-1250
 *
 * The EEA takes 24 h running means for PM and hourly values for the gases; a forecast step gives
 * hourly values for all. The run says which pollutants it had (AQI_POLLUTANTS of the ingest).
 * SPEC §9's six air quality tiers (Good to Hazardous) are shown for the six levels in order.
 */

export type AqiPollutant = 'pm2p5' | 'pm10' | 'no2' | 'o3' | 'so2';

/** Upper limits of bands 1-5 (µg/m³); above the last is band 6. */
export const EEA_BANDS: Readonly<Record<AqiPollutant, readonly number[]>> = {
  pm2p5: [10, 20, 25, 50, 75],
  pm10: [20, 40, 50, 100, 150],
  no2: [40, 90, 120, 230, 340],
  o3: [50, 100, 130, 240, 380],
  so2: [100, 200, 350, 500, 750],
};

/** EEA band (1-6) of one pollutant's concentration; NaN for a missing value. */
export function eeaBand(pollutant: AqiPollutant, concentration: number): number {
  if (!Number.isFinite(concentration)) return NaN;
  const limits = EEA_BANDS[pollutant];
  for (let b = 0; b < limits.length; b++) if (concentration <= limits[b]) return b + 1;
  return limits.length + 1;
}

/** The index (1-6) of each grid point: the worst band of the pollutants given. */
export function europeanAqiFrom(fields: Partial<Record<AqiPollutant, Float32Array>>): Float32Array {
  const entries = Object.entries(fields) as [AqiPollutant, Float32Array][];
  const n = entries[0]?.[1].length ?? 0;
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    let worst = NaN;
    for (const [pollutant, values] of entries) {
      const band = eeaBand(pollutant, values[k]);
      if (Number.isFinite(band) && !(band <= worst)) worst = band;
    }
    out[k] = worst;
  }
  return out;
}
