/**
 * The settings store's errors (SPEC §5: "an invalid stored value falls back to default and an
 * error is logged"; SPEC §8: local database open errors and blocked states) for the error reporter
 * too. They happen at boot, before the reporter loads (it is lazy: services/appServices.ts), so they
 * are logged at once and kept here until it takes them; from then on they go straight to it.
 * Small on purpose: it is part of the start-up bundle.
 */

/** Errors kept for a reporter that never comes (a page that fails before it loads). */
const MAX_PENDING = 50;

type Sink = (message: string) => void;

const pending: string[] = [];
let sink: Sink | null = null;

/** Logs a settings store error and passes it on to the error reporter (now or once it loads). */
export function logSettingsError(message: string, error?: unknown): void {
  if (error === undefined) console.error(message);
  else console.error(message, error);
  const text = error === undefined ? message : `${message}: ${String(error)}`;
  if (sink) sink(text);
  else if (pending.length < MAX_PENDING) pending.push(text);
}

/** Hands the errors so far, and every later one, to `report`; returns the remover. */
export function reportSettingsErrors(report: Sink): () => void {
  sink = report;
  for (const message of pending.splice(0)) report(message);
  return () => {
    if (sink === report) sink = null;
  };
}
