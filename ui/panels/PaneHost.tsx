/**
 * Draws the open windows in their panes (panelModel.ts). A window carries the class `open` from
 * 50 ms after it enters the DOM and `closing` for the 500 ms before it leaves (SPEC §4), so CSS
 * transitions run both ways.
 *
 * The panes follow the window list in a React transition, not as a signal's synchronous update: a
 * window's first render (a table, a diagram) is then sliced into short pieces of work instead of
 * one task that holds the click (issue 16: no main-thread task over 50 ms when a window opens).
 */

import { effect } from '@preact/signals-react';
import { startTransition, useEffect, useState } from 'react';
import type { AppState } from '../state/appState.ts';
import type { Pane } from './panelModel.ts';

const PANES: readonly Pane[] = ['top', 'rhpane', 'center', 'bottom', 'small-bottom-bottom', 'fullscreen-mobile'];

export function PaneHost({ app }: { app: AppState }) {
  const [windows, setWindows] = useState(() => app.panels.windows.peek());
  useEffect(() => effect(() => {
    const now = app.panels.windows.value;
    startTransition(() => setWindows(now));
  }), [app]);
  return (
    <>
      {PANES.map((pane) => {
        const here = windows.filter((w) => w.pane === pane);
        if (!here.length) return null;
        return (
          <div key={pane} className={`pane pane-${pane}`} data-pane={pane}>
            {here.map((w) => {
              const Component = app.panels.component(w.ident);
              if (!Component) return null;
              const classes = ['window', `window-${w.ident}`, w.phase === 'open' ? 'open' : '', w.phase === 'closing' ? 'closing' : '', w.instant ? 'instant' : ''];
              return (
                <section key={w.ident} className={classes.filter(Boolean).join(' ')} data-panel={w.ident} data-phase={w.phase}>
                  <Component app={app} params={w.params} openCount={w.openCount} phase={w.phase} close={() => app.router.closePanel(w.ident)} />
                </section>
              );
            })}
          </div>
        );
      })}
    </>
  );
}
