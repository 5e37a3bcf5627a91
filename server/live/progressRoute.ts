/**
 * GET LIVE_PROGRESS_PATH (common/api/liveProgress.ts): the runs the live sources are fetching now,
 * from the scheduler's LiveProgress, or in a web process from what the ingest processes wrote to
 * the store (sharedProgress.ts); an empty list when nothing arrives or no source runs.
 * `pending` while the default set's probe or a source's first look upstream has not ended.
 */

import type { FastifyInstance } from 'fastify';
import { LIVE_PROGRESS_ANSWER, LIVE_PROGRESS_PATH, type LiveProgressAnswer } from '../../common/api/liveProgress.ts';
import { hourStamp } from '../../common/minifest.ts';
import type { LiveProgress, RunProgress } from './progress.ts';

const schema = { response: { 200: LIVE_PROGRESS_ANSWER } } as const;

export interface LiveProgressRouteOptions {
  progress: () => LiveProgress | null;
  probing: () => boolean;
  /** The runs other processes fetch (a web process); default: those of `progress`. */
  stored?: () => Promise<RunProgress[]>;
}

export async function liveProgressRoutes(app: FastifyInstance, options: LiveProgressRouteOptions): Promise<void> {
  app.get(LIVE_PROGRESS_PATH, { schema }, async (_request, reply): Promise<LiveProgressAnswer> => {
    reply.header('cache-control', 'no-store');
    const progress = options.progress();
    const runs = options.stored ? await options.stored() : progress?.list() ?? [];
    return {
      pending: options.probing() || (progress?.pending ?? false),
      runs: runs.map((run) => ({ ident: run.product, ref: hourStamp(run.refTime), done: run.built, total: run.total, served: run.served })),
    };
  });
}
