/**
 * Where main-thread time goes (a diagnosis aid, not a benchmark): at a CPU throttling rate, opens the
 * map, lets it animate, pans it and opens the point forecast while the DevTools CPU profiler runs, and prints the
 * long tasks and the functions with the most self time in each phase.
 *
 *   npx tsx bench/profileOpen.ts <baseUrl> [rate]
 *
 * Phases: start-up (long tasks only), animating (5 s from when the view is drawn), panning, opening the point forecast.
 */

import { chromium, type CDPSession } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { openForecast, panAround, watchLongTasks } from './frames.ts';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

function topSelf(profile: Profile, n = 15): string[] {
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

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { data?: { url?: string; functionName?: string; type?: string } } }

/** For each main-thread task over 50 ms: its length and the longest kinds of work inside it. */
function longTaskBreakdown(events: TraceEvent[]): string[] {
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

async function phase(cdp: CDPSession, name: string, run: () => Promise<void>, readTasks: () => Promise<number[]>): Promise<void> {
  const before = (await readTasks()).length;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', '__metadata'] });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = await cdp.send('Profiler.stop') as unknown as { profile: Profile };
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const tasks = (await readTasks()).slice(before);
  console.log(`\n== ${name}: long tasks ${tasks.map((t) => Math.round(t)).join(', ') || 'none'}`);
  for (const line of longTaskBreakdown(trace.traceEvents)) console.log(line);
  for (const line of topSelf(profile)) console.log(line);
}

const [baseUrl = 'http://127.0.0.1:8300', rateText = '4'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
const page = await context.newPage();
await watchLongTasks(page);
const readTasks = () => page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rateText) });
await page.goto(`${baseUrl}/?45.000,-30.000,3`, { waitUntil: 'commit' });
await page.waitForFunction(() => performance.getEntriesByName('isobar:first-particles').length > 0, undefined, { timeout: 60_000, polling: 50 });
console.log(`start-up long tasks: ${(await readTasks()).map((t) => Math.round(t)).join(', ')}`);
// As the frame harness measures 'animating': from when the view's tiles are in and 30 frames drawn.
await page.waitForFunction(async () => {
  const s = await (window as unknown as { isobar: { render(): { stats(): Promise<{ tiles: { loading: number }; frames: number }> } } }).isobar.render().stats();
  return s.tiles.loading === 0 && s.frames > 30;
}, undefined, { timeout: 30_000, polling: 200 });
await phase(cdp, 'animating', () => page.waitForTimeout(5000), readTasks);
await phase(cdp, 'panning', () => panAround(page), readTasks);
await phase(cdp, 'opening the point forecast', () => openForecast(page), readTasks);
await browser.close();
