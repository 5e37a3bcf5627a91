import { describe, expect, it } from 'vitest';
import { MENU_TOPICS, filterLists } from './menuFilters.ts';
import { OVERLAYS, UNSOURCED_OVERLAYS } from './overlays.ts';

describe('the mobile layer menu filters (SPEC §3 mobileMenuFilter)', () => {
  it('list every overlay of the catalogue under some topic, and only overlays of the catalogue', () => {
    const idents = [...OVERLAYS, ...UNSOURCED_OVERLAYS].map((o) => o.ident);
    const topics = Object.values(MENU_TOPICS).flat();
    expect(idents.filter((i) => !topics.includes(i))).toEqual([]);
    expect(topics.filter((i) => !idents.includes(i))).toEqual([]);
  });

  it('all lists everything; a topic its overlays; search the names holding every typed word, accents aside', () => {
    expect(filterLists('all', 'sst', 'Sea temperature', '')).toBe(true);
    expect(filterLists('sea', 'sst', 'Sea temperature', '')).toBe(true);
    expect(filterLists('wind', 'sst', 'Sea temperature', '')).toBe(false);
    expect(filterLists('warnings', 'capAlerts', 'Weather warnings', '')).toBe(true);
    expect(filterLists('warnings', 'hurricanes', 'Hurricane tracker', '')).toBe(true);
    expect(filterLists('search', 'temp', 'Température', 'temperat')).toBe(true);
    expect(filterLists('search', 'dewpoint', 'Point de rosée', 'rosee point')).toBe(true);
    expect(filterLists('search', 'dewpoint', 'Point de rosée', 'vent')).toBe(false);
    // The ident is searched too (what the address shows).
    expect(filterLists('search', 'pm2p5', 'PM2.5', 'pm2p5')).toBe(true);
  });
});
