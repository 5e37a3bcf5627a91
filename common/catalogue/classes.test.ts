import { describe, expect, it } from 'vitest';
import { aqiClass, fogClass, precipitationType, snowDepthText, uvClass } from './classes.ts';
import { beaufort, METRICS } from './metrics.ts';

describe('SPEC §9 classes', () => {
  it.each<[number, string]>([
    [0, 'none'], [0.5, 'low'], [2, 'low'], [2.1, 'moderate'], [5, 'moderate'], [6, 'high'], [7, 'high'], [8, 'veryHigh'], [10, 'veryHigh'], [10.5, 'extreme'], [14, 'extreme'],
  ])('UV %s is %s', (index, cls) => expect(uvClass(index)).toBe(cls));

  it.each<[number, string]>([[0, 'none'], [0.7, 'none'], [0.71, 'fog'], [1, 'fog'], [1.01, 'rimeFog']])('fog %s is %s', (v, cls) => expect(fogClass(v)).toBe(cls));

  it.each<[number, string]>([
    [0, 'good'], [50, 'good'], [51, 'moderate'], [100, 'moderate'], [101, 'unhealthySensitive'], [150, 'unhealthySensitive'],
    [151, 'unhealthy'], [200, 'unhealthy'], [201, 'veryUnhealthy'], [300, 'veryUnhealthy'], [301, 'hazardous'], [500, 'hazardous'],
  ])('AQI %s is %s', (aqi, cls) => expect(aqiClass(aqi)).toBe(cls));

  it.each<[number, number]>([
    [0, 0], [0.29, 0], [0.3, 1], [1.5, 2], [3.3, 3], [5.5, 4], [7.99, 4], [8, 5], [10.8, 6], [13.9, 7], [17.2, 8], [20.7, 9], [24.5, 10], [28.4, 11], [32.6, 12], [60, 12],
  ])('%s m/s is Beaufort %s', (ms, force) => expect(beaufort(ms)).toBe(force));

  it.each<[string, string, number, number]>([
    ['wind', 'kt', 10, 19.43844], ['wind', 'km/h', 10, 36], ['wind', 'mph', 10, 22.36936],
    ['temp', '°C', 273.15, 0], ['temp', '°F', 273.15, 32],
    ['pressure', 'hPa', 101325, 1013.25], ['pressure', 'mmHg', 101325, 101325 / 133.322], ['pressure', 'inHg', 101325, 101325 / 3386.389],
  ])('%s: base %s converts to %s', (metric, unit, base, shown) => {
    const conv = METRICS[metric].conv[unit];
    expect(conv.to(base)).toBeCloseTo(shown, 4);
    expect(conv.from(conv.to(base))).toBeCloseTo(base, 4);
  });

  it('precipitation types and snow depth', () => {
    expect(precipitationType(0)).toBe('rain');
    expect(precipitationType(5)).toBe('snow');
    expect(precipitationType(11)).toBe('heavyThunder');
    expect(precipitationType(12)).toBeNull();
    expect(precipitationType(1.5)).toBeNull();
    expect(snowDepthText(491).moreThan5m).toBe(true);
    expect(snowDepthText(490).moreThan5m).toBe(false);
  });
});
