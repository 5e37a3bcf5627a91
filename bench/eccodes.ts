/**
 * The ecCodes baseline of the GRIB2 decode bench (issue 3; STYLE.md habit 10): the same messages
 * decoded by ecCodes in the same run, so our figure is also a ratio. ecCodes is Debian's build,
 * timed from Python by bench/eccodes-decode.py (decode only: no interpreter start-up, file read or
 * handle creation in the loop). When python3-eccodes is absent it is installed with apt-get (as
 * root, else through `sudo -n`); when that is impossible the bench goes on and reports why.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

const SCRIPT = fileURLToPath(new URL('./eccodes-decode.py', import.meta.url));
/** Debian's python3-eccodes installs for the system interpreter, not for a pyenv or venv one first on PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const PACKAGES = ['libeccodes-tools', 'python3-eccodes'];
const APT_TIMEOUT_MS = 600_000;

export interface EccodesTiming {
  medianMs: number;
  samples: number;
}

export interface EccodesFileResult {
  numberOfValues: number;
  packingType: string;
  /** codes_get_values: allocates the output on each call, as decodeField() does. */
  allocating: EccodesTiming;
  /** The C call into an array allocated once: the strict decode-only time (absent if the bindings lack it). */
  preallocated?: EccodesTiming;
}

export type EccodesReport =
  | { available: true; version: string; results: Map<string, EccodesFileResult | { error: string }> }
  | { available: false; reason: string };

/** The key of one message in the report: the path and 0-based message index. */
export const messageKey = (path: string, message: number) => `${path}:${message}`;

const lastLine = (text: string) => text.trim().split('\n').filter(Boolean).at(-1) ?? '';

function errorText(error: unknown): string {
  const e = error as { stderr?: string; message?: string; code?: unknown };
  return lastLine(e.stderr ?? '') || lastLine(e.message ?? '') || String(error);
}

async function hasEccodes(): Promise<boolean> {
  try {
    await run(PYTHON, ['-c', 'import eccodes, numpy; eccodes.codes_get_api_version()'], { timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

/** apt-get, as root or through passwordless sudo; throws with the reason when neither is possible. */
async function aptGet(args: string[]): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options = { env, timeout: APT_TIMEOUT_MS, maxBuffer: 64 << 20 };
  if (process.getuid?.() === 0) {
    await run('apt-get', args, options);
    return;
  }
  try {
    await run('sudo', ['-n', 'apt-get', ...args], options);
  } catch (error) {
    throw new Error(`not root, and sudo -n apt-get failed (${errorText(error)})`, { cause: error });
  }
}

let ensured: Promise<string | null> | null = null;

/** Installs ecCodes when absent (once per process); null when it is there, else the reason it cannot be. */
function ensureEccodes(): Promise<string | null> {
  ensured ??= installEccodes();
  return ensured;
}

async function installEccodes(): Promise<string | null> {
  if (await hasEccodes()) return null;
  console.log(`[bench/eccodes] installing ${PACKAGES.join(' ')} with apt-get`);
  const install = ['install', '-y', '--no-install-recommends', ...PACKAGES];
  try {
    await aptGet(install);
  } catch (first) {
    // A fresh image may have no package lists yet.
    try {
      await aptGet(['update']);
      await aptGet(install);
    } catch (second) {
      return `apt-get install ${PACKAGES.join(' ')} failed: ${errorText(second) || errorText(first)}`;
    }
  }
  return (await hasEccodes()) ? null : `${PYTHON} cannot import eccodes after installing ${PACKAGES.join(' ')}`;
}

/**
 * ecCodes' decode times of the given messages, or why ecCodes could not be measured. Each call is
 * one Python process; its start-up is outside the timed loops.
 */
export async function runEccodesBench(messages: { path: string; message: number }[], minTimeMs = 1000): Promise<EccodesReport> {
  const reason = await ensureEccodes();
  if (reason) return { available: false, reason };
  try {
    const { stdout } = await run(PYTHON, [SCRIPT, String(minTimeMs), ...messages.map((m) => messageKey(m.path, m.message))], {
      timeout: 600_000, maxBuffer: 16 << 20,
    });
    const parsed = JSON.parse(stdout) as { version: string; results: Record<string, EccodesFileResult | { error: string }> };
    return { available: true, version: parsed.version, results: new Map(Object.entries(parsed.results)) };
  } catch (error) {
    return { available: false, reason: `${SCRIPT} failed: ${errorText(error)}` };
  }
}
