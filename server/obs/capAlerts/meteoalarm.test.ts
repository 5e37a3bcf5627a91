import { describe, expect, it } from 'vitest';
import { CapFormatError } from './cap.ts';
import { parseMeteoAlarmAtom } from './meteoalarm.ts';

/**
 * No MeteoAlarm feed is among the recorded fixtures: this feed is written for the test from Atom 1.0
 * (RFC 4287) and MeteoAlarm's documented legacy-atom entries (cap: elements, a link of type
 * application/cap+xml). It is not a recorded upstream answer.
 */
const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
  <id>https://feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-austria</id>
  <title>MeteoAlarm Austria</title>
  <updated>2024-03-01T10:00:00Z</updated>
  <entry>
    <id>https://feeds.meteoalarm.org/api/v1/warnings/feeds-austria/abc/2024-03-01T09:00:00Z</id>
    <title>Yellow Wind Warning issued for Austria - Tirol</title>
    <updated>2024-03-01T09:00:00Z</updated>
    <cap:identifier>2.49.0.0.40.0.AT.240301090000.1</cap:identifier>
    <cap:message_type>Alert</cap:message_type>
    <cap:severity>Moderate</cap:severity>
    <cap:geocode><valueName>EMMA_ID</valueName><value>AT007</value></cap:geocode>
    <link href="https://feeds.meteoalarm.org/api/v1/warnings/feeds-austria/abc" hreflang="en" rel="related" type="application/cap+xml"/>
  </entry>
  <entry>
    <id>https://feeds.meteoalarm.org/api/v1/warnings/feeds-austria/def/2024-03-01T09:00:00Z</id>
    <updated>2024-03-01T09:00:00Z</updated>
    <cap:identifier>2.49.0.0.40.0.AT.240301090000.2</cap:identifier>
    <link href="https://example.org/page.html" type="text/html"/>
  </entry>
</feed>`;

describe('MeteoAlarm Atom reader', () => {
  it('lists entries with their CAP links and names the entries it cannot use', () => {
    const { entries, errors } = parseMeteoAlarmAtom(FEED, 'https://feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-austria');
    expect(entries).toEqual([{
      id: 'https://feeds.meteoalarm.org/api/v1/warnings/feeds-austria/abc/2024-03-01T09:00:00Z',
      identifier: '2.49.0.0.40.0.AT.240301090000.1',
      capUrl: 'https://feeds.meteoalarm.org/api/v1/warnings/feeds-austria/abc',
      updated: Date.UTC(2024, 2, 1, 9),
    }]);
    expect(errors).toEqual([{ id: '2.49.0.0.40.0.AT.240301090000.2', reason: 'entry has no link of type application/cap+xml' }]);
  });

  it('refuses what is not an Atom feed', () => {
    expect(() => parseMeteoAlarmAtom('<rss></rss>', 'https://x/')).toThrow(/no Atom <feed>/);
    expect(() => parseMeteoAlarmAtom('<feed><entry></feed>', 'https://x/')).toThrow(CapFormatError);
  });
});
