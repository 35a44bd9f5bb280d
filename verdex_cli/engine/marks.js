// Refs drawn on a screenshot (module Marks, in the isolated world; see engine.py): each ref's box in
// this document, and a layer of outlined, labelled boxes put over the page for the length of one
// screenshot (`screenshot PATH --refs`), then taken away. The layer is a closed shadow tree that takes
// no pointer events; labels are ref strings verdex made, never page text.
  let layer = null;
  const COLOUR = '#d1105a';

  // {boxes: [[n, x, y, w, h]], w, h, sx, sy}: the refs `ns` whose element is there, shown and has a
  // box; in viewport coordinates, only what meets the viewport, cut to it (`whole`: the document's,
  // uncut); with the viewport's size and scroll.
  function boxes(ns, whole) {
    const out = [];
    Aria.begin();
    try {
      for (const n of ns) {
        const el = Registry.get(n);
        if (!el || !el.isConnected || Aria.isHidden(el)) continue;
        const r = el.getBoundingClientRect();
        let x0 = r.left, y0 = r.top, x1 = r.right, y1 = r.bottom;
        if (!whole) {
          x0 = Math.max(x0, 0); y0 = Math.max(y0, 0); x1 = Math.min(x1, innerWidth); y1 = Math.min(y1, innerHeight);
        }
        if (x1 - x0 >= 1 && y1 - y0 >= 1) out.push([n, x0, y0, x1 - x0, y1 - y0]);
      }
    } finally { Aria.end(); }
    return { boxes: out, w: innerWidth, h: innerHeight, sx: scrollX, sy: scrollY };
  }

  // Outline and label each [label, x, y, w, h] (viewport coordinates; `whole`: the document's).
  function draw(items, whole) {
    erase();
    const host = document.createElement('div');
    host.style.cssText = `position:${whole ? 'absolute' : 'fixed'};left:0;top:0;width:0;height:0;overflow:visible;` +
      'z-index:2147483647;pointer-events:none;margin:0;padding:0;border:0;';
    const root = host.attachShadow({ mode: 'closed' });
    for (const [label, x, y, w, h] of items) {
      const box = document.createElement('div');
      box.style.cssText = `position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px;` +
        `box-sizing:border-box;border:2px solid ${COLOUR};`;
      const tag = document.createElement('span');
      tag.textContent = label;
      tag.style.cssText = `position:absolute;left:-2px;${y >= 14 ? 'top:-15px' : 'top:0'};font:11px/13px monospace;` +
        `background:${COLOUR};color:#fff;padding:0 2px;white-space:nowrap;`;
      box.appendChild(tag);
      root.appendChild(box);
    }
    document.documentElement.appendChild(host);
    layer = host;
    return items.length;
  }

  function erase() {
    if (layer) { layer.remove(); layer = null; }
    return true;
  }

  return { boxes, draw, erase };
