/**
 * What the live sources are fetching now, for the UI (common/api/liveProgress.ts): per source, the
 * run on its way and how many of its steps are downloaded, built and served. The scheduler writes
 * it; GET LIVE_PROGRESS_PATH reads it. In memory: a restarted server starts empty and fills again
 * as its first round resumes.
 */

export interface RunProgress {
  /** Live source id (`gfs`). */
  source: string;
  /** Catalogue product ident. */
  product: string;
  refTime: number;
  /** Steps of the run. */
  total: number;
  /** Steps whose file is on disk. */
  downloaded: number;
  /** Steps built into the run's staging directory. */
  built: number;
  /** Steps users see: the run is published step by step (the first run) or not yet at all (0). */
  served: number;
}

export class LiveProgress {
  private readonly runs = new Map<string, RunProgress>();
  /** Sources whose first look upstream has not ended. */
  private readonly looking = new Set<string>();

  /** A source's first look upstream begins (true) or ends (false). */
  setLooking(source: string, looking: boolean): void {
    if (looking) this.looking.add(source);
    else this.looking.delete(source);
  }

  /** Whether some source has not yet found out what there is to fetch. */
  get pending(): boolean {
    return this.looking.size > 0;
  }

  /** A run starts arriving. */
  start(run: Omit<RunProgress, 'downloaded' | 'built' | 'served'>): void {
    this.runs.set(run.source, { ...run, downloaded: 0, built: 0, served: 0 });
  }

  update(source: string, patch: Partial<Pick<RunProgress, 'downloaded' | 'built' | 'served'>>): void {
    const run = this.runs.get(source);
    if (run) Object.assign(run, patch);
  }

  /** The source's run has arrived, or its round ended without it. */
  end(source: string): void {
    this.runs.delete(source);
  }

  list(): RunProgress[] {
    return [...this.runs.values()].map((run) => ({ ...run }));
  }
}
