/**
 * The active alerts from a batch of CAP messages (CAP 1.2 §3.2.1): messages are applied in the
 * order they were sent; an Update replaces the messages it references, a Cancel removes them.
 * Alerts that are not shown are dropped with a reason the source logs: not Actual (exercises,
 * tests, drafts), not Public, no expiry time, expired, or no area with a polygon or circle.
 */

import type { CapAlert } from '../../../common/capAlerts.ts';
import type { CapMessage } from './cap.ts';

export interface DroppedAlert {
  id: string;
  reason: string;
}

export function activeAlerts(messages: readonly CapMessage[], now: number): { alerts: CapAlert[]; dropped: DroppedAlert[] } {
  const dropped: DroppedAlert[] = [];
  /** Shown alerts by their message's id (a message may show several segments). */
  const active = new Map<string, CapAlert[]>();
  const replaced = new Set<string>();
  const ordered = [...messages].sort((a, b) => a.sent - b.sent);
  for (const message of ordered) {
    // An Update or Cancel ends what it references, whether or not it is shown itself.
    if (message.msgType !== 'Alert') {
      for (const ref of message.references) {
        const id = `${ref.sender},${ref.identifier}`;
        replaced.add(id);
        for (const alert of active.get(id) ?? []) dropped.push({ id: alert.id, reason: `${message.msgType === 'Cancel' ? 'cancelled' : 'updated'} by ${message.id}` });
        active.delete(id);
      }
    }
    const messageReason = message.status !== 'Actual' ? `status ${message.status || '(none)'}: not an actual alert`
      : message.scope !== 'Public' ? `scope ${message.scope || '(none)'}: not public`
        : message.msgType === 'Cancel' ? 'a Cancel message'
          : replaced.has(message.id) ? 'replaced by a later Update or Cancel'
            : null;
    const shown: CapAlert[] = [];
    for (const { alert, expiresMissing } of message.segments) {
      const areas = alert.areas.filter((area) => area.polygons.length > 0 || area.circles.length > 0);
      const reason = messageReason
        ?? (expiresMissing ? 'no <expires>: its end is unknown'
          : alert.expires <= now ? `expired at ${new Date(alert.expires).toISOString()}`
            : areas.length === 0 ? 'no area with a polygon or circle'
              : null);
      if (reason !== null) dropped.push({ id: alert.id, reason });
      else shown.push({ ...alert, areas });
    }
    if (shown.length > 0) active.set(message.id, shown);
  }
  return { alerts: [...active.values()].flat(), dropped };
}
