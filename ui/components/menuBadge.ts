/**
 * The number on the menu button's badge (SPEC §3 "Notification: newCount (shown as badge
 * number)"; settings key badgeNumber): none at 0, the count up to 99, then "99+" so the badge
 * keeps its size.
 */

/** The largest count the badge writes out. */
export const BADGE_MAX = 99;

/** The badge's text, or null when there is no badge. */
export function badgeText(count: number): string | null {
  if (!Number.isFinite(count) || count < 1) return null;
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(Math.floor(count));
}
