/**
 * Where a city label may be drawn (issue 12 §3 item 2): wholly inside the map's view, and clear of
 * the controls drawn over the map — the top bar, the timeline and what sits above it, the overlay
 * menu and the right column (isolines, level selector, accumulation range). A label that would be cut by the view's edge or hidden
 * under a control is left out instead.
 *
 * The controls' boxes are measured when something may have moved them (a control appears, goes,
 * changes class or size, the window resizes), not on every frame: reading boxes forces a layout.
 */

/** A box in the map element's coordinates, CSS px. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The map's own controls: each matching element's box is an obstacle for labels. Windows (panes)
 * and banners are not: they come and go over the map, and the labels under them stay put.
 */
const LABEL_OBSTACLES = 'header.topbar > *, .bottom > *, .overlay-menu, .map-controls-right > *';

/** Whether a label box centred at (x, y) lies wholly in the view and touches no obstacle. */
export function labelFits(x: number, y: number, width: number, height: number, view: { width: number; height: number }, obstacles: readonly Box[]): boolean {
  const left = x - width / 2;
  const top = y - height / 2;
  const right = left + width;
  const bottom = top + height;
  if (left < 0 || top < 0 || right > view.width || bottom > view.height) return false;
  for (const o of obstacles) {
    if (left < o.right && o.left < right && top < o.bottom && o.top < bottom) return false;
  }
  return true;
}

export interface ObstacleWatch {
  /** The obstacles' boxes relative to the map element (measured again only after a change). */
  boxes(): readonly Box[];
  dispose(): void;
}

/**
 * Watches the controls under `root` that cover `map`; `changed` is called when their boxes may
 * have changed (the caller redraws, and asks for the boxes then).
 */
export function watchObstacles(root: Element, map: Element, changed: () => void, selector = LABEL_OBSTACLES): ObstacleWatch {
  let dirty = true;
  let boxes: Box[] = [];
  const observed = new Set<Element>();
  const invalidate = () => {
    if (dirty) return;
    dirty = true;
    changed();
  };
  const sizes = new ResizeObserver(invalidate);
  const collect = () => [...root.querySelectorAll(selector)];
  const mutations = new MutationObserver(invalidate);
  mutations.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'hidden', 'data-phase'] });
  window.addEventListener('resize', invalidate);
  return {
    boxes() {
      if (!dirty) return boxes;
      dirty = false;
      const origin = map.getBoundingClientRect();
      const elements = collect();
      boxes = [];
      for (const el of elements) {
        if (!observed.has(el)) {
          observed.add(el);
          sizes.observe(el);
        }
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        // Hidden (visibility: hidden under a right-pane window): no obstacle. Opacity is not asked:
        // a control fading in is measured at the start of its fade, and is an obstacle already.
        if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) continue;
        boxes.push({ left: r.left - origin.left, top: r.top - origin.top, right: r.right - origin.left, bottom: r.bottom - origin.top });
      }
      for (const el of [...observed]) {
        if (!elements.includes(el)) {
          observed.delete(el);
          sizes.unobserve(el);
        }
      }
      return boxes;
    },
    dispose() {
      sizes.disconnect();
      mutations.disconnect();
      window.removeEventListener('resize', invalidate);
    },
  };
}
