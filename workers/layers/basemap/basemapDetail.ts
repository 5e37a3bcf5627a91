/**
 * The Natural Earth 10m detail of the offline map (assets/basemap/build.ts): region cells listed in
 * /generated/basemap/10m/index.json with the extent of their content. From zoom 5
 * (BASEMAP_10M_FROM_ZOOM) the cells a view touches are fetched; once all of them are in, they
 * are drawn instead of the whole-world 50m map. Cells stay once loaded (the whole 10m is ~7.4 MB).
 */

import { decodeBasemap, type Basemap, type BasemapCellIndex } from '../../../common/basemap.ts';
import { BASEMAP_10M_FROM_ZOOM } from '../../../common/basemapStyles.ts';
import type { FrameTransform } from '../../gl/transform.ts';

type Extent = BasemapCellIndex['cells'][number];

/** The cells whose content extent meets the view in some world copy. */
export function cellsInView(cells: readonly Extent[], t: FrameTransform): Extent[] {
  const halfW = t.width / 2 / t.worldPx;
  const halfH = t.height / 2 / t.worldPx;
  const [cx, cy] = t.center;
  return cells.filter((cell) => {
    if (cell.y1 < cy - halfH || cell.y0 > cy + halfH) return false;
    // Shift the view by whole worlds to the copies that could meet the cell.
    for (let k = Math.floor(cx - halfW - cell.x1); k <= Math.ceil(cx + halfW - cell.x0); k++) {
      if (cell.x0 + k <= cx + halfW && cell.x1 + k >= cx - halfW) return true;
    }
    return false;
  });
}

export interface BasemapDetail {
  /** The decoded cells of the view if the view is at the 10m zooms and all of them are in; else null (the 50m map shows). */
  cellsFor(t: FrameTransform): Basemap[] | null;
  /** Fetches under way (the index and cells): a render test waits for none. */
  loading(): number;
}

export function createBasemapDetail(options: { origin: string; onChange: () => void; onError: (message: string) => void }): BasemapDetail {
  let index: BasemapCellIndex | null = null;
  let indexAsked = false;
  const cells = new Map<string, Basemap | 'loading' | 'failed'>();
  let indexLoading = false;

  const fetchBytes = async (path: string) => {
    const response = await fetch(`${options.origin}/generated/basemap/10m/${path}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response;
  };

  return {
    cellsFor(t) {
      if (t.view.zoom < BASEMAP_10M_FROM_ZOOM) return null;
      if (!index) {
        if (!indexAsked) {
          indexAsked = true;
          indexLoading = true;
          fetchBytes('index.json').then(async (response) => {
            index = await response.json() as BasemapCellIndex;
            options.onChange();
          }).catch((error: unknown) => options.onError(`Basemap 10m index failed to load: ${(error as Error).message}`))
            .finally(() => {
              indexLoading = false;
            });
        }
        return null;
      }
      const wanted = cellsInView(index.cells, t);
      const out: Basemap[] = [];
      let missing = false;
      for (const { id } of wanted) {
        const cell = cells.get(id);
        if (cell && cell !== 'loading' && cell !== 'failed') {
          out.push(cell);
          continue;
        }
        if (cell === 'failed') return null;
        missing = true;
        if (cell) continue;
        cells.set(id, 'loading');
        fetchBytes(`${id}.bin`).then(async (response) => {
          cells.set(id, decodeBasemap(await response.arrayBuffer()));
          options.onChange();
        }).catch((error: unknown) => {
          cells.set(id, 'failed');
          options.onError(`Basemap 10m cell ${id} failed to load: ${(error as Error).message}`);
        });
      }
      return missing ? null : out;
    },
    loading: () => (indexLoading ? 1 : 0) + [...cells.values()].filter((c) => c === 'loading').length,
  };
}
