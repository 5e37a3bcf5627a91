/**
 * Reader of MeteoAlarm's Atom feeds (feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-{country}):
 * one Atom 1.0 feed (RFC 4287) per country whose entries summarise the country's active CAP 1.2
 * warnings with cap:-prefixed elements (cap:identifier, cap:sent, cap:message_type, cap:severity,
 * cap:expires...) and link to the full CAP message with a <link type="application/cap+xml">
 * (MeteoAlarm "Feeds" documentation, https://feeds.meteoalarm.org, and the EUMETNET MeteoAlarm
 * "Guide to the use of CAP"). The source fetches each linked CAP once (identifiers are unique) and
 * reads it with cap.ts; the feed itself says which warnings are still active.
 *
 * No MeteoAlarm feed is among the recorded fixtures: this reader follows those documents, and its
 * test builds a feed from them.
 */

import { CapFormatError, xmlParser } from './cap.ts';

export interface MeteoAlarmEntry {
  /** The entry's Atom id. */
  id: string;
  /** cap:identifier (CAP §3.2.1). */
  identifier: string;
  /** The full CAP message. */
  capUrl: string;
  /** Atom updated, ms. */
  updated: number;
}

type Node = Record<string, unknown>;
const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return text((value as Node)['#text']);
  return String(value).trim();
};
const list = (value: unknown): Node[] => (Array.isArray(value) ? value as Node[] : value === undefined || value === '' ? [] : [value as Node]);

/** The entries of a feed; an entry without an identifier or a CAP link is refused by name. */
export function parseMeteoAlarmAtom(xml: string, baseUrl: string): { entries: MeteoAlarmEntry[]; errors: { id: string; reason: string }[] } {
  let tree: Node;
  try {
    tree = xmlParser.parse(xml, true) as Node;
  } catch (error) {
    throw new CapFormatError(`MeteoAlarm feed: not well-formed XML: ${(error as Error).message.split('\n')[0]}`);
  }
  const feed = tree.feed as Node | undefined;
  if (!feed || typeof feed !== 'object') throw new CapFormatError('MeteoAlarm feed: no Atom <feed> element');
  const entries: MeteoAlarmEntry[] = [];
  const errors: { id: string; reason: string }[] = [];
  for (const entry of list(feed.entry)) {
    const id = text(entry.id);
    const identifier = text(entry.identifier);
    const link = list(entry.link).find((l) => text(l['@type']) === 'application/cap+xml');
    const href = link ? text(link['@href']) : '';
    const updated = Date.parse(text(entry.updated));
    if (!identifier) errors.push({ id: id || '(no id)', reason: 'entry lacks cap:identifier' });
    else if (!href) errors.push({ id: identifier, reason: 'entry has no link of type application/cap+xml' });
    else entries.push({ id: id || identifier, identifier, capUrl: new URL(href, baseUrl).href, updated: Number.isFinite(updated) ? updated : 0 });
  }
  return { entries, errors };
}
