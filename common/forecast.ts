/**
 * The point forecast answers (SPEC §7 calls), as the server sends them and the detail window reads
 * them: values in the catalogue's base units, one per step, null where there is no data.
 */

/** GET /forecast/point/{product}/v2.9/{lat}/{lon}. */
export interface PointForecast {
  header: {
    product: string;
    refTime: number;
    lat: number;
    lon: number;
    step: number;
    demo?: boolean;
    sample?: boolean;
    units: Record<string, string>;
    /**
     * The forecast model's terrain height at the place, m above mean sea level (bilinear between
     * its grid points, as the values): what the model's surface values are for, which may differ
     * from the place's real height by hundreds of metres in the mountains. Absent when the run has
     * no orography (the demo product, waves, air quality) or the request did not ask for it.
     */
    modelElevation?: number;
  };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

/**
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}: pressure-level series keyed
 * `{ident}-{level}` (temp-850h, wind_u-850h, wind_v-850h, gh-850h); `levels` lists the levels
 * present from the ground up, empty when the product has none.
 */
export interface LevelForecast {
  header: PointForecast['header'] & { levels: string[] };
  ts: number[];
  data: Record<string, (number | null)[]>;
}
