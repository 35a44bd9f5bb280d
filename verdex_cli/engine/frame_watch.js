// The frame watch (module FrameWatch, in the isolated world; see engine.py): a click on an iframe
// element lands in the document its frame shows, not on the element, so the element's guard (Guard.arm)
// sees none of it. This document (that frame's, or one nested in it) counts the trusted mouse events
// that reach it, anywhere in it (nothing is stopped: all of it is the target), and names the element
// the press, or the pointer, reached; it says whether the pointer came in and stayed, and whether the
// document began to navigate away.
  const { deepHit, nextFrame, ownerContent } = Act;
  const { GUARDED } = Guard;
  let watch = null;
  const MOVES = ['pointermove', 'mousemove', 'mouseover'];

  // `at`: the click point in this viewport (null: its centre, where the owner's click point is). When
  // an iframe is there, the point in its viewport is told (`into`: the events go to its document) and
  // the element kept for `watchedFrame`.
  function watchDoc(at) {
    unwatchDoc();
    const w = { got: [], press: null, over: null, moved: false, left: false, nav: false, handler: null, onNav: null,
      frameEl: null, types: GUARDED.concat(MOVES, ['mouseout']) };
    w.onNav = (e) => { if (!(e.destination && e.destination.sameDocument)) w.nav = true; };
    if (window.navigation) window.navigation.addEventListener('navigate', w.onNav);
    w.handler = (ev) => {
      if (!ev.isTrusted) return;
      // the pointer left this document (the page moved under it, or another frame took it)
      if (ev.type === 'mouseout') { if (!ev.relatedTarget) w.left = true; return; }
      if (MOVES.includes(ev.type)) { w.left = false; w.moved = true; }
      if (!w.got.includes(ev.type)) w.got.push(ev.type);  // each kind once, in the order first seen
      const t = ev.composedPath()[0];
      const el = t && t.nodeType === 1 ? t : document.body || document.documentElement;
      if (ev.type === 'mousedown' && !w.press) w.press = el ? Aria.label(el) : '';
      else if (MOVES.includes(ev.type)) w.over = el ? Aria.label(el) : '';
    };
    for (const t of w.types) window.addEventListener(t, w.handler, true);
    watch = w;
    const body = document.body;
    const blank = (location.href === 'about:blank' || location.href === '') &&
      (!body || (!body.firstElementChild && !body.textContent.trim()));
    const x = at ? at[0] : innerWidth / 2, y = at ? at[1] : innerHeight / 2;
    const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? deepHit(x, y) : null;
    let into = null;
    const c = hit && (hit.localName === 'iframe' || hit.localName === 'frame') ? ownerContent(hit, hit.getBoundingClientRect()) : null;
    if (c) {
      into = [(x - c.x) / c.sx, (y - c.y) / c.sy];
      w.frameEl = hit;
    }
    return { url: location.href, blank, hit: hit ? Aria.label(hit) : null, into };
  }

  // The iframe at the watched point (see watchDoc), or null.
  function watchedFrame() { return (watch && watch.frameEl) || null; }

  // Has the pointer moved in this document since the watch began, and is it still here?
  function watchState() { return watch ? { moved: watch.moved, left: watch.left, nav: watch.nav } : null; }

  // What reached the document; the watch ends. `settle`: two animation frames first (a hover: the
  // pointer's place after the move, as `hovered` waits for it)
  async function unwatchDoc(settle) {
    if (settle && watch) { await nextFrame(); await nextFrame(); }
    if (!watch) return { got: [], press: null, over: null, left: false, nav: false };
    for (const t of watch.types) window.removeEventListener(t, watch.handler, true);
    if (window.navigation) window.navigation.removeEventListener('navigate', watch.onNav);
    const out = { got: watch.got, press: watch.press, over: watch.over, moved: watch.moved, left: watch.left, nav: watch.nav };
    watch = null;
    return out;
  }

  return { watchDoc, unwatchDoc, watchedFrame, watchState };
