import { describe, expect, it } from 'vitest';
import { labelFits, type Box } from './labelObstacles.ts';

const VIEW = { width: 1280, height: 720 };
const TOP_BAR: Box = { left: 10, top: 10, right: 955, bottom: 40 };
const TIMELINE: Box = { left: 10, top: 660, right: 1270, bottom: 710 };

describe('where a city label may be drawn (issue 12 §3 item 2)', () => {
  it('wholly inside the view: a label cut by an edge is left out', () => {
    expect(labelFits(640, 360, 60, 32, VIEW, [])).toBe(true);
    expect(labelFits(20, 360, 60, 32, VIEW, [])).toBe(false);
    expect(labelFits(30, 360, 60, 32, VIEW, [])).toBe(true);
    expect(labelFits(1260, 360, 60, 32, VIEW, [])).toBe(false);
    expect(labelFits(640, 10, 60, 32, VIEW, [])).toBe(false);
    expect(labelFits(640, 710, 60, 32, VIEW, [])).toBe(false);
  });

  it('never under the top bar or the timeline', () => {
    expect(labelFits(400, 45, 60, 32, VIEW, [TOP_BAR, TIMELINE])).toBe(false);
    expect(labelFits(400, 57, 60, 32, VIEW, [TOP_BAR, TIMELINE])).toBe(true);
    expect(labelFits(400, 650, 60, 32, VIEW, [TOP_BAR, TIMELINE])).toBe(false);
    expect(labelFits(400, 643, 60, 32, VIEW, [TOP_BAR, TIMELINE])).toBe(true);
    // Right of the top bar's last control the map is free.
    expect(labelFits(1000, 30, 60, 32, VIEW, [TOP_BAR, TIMELINE])).toBe(true);
  });
});
