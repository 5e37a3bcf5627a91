import { describe, expect, it } from 'vitest';
import { eeaBand, europeanAqiFrom } from './europeanAqi.ts';

describe('EEA European Air Quality Index', () => {
  it('bands each pollutant as the EEA table does (upper limits inclusive)', () => {
    expect(eeaBand('pm2p5', 10)).toBe(1);
    expect(eeaBand('pm2p5', 10.1)).toBe(2);
    expect(eeaBand('pm2p5', 80)).toBe(6);
    expect(eeaBand('pm10', 45)).toBe(3);
    expect(eeaBand('no2', 230)).toBe(4);
    expect(eeaBand('o3', 381)).toBe(6);
    expect(eeaBand('so2', 600)).toBe(5);
    expect(eeaBand('o3', NaN)).toBeNaN();
  });

  it('is the worst band of the pollutants given, ignoring missing ones', () => {
    const aqi = europeanAqiFrom({ pm2p5: Float32Array.of(5, 30, NaN), pm10: Float32Array.of(45, 10, NaN), o3: Float32Array.of(20, 20, 120) });
    expect([...aqi]).toEqual([3, 4, 3]);
  });
});
