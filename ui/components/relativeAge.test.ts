import { describe, expect, it } from 'vitest';
import { relativeAge } from './relativeAge.ts';

describe('relativeAge', () => {
  const now = Date.UTC(2026, 0, 1);
  it.each([
    [30_000, '30 seconds ago'],
    [3 * 60_000, '3 minutes ago'],
    [5 * 3_600_000, '5 hours ago'],
    [3 * 86_400_000, '3 days ago'],
    [8 * 365.25 * 86_400_000, '8 years ago'],
  ])('%i ms ago reads "%s" in English', (ago, text) => {
    expect(relativeAge(now - ago, now, 'en')).toBe(text);
  });
  it('speaks the language asked for', () => {
    expect(relativeAge(now - 3 * 60_000, now, 'de')).toBe('vor 3 Minuten');
  });
});
