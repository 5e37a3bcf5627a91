/**
 * Runs on their way from the live sources (server/live/progress.ts) — the contract of
 * server/live/progressRoute.ts and the model picker's "GFS 12Z: 24 of 129 steps" with the desktop
 * progress bar (SPEC §2, ui/components/RunProgressBar.tsx):
 *
 *   GET /metadata/v1.0/progress.json   -> LiveProgressAnswer (not cached)
 *
 * The UI asks again every LIVE_PROGRESS_POLL_MS while a run arrives or `pending` is set, and
 * seldom otherwise.
 */

import { SECOND_MS } from '../time.ts';
import type { Infer } from './schema.ts';

export const LIVE_PROGRESS_PATH = '/metadata/v1.0/progress.json';

/** How often the UI asks while a run arrives: a step of a 0.25° model lands every few seconds on a home connection. */
export const LIVE_PROGRESS_POLL_MS = 5 * SECOND_MS;

export const LIVE_RUN_PROGRESS = {
  type: 'object',
  required: ['ident', 'ref', 'done', 'total', 'served'],
  properties: {
    /** Catalogue product ident. */
    ident: { type: 'string' },
    /** Reference time of the run arriving, YYYYMMDDHH. */
    ref: { type: 'string' },
    /** Steps built so far. */
    done: { type: 'integer', minimum: 0 },
    /** Steps of the run. */
    total: { type: 'integer', minimum: 0 },
    /** Steps of this run served now (the first run of a product is served step by step; later runs when complete). */
    served: { type: 'integer', minimum: 0 },
  },
} as const;
export type LiveRunProgress = Infer<typeof LIVE_RUN_PROGRESS>;

export const LIVE_PROGRESS_ANSWER = {
  type: 'object',
  required: ['runs'],
  properties: {
    runs: { type: 'array', items: LIVE_RUN_PROGRESS },
    /** The server is still looking upstream for its first runs: ask again soon even with no run arriving. */
    pending: { type: 'boolean' },
  },
} as const;
export type LiveProgressAnswer = Infer<typeof LIVE_PROGRESS_ANSWER>;
