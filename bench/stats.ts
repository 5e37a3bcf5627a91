/** Statistics shared by the benchmarks. */

/** The median of the values (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor took (steal). */
export interface CpuTimes {
  total: number;
  steal: number;
}

/**
 * Reads the aggregate `cpu` line of /proc/stat (Linux): user nice system idle iowait irq softirq
 * steal ...; null where there is none. Steal is time a virtual machine's CPUs were ready to run
 * but the host ran something else: a run in which it is high measured a slower machine.
 */
export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return null;
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] };
}

/** Share of the CPU time between two readings that was stolen, or null without both. */
export function stolenShare(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.steal - before.steal) / (after.total - before.total);
}
