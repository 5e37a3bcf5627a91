/**
 * Lengths of time in milliseconds, once for the whole codebase (server, workers, UI and tests).
 * Times are ms since the epoch everywhere (SPEC §3 timestamps are converted at the edge).
 */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
