/**
 * A grid index of areas by their bounding boxes (1° cells over -180..180, -90..90): the point
 * route asks which areas' boxes hold a place, then tests only those exactly (common/capAlerts.ts).
 * Warning areas are counties and zones, a few cells each; a box wider than 90° (a whole-country
 * circle or a malformed polygon) goes in a list every query sees instead of thousands of cells.
 */

import { areaBounds, type CapArea } from '../../../common/capAlerts.ts';

const CELL_DEG = 1;
const COLUMNS = 360 / CELL_DEG;
const ROWS = 180 / CELL_DEG;
const WIDE_DEG = 90;

const column = (lon: number): number => Math.min(COLUMNS - 1, Math.max(0, Math.floor((lon + 180) / CELL_DEG)));
const row = (lat: number): number => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEG)));

export class AreaIndex<T> {
  private readonly cells = new Map<number, T[]>();
  private readonly wide: T[] = [];
  size = 0;

  insert(area: CapArea, value: T): void {
    const [west, south, east, north] = areaBounds(area);
    if (!(west <= east && south <= north)) return; // no geometry
    this.size++;
    if (east - west > WIDE_DEG || north - south > WIDE_DEG) {
      this.wide.push(value);
      return;
    }
    for (let r = row(south); r <= row(north); r++) {
      for (let c = column(west); c <= column(east); c++) {
        const key = r * COLUMNS + c;
        const list = this.cells.get(key);
        if (list) list.push(value);
        else this.cells.set(key, [value]);
      }
    }
  }

  /** Values whose box may hold the place (lon in -180..180). */
  candidates(lon: number, lat: number): T[] {
    return [...(this.cells.get(row(lat) * COLUMNS + column(lon)) ?? []), ...this.wide];
  }
}
