import { isObservationOverlay, isRadarOverlay } from './overlays.ts';
import { drawsProductRun } from './layerRules.ts';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS, CAP_SEVERITY_LEVEL } from '../capAlerts.ts';
import { describe, expect, it } from 'vitest';
import {
  AIR_QUALITY_COLORS, AIR_QUALITY_TIERS, COLOR_SCALES, ColorScaleError, DEFAULT_OVERLAY, LEVELS, OVERLAYS, PM10_BREAKPOINTS,
  PM2P5_BREAKPOINTS, PRODUCTS, RENDER_LAYERS, SAMPLE_PRODUCTS, UNSOURCED_OVERLAYS, airQualityTier, buildColorRamp, colorAt, colorLayerOf, dataZoomFor,
  parseColor, particleLayerOf, scaleDomain, validateStops,
} from './index.ts';
import { METRICS, samplingOf } from './metrics.ts';
import { VARIABLES } from './variables.ts';

describe('catalogue', () => {
  it('has the overlays with their render layers, scales and metrics', () => {
    expect(OVERLAYS.map((o) => o.ident)).toEqual([
      'wind', 'gust', 'temp', 'pressure', 'rain', 'clouds', 'rainAccu', 'snowAccu', 'gustAccu', 'dewpoint', 'rh', 'lclouds', 'mclouds', 'hclouds', 'cape', 'waves',
      'wwaves', 'swell1', 'swell2', 'swell3', 'sst', 'deg0', 'snowcover', 'ptype', 'visibility', 'cbase',
      'cloudtop', 'gtco3',
      'pm2p5', 'pm10', 'aod550',
      'wetbulbtemp', 'solarpower', 'turbulence', 'icing', 'fog', 'thunder', 'ccl', 'fwi', 'dfm10h', 'aqi', 'dustsm', 'no2', 'go3', 'cosc', 'tcso2',
      'soilMoisture40', 'soilMoisture100', 'radar', 'radarPlus', 'satellite', 'capAlerts', 'hurricanes',
    ]);
    expect(DEFAULT_OVERLAY).toBe('wind');
    for (const overlay of OVERLAYS) {
      const color = colorLayerOf(overlay);
      // SPEC §3 renderer kinds: an accumulation overlay's colour layer is drawn by the accumulations renderer.
      const kind = overlay.accumulation ? 'accumulations' : isRadarOverlay(overlay.ident) ? 'radar' : overlay.ident === 'capAlerts' ? 'capAlerts' : 'tiles';
      expect(color.renderer, overlay.ident).toBe(kind);
      expect(color.metric.units.length).toBeGreaterThan(0);
      expect(color.colorScale.stops.length).toBeGreaterThan(1);
      for (const l of overlay.layers) expect(RENDER_LAYERS[l], l).toBeDefined();
    }
    expect(particleLayerOf(OVERLAYS[0])?.file).toBe('wind');
    expect(RENDER_LAYERS.wind).toMatchObject({ channels: 2, vector: true });
  });

  it('the wave family draws particles along its flow tiles; overlays without a source say what would fill them', () => {
    for (const family of ['waves', 'wwaves', 'swell1', 'swell2', 'swell3']) {
      const overlay = OVERLAYS.find((o) => o.ident === family)!;
      expect(colorLayerOf(overlay)).toMatchObject({ file: family, channels: 1, sea: true });
      expect(particleLayerOf(overlay)).toMatchObject({ renderer: 'particles', file: `${family}Flow`, channels: 2, vector: true });
      // The hide-particles flag is respected.
      expect(particleLayerOf({ ...overlay, hideParticles: true })).toBeUndefined();
    }
    expect(PRODUCTS.gfsWave.overlays).toEqual(['waves', 'wwaves', 'swell1', 'swell2', 'swell3']);
    // One list of the SPEC §3 overlays without a source: none of them is an overlay a product gives.
    expect(UNSOURCED_OVERLAYS.map((o) => o.ident)).toEqual([
      'uvindex', 'currents', 'currentsTide', 'moistureAnom40', 'moistureAnom100',
      'drought40', 'drought100', 'efiWind', 'efiTemp', 'efiRain',
    ]);
    for (const o of UNSOURCED_OVERLAYS) {
      expect(OVERLAYS.some((overlay) => overlay.ident === o.ident), o.ident).toBe(false);
      expect(Object.values(PRODUCTS).some((p) => p.overlays.includes(o.ident)), o.ident).toBe(false);
      expect(o.source.length, o.ident).toBeGreaterThan(10);
      expect(o.setting === null || /^ISOBAR_[A-Z_]+(=\w+)?$/.test(o.setting), o.ident).toBe(true);
    }
  });

  it('ptype has the 11 colour classes of SPEC §9 for its 12 codes, thunder (2 and 10) sharing one', () => {
    const scale = COLOR_SCALES.ptype;
    const colours = Array.from({ length: 12 }, (_, code) => colorAt(scale, code).join());
    expect(new Set(colours).size).toBe(11);
    expect(colours[2]).toBe(colours[10]);
    // The ramp's 12 entries fall on the codes: the raster shows each code's own class.
    const ramp = buildColorRamp(scale);
    for (let code = 0; code < 12; code++) expect([...ramp.slice(code * 4, code * 4 + 4)].join(), String(code)).toBe(colours[code]);
  });

  it('class fields (codes, not quantities) are ptype, aqi and the warnings\' severity only, each with a qualitative colour scale', () => {
    const classLayers = Object.values(RENDER_LAYERS).filter((l) => l.metric.classes).map((l) => l.ident).sort();
    expect(classLayers).toEqual(['aqi', 'capAlerts', 'ptype']);
    for (const ident of classLayers) {
      expect(RENDER_LAYERS[ident].colorScale.qualitative, ident).toBe(true);
      expect(samplingOf(RENDER_LAYERS[ident].metric)).toBe('nearest');
    }
    // The stored variables of class metrics are the same two; fog and thunder are continuous indices.
    expect(Object.values(VARIABLES).filter((v) => !v.input && METRICS[v.metric].classes).map((v) => v.ident).sort()).toEqual(['aqi', 'ptype']);
    for (const ident of ['fog', 'thunder', 'pm2p5', 'temp']) expect(samplingOf(RENDER_LAYERS[ident].metric), ident).toBe('bilinear');
  });

  it('lists the levels of SPEC §3 in order', () => {
    expect(LEVELS.map((l) => l.ident)).toEqual(['surface', '975h', '950h', '925h', '900h', '850h', '800h', '700h', '600h', '500h', '400h', '300h', '250h', '200h', '150h', '10h', '100m']);
  });

  it('products carry the SPEC §9 constants', () => {
    expect(PRODUCTS.gfs.forecastSize).toBe(360);
    expect(PRODUCTS.icon.forecastSize).toBe(168);
    expect(PRODUCTS.iconEu.forecastSize).toBe(120);
    expect(PRODUCTS.ecmwf).toMatchObject({ forecastSize: 240, maxTileZoom: { free: 3, premium: 4 }, interval: 720, premiumInterval: 360 });
    expect(PRODUCTS.demo.demo).toBe(true);
  });

  it('every product offers only overlays and levels the catalogue has', () => {
    for (const product of Object.values(PRODUCTS)) {
      for (const o of product.overlays) expect(OVERLAYS.some((overlay) => overlay.ident === o), `${product.ident} ${o}`).toBe(true);
      for (const l of product.levels) expect(LEVELS.some((level) => level.ident === l), `${product.ident} ${l}`).toBe(true);
      expect(product.directory).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
    expect(new Set(Object.values(PRODUCTS).map((p) => p.directory)).size).toBe(Object.keys(PRODUCTS).length);
  });

  it('has the GEFS-Aerosols sample as its own product: its date, the file\'s area, the air quality overlays', () => {
    const p = PRODUCTS['gefsaero-20240309'];
    expect(SAMPLE_PRODUCTS).toContain('gefsaero-20240309');
    expect(p).toMatchObject({
      sample: true, resolution: 0.25, levels: ['surface'], overlays: ['pm2p5', 'pm10', 'aod550', 'aqi', 'dustsm'], forecastSize: 0,
      bounds: [[0, -39.75, 54.75, 40]], maxTileZoom: { free: 3, premium: 4 },
    });
    expect(p.source).toMatchObject({ centres: ['kwbc'], disciplines: [0], refTimes: [Date.UTC(2024, 2, 9), Date.UTC(2024, 2, 9)] });
    // Same centre and grid as GFS 0.25°: its variables tell its files apart.
    expect(p.source?.variables).toEqual(['pm2p5', 'pm10', 'aod550']);
  });

  it('maps map zoom to data zoom by quality, Premium one step finer, capped by the product', () => {
    const p = PRODUCTS.ecmwf;
    expect(dataZoomFor(p, 3)).toBe(0);
    expect(dataZoomFor(p, 4.9)).toBe(1);
    expect(dataZoomFor(p, 5, true)).toBe(3);
    expect(dataZoomFor(p, 16)).toBe(3);
    expect(dataZoomFor(p, 16, true)).toBe(4);
    expect(dataZoomFor(PRODUCTS.demo, 12)).toBe(1);
  });
});

describe('colour scales (SPEC §3, §5)', () => {
  it('builds ramps of the requested steps with the end colours at the ends', () => {
    const scale = COLOR_SCALES.temp;
    const ramp = buildColorRamp(scale, 4);
    expect(ramp.length).toBe(16);
    expect([...ramp.slice(0, 4)]).toEqual([...scale.stops[0][1]]);
    expect([...ramp.slice(12, 16)]).toEqual([...scale.stops[scale.stops.length - 1][1]]);
    expect(() => buildColorRamp(scale, 3)).toThrow(ColorScaleError);
    expect(() => buildColorRamp(scale, 12001)).toThrow(/outside 4..12000/);
    expect(buildColorRamp(scale, 12000).length).toBe(48000);
  });

  it('interpolates between stops and clamps outside', () => {
    const s = { ident: 't', steps: 256, stops: validateStops([[0, [0, 0, 0, 0]], [10, [100, 200, 50, 255]]]) };
    expect(colorAt(s, 5)).toEqual([50, 100, 25, 127.5]);
    expect(colorAt(s, -5)).toEqual([0, 0, 0, 0]);
    expect(colorAt(s, 50)).toEqual([100, 200, 50, 255]);
    expect(colorAt({ ...s, qualitative: true }, 5)).toEqual([0, 0, 0, 0]);
  });

  it.each([
    ['not a list', 'abc'],
    ['one stop', [[1, [0, 0, 0, 0]]]],
    ['three-number colour', [[0, [0, 0, 0]], [1, [0, 0, 0, 1]]]],
    ['string value', [['0', [0, 0, 0, 0]], [1, [0, 0, 0, 1]]]],
    ['descending', [[5, [0, 0, 0, 0]], [1, [0, 0, 0, 1]]]],
  ])('rejects a custom gradient that is %s', (_, stops) => {
    expect(() => validateStops(stops)).toThrow(ColorScaleError);
  });

  it('colours PM2.5 and PM10 by the air quality tiers, Good to Hazardous (SPEC §9, EPA AQI breakpoints)', () => {
    expect(AIR_QUALITY_TIERS).toEqual(['good', 'moderate', 'unhealthySensitive', 'unhealthy', 'veryUnhealthy', 'hazardous']);
    const cases: [string, readonly number[], [number, string][]][] = [
      ['pm2p5', PM2P5_BREAKPOINTS, [[0, 'good'], [9.09, 'good'], [9.1, 'moderate'], [35.4, 'moderate'], [35.5, 'unhealthySensitive'],
        [55.5, 'unhealthy'], [125.4, 'unhealthy'], [125.5, 'veryUnhealthy'], [225.5, 'hazardous'], [900, 'hazardous']]],
      ['pm10', PM10_BREAKPOINTS, [[0, 'good'], [54, 'good'], [55, 'moderate'], [155, 'unhealthySensitive'], [255, 'unhealthy'],
        [354, 'unhealthy'], [355, 'veryUnhealthy'], [425, 'hazardous'], [2000, 'hazardous']]],
    ];
    for (const [ident, breakpoints, values] of cases) {
      const scale = COLOR_SCALES[ident];
      expect(scale.qualitative, ident).toBe(true);
      expect(RENDER_LAYERS[ident].colorScale, ident).toBe(scale);
      for (const [value, tier] of values) {
        expect(airQualityTier(breakpoints, value), `${ident} ${value}`).toBe(tier);
        expect(colorAt(scale, value), `${ident} ${value}`).toEqual(AIR_QUALITY_COLORS[tier as keyof typeof AIR_QUALITY_COLORS]);
      }
      // The ramp the raster uses (nearest entry) has its entries on the breakpoints' precision: each breakpoint starts its tier.
      const [min, max] = scaleDomain(scale);
      const ramp = buildColorRamp(scale);
      for (const [k, b] of breakpoints.entries()) {
        const entry = ((b - min) / (max - min)) * (scale.steps - 1);
        expect(entry, `${ident} ${b}`).toBeCloseTo(Math.round(entry), 6);
        const at = Math.round(entry) * 4;
        expect([...ramp.slice(at, at + 4)]).toEqual([...AIR_QUALITY_COLORS[AIR_QUALITY_TIERS[k + 1]]]);
        expect([...ramp.slice(at - 4, at)]).toEqual([...AIR_QUALITY_COLORS[AIR_QUALITY_TIERS[k]]]);
      }
    }
    // AOD: clear air lets the map through, a continuum up to heavy dust.
    expect(colorAt(COLOR_SCALES.aod550, 0)[3]).toBe(0);
    expect(colorAt(COLOR_SCALES.aod550, 1)[3]).toBe(255);
  });

  it('parses rgb() and rgba() colour texts only', () => {
    expect(parseColor('rgb(1, 2, 3)')).toEqual([1, 2, 3, 255]);
    expect(parseColor('rgba(10,20,30,0.5)')).toEqual([10, 20, 30, 128]);
    expect(() => parseColor('#ff0000')).toThrow(/not rgb/);
    expect(() => parseColor('rgb(300, 0, 0)')).toThrow(/out of range/);
  });
});

describe('the warnings and storms overlays (SPEC §3 capAlerts, hurricanes)', () => {
  it('capAlerts draws the severities in the warning areas\' colours, one class each', () => {
    const scale = RENDER_LAYERS.capAlerts.colorScale;
    for (const severity of CAP_SEVERITIES) {
      expect(colorAt(scale, CAP_SEVERITY_LEVEL[severity]).slice(0, 3), severity).toEqual([...CAP_SEVERITY_COLOURS[severity]]);
    }
  });

  it('both are shown over any product: the warnings alone, the storms over the product\'s wind where it has wind', () => {
    const capAlerts = OVERLAYS.find((o) => o.ident === 'capAlerts')!;
    const hurricanes = OVERLAYS.find((o) => o.ident === 'hurricanes')!;
    expect(isObservationOverlay('capAlerts') && isObservationOverlay('hurricanes')).toBe(true);
    expect(particleLayerOf(capAlerts)).toBeUndefined();
    expect(drawsProductRun(capAlerts, PRODUCTS.gfs)).toBe(false);
    expect(drawsProductRun(hurricanes, PRODUCTS.gfs)).toBe(true);
    expect(colorLayerOf(hurricanes).ident).toBe('wind');
    const waveOnly = Object.values(PRODUCTS).find((p) => !p.overlays.includes('wind'))!;
    expect(drawsProductRun(hurricanes, waveOnly)).toBe(false);
    expect(drawsProductRun(OVERLAYS[0], PRODUCTS.gfs)).toBe(true);
  });
});
