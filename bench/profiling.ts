/** Reading a DevTools CPU profile and a trace: where main-thread time went (bench/profileOpen.ts, bench/windows.ts with ISOBAR_BENCH_PROFILE). */

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

export function topSelf(profile: Profile, n = 15): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${k}`);
}

export interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { data?: { url?: string; functionName?: string; type?: string } } }

/** For each main-thread task over 50 ms: its length and the longest kinds of work inside it. */
export function longTaskBreakdown(events: TraceEvent[]): string[] {
  const main = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! > 50_000);
  return tasks.map((task) => {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur! && e.name !== 'RunTask');
    const kinds = new Map<string, number>();
    for (const e of inside) {
      const detail = e.args?.data?.url ? ` ${e.args.data.url.split('/').pop()}` : e.args?.data?.type ? ` ${e.args.data.type}` : '';
      const key = `${e.name}${detail}`;
      kinds.set(key, Math.max(kinds.get(key) ?? 0, e.dur! / 1000));
    }
    const top = [...kinds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join('; ');
    return `  task ${(task.dur! / 1000).toFixed(0)} ms: ${top}`;
  });
}


interface TimedProfile extends Profile { startTime: number }

/**
 * The app's functions that ran inside the main thread's tasks over 50 ms, by inclusive time: each
 * profile sample taken within such a task counts once for every distinct function on its stack
 * (the trace's and the profile's clocks are the same monotonic microseconds).
 */
export function longTaskFunctions(events: TraceEvent[], profile: TimedProfile, n = 25): string[] {
  const main = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain');
  const tasks = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.name === 'RunTask' && e.dur! > 50_000);
  if (!tasks.length) return [];
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!tasks.some((task) => t >= task.ts && t <= task.ts + task.dur!)) return;
    const seen = new Set<string>();
    for (let node = byId.get(id); node; node = byId.get(parent.get(node.id) ?? -1)) {
      const f = node.callFrame;
      if (!f.url) continue;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  return [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${k}`);
}

/**
 * The main thread's tasks over `minMs` from the first click the trace holds on, `untilMs` after it: each
 * one's start after the click, length and the longest kinds of work inside it (a timeline of an open).
 */
export function tasksAfterClick(events: TraceEvent[], minMs = 4, untilMs = 1200): string[] {
  const main = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur !== undefined);
  const click = onMain.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  const from = click ? click.ts : onMain[0]?.ts ?? 0;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts >= from - 50_000 && e.ts <= from + untilMs * 1000 && e.dur! >= minMs * 1000);
  return tasks.map((task) => {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur! && e.name !== 'RunTask');
    const kinds = new Map<string, number>();
    for (const e of inside) {
      const detail = e.args?.data?.url ? ` ${e.args.data.url.split('/').pop()}` : e.args?.data?.type ? ` ${e.args.data.type}` : '';
      const key = `${e.name}${detail}`;
      kinds.set(key, Math.max(kinds.get(key) ?? 0, e.dur! / 1000));
    }
    const top = [...kinds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join('; ');
    return `  +${((task.ts - from) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(0)} ms  ${top}`;
  });
}
