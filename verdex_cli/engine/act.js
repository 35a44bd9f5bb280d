// The in-page half of acting on a ref (module Act, in the isolated world; see engine.py): what an
// element is now (describe, brief), getting it ready for a pointer action (scroll, wait until visible,
// enabled, stable and hit-testable: prepare, which may arm the click guard (guard.js) in the same call;
// the same point through each frame around it: ownerHit), settling after it, and a select's options.
  const WS = /\s+/g;

  const composedContains = Aria.composedContains;

  function deepHit(x, y) {
    let hit = document.elementFromPoint(x, y);
    for (let sr = hit && Aria.shadowOf(hit); sr; sr = Aria.shadowOf(hit)) {
      const inner = sr.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  function current(el) {
    Aria.begin();
    try {
      const role = Aria.role(el) || 'generic';
      const nm = Aria.name(el, role);
      return { role, name: nm.name, hidden: hiddenInTree(el), states: Aria.states(el, role) };
    } finally { Aria.end(); }
  }

  function hiddenInTree(el) { return Aria.isHidden(el); }

  function attrsOf(el) {
    const attrs = {};
    for (const a of ['id', 'class', 'name', 'type', 'href', 'value', 'placeholder', 'aria-label', 'role', 'title', 'data-testid']) {
      const val = a === 'value' ? (el.value !== undefined && typeof el.value === 'string' ? el.value : null) : el.getAttribute(a);
      if (val !== null && val !== '') {
        attrs[a] = a === 'value' && el.localName === 'input' && el.type === 'password' ? Aria.MASK : String(val).slice(0, 200);
      }
    }
    return attrs;
  }

  // A removed element the registry still holds: what it was when last shown (tag, attributes, box,
  // record), for its story.
  function describe(n) {
    const st = Registry.status(n);
    const el = Registry.get(n);
    if (st !== 'live') return el === null ? { status: st } : Object.assign({ status: st, tag: el.localName, attrs: attrsOf(el) }, Registry.lastShown(n));
    const cur = current(el);
    const r = el.getBoundingClientRect();
    return {
      status: 'live', role: cur.role, name: cur.name, hidden: cur.hidden, states: cur.states,
      idChange: Registry.identityChange(n), idKind: Registry.changeKind,
      tag: el.localName, attrs: attrsOf(el), box: { x: r.x, y: r.y, width: r.width, height: r.height }, at: performance.now(),
    };
  }

  // One animation frame, or (a page that draws none: a background tab, a frame that is not rendered)
  // a short timer; resolves to whether a frame was drawn, so no reason is made up from a missing one.
  const nextFrame = () => new Promise((res) => {
    let done = false;
    const timer = setTimeout(() => { if (!done) { done = true; res(false); } }, 100);
    requestAnimationFrame(() => { if (!done) { done = true; clearTimeout(timer); res(true); } });
  });

  // Inverse of the affine map of a content quad [x0,y0, x1,y1, x2,y2, x3,y3] (corners from the top
  // left, clockwise): the point (x, y) as fractions (u, v) of the quad's sides.
  function inverseQuad(q, x, y) {
    const ax = q[2] - q[0], ay = q[3] - q[1], bx = q[6] - q[0], by = q[7] - q[1];
    const det = ax * by - ay * bx;
    if (!det) return null;
    const dx = x - q[0], dy = y - q[1];
    return [(dx * by - dy * bx) / det, (ax * dy - ay * dx) / det];
  }

  // The click point climbing out of a child frame into this document, whose iframe element `el` holds
  // that frame. `q` is the point in the coordinates of this frame's local root (the frame at the top
  // of its renderer's frame tree, where DevTools box models are measured); `quad` is the content quad
  // of this frame's own iframe element there, or null when this frame is that local root. Answers the
  // point in this frame's viewport, the viewport's size, and whether the point reaches `el`: hit true,
  // or the cover's label, or outside true.
  function ownerHit(el, q, quad) {
    let x = q[0];
    let y = q[1];
    if (quad) {
      const uv = inverseQuad(quad, x, y);
      if (!uv) return { outside: true, w: innerWidth, h: innerHeight };
      x = uv[0] * innerWidth;
      y = uv[1] * innerHeight;
    }
    // still: nothing has moved anything in this document for two frames' time (see prepare)
    const out = { x, y, w: innerWidth, h: innerHeight, still: Observer.stillFor() >= STILL_MS };
    const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? deepHit(x, y) : null;
    if (hit && composedContains(el, hit)) out.hit = true;
    else if (hit) out.cover = Aria.label(coverOf(hit, el));
    else out.outside = true;
    return out;
  }

  const FRAME_MS = 1000 / 60;
  const STILL_MS = 2 * FRAME_MS;
  const quiescent = (key) => !!key && asks(key + '?') && !asks(key + 'q');
  // a box whose centre is inside the viewport, else null
  const inView = (r) => {
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    return r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? r : null;
  };
  const rectOf = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const sameBox = (a, b) => a && b && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

  // Prepare an element for an action: scroll, wait until visible, enabled, stable (the same box at two
  // measurements an animation frame apart: a page timer moving it runs between two frames, not always
  // between a measurement and the next frame) and, for a pointer, hit-testable; return its click point in this frame's viewport
  // and the viewport's size. `opts.last` carries the box of an earlier call, so a wait cut into slices
  // still compares two measurements; `opts.seed` ({box, at}: describe's, when the ref was resolved)
  // may be the first one, see below. A reason is only ever what was seen: "moving" needs two different
  // boxes; when no second measurement could be made, it says so.
  async function prepare(n, opts) {
    const st = Registry.status(n);
    if (st !== 'live') return { status: st };
    const el = Registry.get(n);
    // sent with the ref's resolution (before its verdict is known): act only on the element exactly as
    // the snapshot showed it (role, name, identity) in a tab that draws; anything else is left to the
    // caller's full checks, and nothing is done here (no scroll, no guard)
    if (opts.expect) {
      const cur0 = current(el);
      if (document.visibilityState !== 'visible') return { status: 'check', why: 'hidden tab' };
      if (cur0.role !== opts.expect.role || cur0.name !== opts.expect.name || Registry.identityChange(n))
        return { status: 'check', why: 'not as in the snapshot' };
    }
    const deadline = performance.now() + (opts.timeoutMs || 5000);
    let reason = 'not ready';
    let lastBox = opts.last || null;
    let seed = opts.seed && opts.seed.box && typeof opts.seed.at === 'number' ? opts.seed : null;
    let drawn = true;
    let waited = false;
    for (;;) {
      const cur = current(el);
      const at = standIn(el);  // what is measured and clicked: the element, or the label a user clicks
      let b = null;
      if (cur.hidden) reason = 'it is hidden';
      else if (cur.states && cur.states.disabled) reason = 'it is disabled';
      else {
        // nothing has moved anything in this document for two frames' time (the change watcher saw no
        // DOM change, style change, load, scroll or resize, and no animation runs) and the click point
        // is in view: the box now is the box of two frames ago, so it is stable without waiting. Sooner,
        // on the main world's word that nothing of the page is about to run (opts.key: no animation
        // frame asked, no interval, no timer due soon, no message), only in a document with no child
        // frame: there every event the input makes passes the guard, so if something still moved it the
        // input is stopped, never delivered elsewhere (the truth fuzzer saw a double click's first
        // click land in a frame that had moved under the point). In a child frame only the check sent
        // with the resolution may find it still; the checks in order there (`still: false`) wait for
        // frames after the frames above scrolled
        const quiet = opts.still !== false && !lastBox ? Observer.stillFor() : 0;
        const still = quiet >= STILL_MS || (quiet > 0 && window.length === 0 && !opts.noScroll && quiescent(opts.key))
          ? inView(rectOf(at)) : null;
        // `noScroll` (a frame's check sent with the resolution): only an element still and in view is
        // checked here; anything else is left to the caller's checks in order, and nothing is done
        if (!still && opts.noScroll) {
          // in view, and the last change only younger than two frames: wait the rest out, once (far
          // cheaper than the checks in order, a round trip per frame above)
          if (quiet > 0 && !waited && inView(rectOf(at))) { waited = true; await sleep(STILL_MS - quiet + 1); continue; }
          return { status: 'check', why: 'not still and in view' };
        }
        if (!still) {
          at.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
          if (seed && !sameBox(seed.box, rectOf(at))) seed = null;  // it moved, or the scroll moved it
          drawn = await nextFrame();
        }
        const r = still || at.getBoundingClientRect();
        b = { x: r.x, y: r.y, width: r.width, height: r.height };
        // the first measurement: an earlier call's, or the one taken when the ref was resolved when the
        // box is still that one now and a whole frame's time ago (as long apart as two frames' measurements)
        const prev = still ? b : lastBox || (seed && drawn && performance.now() - seed.at >= FRAME_MS ? seed.box : null);
        seed = null;
        if (b.width <= 0 || b.height <= 0) {
          reason = 'it has zero size';
          if (keptAtZero(el, opts.key)) {
            reason = 'it has zero size (its own style makes it 0 by 0, and nothing on the page is about to change that)' +
              (el.labels && el.labels.length ? ', and none of its labels has a size to aim at instead' : '');
            return { status: 'not_actionable', reason, last: b, final: true };
          }
        } else if (getComputedStyle(at).pointerEvents === 'none' && opts.pointer) reason = 'it does not receive pointer events (pointer-events: none)';
        else if (sameBox(prev, b)) {
          const [x, y] = clickPoint(at, b);
          const ok = { status: 'ok', x, y, box: b, w: innerWidth, h: innerHeight, still: !!still };
          if (at !== el) ok.label = Aria.label(at);
          if (!opts.pointer) return ok;
          const hit = deepHit(x, y);
          if (hit && (composedContains(el, hit) || hitIsOwnLabel(el, hit))) {
            if (opts.arm) ok.armed = Guard.arm(n);  // the guard, armed in the same call (one round trip less)
            return ok;
          }
          reason = hit ? 'it is covered by ' + Aria.label(coverOf(hit, el)) : 'its centre is outside the viewport';
        } else if (lastBox) reason = 'it is moving';
        else reason = drawn ? 'its position was measured only once' : 'the page draws no frames, so whether it is still could not be checked';
      }
      if (opts.noScroll) return { status: 'check', why: reason };
      lastBox = b;
      if (performance.now() > deadline) return { status: 'not_actionable', reason, last: b };
      if (!b) drawn = await nextFrame();
    }
  }

  // A control with no size of its own (the styled switch: a checkbox of width and height 0 inside the
  // label that draws the slider) is clicked where a user clicks it: on its label, which acts on it. The
  // label around it first, else another of its labels with a size; else the element itself.
  function standIn(el) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 || !el.labels || !el.labels.length) return el;
    const sized = [...el.labels].filter((l) => { const b = l.getBoundingClientRect(); return b.width > 0 && b.height > 0; });
    return sized.find((l) => l.contains(el)) || sized[0] || el;
  }

  // Zero size that no waiting changes: its own style makes it 0 by 0, nothing animates it and nothing of
  // the page is about to run (the main world's word: no timer due, no animation frame asked).
  function keptAtZero(el, key) {
    const cs = getComputedStyle(el);
    return parseFloat(cs.width) === 0 && parseFloat(cs.height) === 0 && !el.getAnimations().length && quiescent(key);
  }

  // A frame owner's content box, where its frame's document is drawn, in this viewport (`b`: the owner's
  // border box here), and the scale from the frame's CSS pixels to this viewport's (a transform): a wide
  // border or padding on one side moves it off the box's centre. Null when there is none.
  function ownerContent(el, b) {
    if (el.offsetWidth <= 0 || el.offsetHeight <= 0) return null;
    const cs = getComputedStyle(el);
    const pl = parseFloat(cs.paddingLeft) || 0, pt = parseFloat(cs.paddingTop) || 0;
    const cw = el.clientWidth - pl - (parseFloat(cs.paddingRight) || 0);
    const ch = el.clientHeight - pt - (parseFloat(cs.paddingBottom) || 0);
    if (cw <= 0 || ch <= 0) return null;
    const sx = b.width / el.offsetWidth, sy = b.height / el.offsetHeight;
    return { x: b.x + sx * (el.clientLeft + pl), y: b.y + sy * (el.clientTop + pt), width: sx * cw, height: sy * ch, sx, sy };
  }

  // The click point: the centre of the box; of a frame's owner (iframe, frame), of its content box
  function clickPoint(el, b) {
    const c = el.localName === 'iframe' || el.localName === 'frame' ? ownerContent(el, b) : null;
    return c ? [c.x + c.width / 2, c.y + c.height / 2] : [b.x + b.width / 2, b.y + b.height / 2];
  }

  function hitIsOwnLabel(el, hit) {
    const labels = el.labels;
    if (!labels) return false;
    for (const l of labels) if (composedContains(l, hit)) return true;
    return false;
  }

  // The outermost ancestor of the hit element that does not contain the target:
  // for an overlay this names the overlay, not some span inside it.
  function coverOf(hit, el) {
    let best = hit;
    for (let n = hit.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (n.contains(el)) break;
      best = n;
    }
    return best;
  }

  // Is the element under the pointer (the browser's own :hover state, after the move)? Waits up to
  // two animation frames for the state to show; null when the element is gone. The selector names the
  // element's type: in a quirks-mode document (no doctype) a bare `:hover` matches only links. A control
  // with no size of its own is under the pointer when the label that stands in for it is (standIn).
  // (`late`: asked again once the page settled. The browser moves :hover after a layout change at the
  // next frame: when anything that can move an element happened here since the first answer, two
  // frames go by first)
  let hoverAt = 0;
  async function hovered(n, late) {
    const el = Registry.get(n);
    if (!el || !el.isConnected) return null;
    const at = standIn(el);
    const sel = CSS.escape(at.localName) + ':hover';
    const moved = late && Observer.stillFor() < performance.now() - hoverAt;
    for (let i = 0; moved && i < 2 && document.visibilityState === 'visible'; i++) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    if (!late) hoverAt = performance.now();
    for (let i = 0; i < 3; i++) {
      if (at.matches(sel)) return true;
      if (document.visibilityState !== 'visible') break;
      await new Promise((r) => requestAnimationFrame(r));
    }
    return at.matches(sel);
  }

  // ---- settling after an action's input (changes.py). Settled: the work the input started is done --
  // no timer or animation frame it caused is pending (the main world's watcher, browser/timer_watch.py,
  // answers the event `opts.key`) -- and a whole hop (a task; and an animation frame while work or a
  // scroll is pending or once the page changed: rendering-step observers, a ticker shows) went by with no
  // DOM change, input, focus move or scroll, and no scroll is
  // under way (unless stalled for opts.stallMs). A document without the watcher, or one that keeps
  // changing (BUSY_BEATS changing tasks since the input: a burst; or as many in the last second that
  // answered no input: a ticker), is
  // settled after a quiet period instead (opts.quietMs with no change, and as long since the input). A navigation of this document
  // ends the wait at once. Bounded by opts.maxMs.
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // one task later (a message task: timers may wait behind the frame the input asked for)
  const task = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => { ch.port1.close(); r(); }; ch.port2.postMessage(0); });
  function asks(name) {
    const e = new CustomEvent(name, { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  }

  const BUSY_BEATS = 3;  // DOM-changing tasks since the input that make a page one that keeps changing
  async function settle(opts) {
    const start = performance.now();
    const until = start + (opts.maxMs || 250);
    const inputAt = start - (opts.sinceMs || 0) - 20;  // a little early: the call took some time to come
    const key = opts.key || '';
    const hooked = !!key && asks(key + '?');
    let nav = false;
    const onNav = (e) => { if (!(e.destination && e.destination.sameDocument)) nav = true; };
    if (window.navigation) window.navigation.addEventListener('navigate', onNav);
    let drawn = document.visibilityState === 'visible';
    const lastChange = () => {
      const q = Observer.quiet();
      return { at: performance.now() - Math.min(q.dirty ? q.idle : 1e9, q.scroll), scrolling: q.scrolling && q.scroll < opts.stallMs,
        busy: Observer.beatsSince(inputAt) >= BUSY_BEATS || Observer.background(performance.now()) >= BUSY_BEATS };
    };
    const pending = () => hooked && asks(drawn ? key : key + 't');
    // a change needs no hop to show it is over when nothing of the page can run after the handlers but
    // timers and frames the watcher counts: nothing about to run, no rendering-step observer, no message
    // posted, no child frame (the watcher: KEY + 'f'), no animation or transition (getAnimations brings
    // style up to date: a transition the change starts is there already)
    const frameless = () => hooked && !asks(key + 'f') && !(document.getAnimations && document.getAnimations().length);
    try {
      for (let hops = 1; ; hops++) {
        const hopStart = performance.now();
        let c = lastChange();
        // with the watcher, nothing pending and no change since the input: done now (the handlers' own
        // work is counted); else a hop: an animation frame when needed, then a task (in that order: after
        // input, the browser runs the frame first anyway, so a task before it would cost a frame more)
        // ... or changed when nothing of the page runs in frames or messages (the handlers ran before this
        // call: what they changed is there, and nothing they started is left)
        const first = hops === 1 && hooked && !c.busy && !c.scrolling && !pending() && (c.at < inputAt || frameless());
        if (first) return { settled: true, hops: 0, hooked };
        if (drawn && (c.scrolling || pending() || c.at >= inputAt)) drawn = await nextFrame();
        await task();
        if (nav) return { navigating: true, hops };
        c = lastChange();
        const now = performance.now();
        const still = hooked && !c.busy ? c.at < hopStart : now - c.at >= opts.quietMs && now - inputAt >= opts.quietMs;
        const busy = pending();
        if (still && !busy && !c.scrolling) return { settled: true, hops, hooked };
        if (now >= until) return { settled: false, hops, hooked };
        if ((!hooked || c.busy) && !still) await sleep(Math.max(1, Math.min(opts.quietMs - (now - c.at), until - now)));
        else if (!drawn) await sleep(Math.min(4, Math.max(0, until - now)));
      }
    } finally {
      if (window.navigation) window.navigation.removeEventListener('navigate', onNav);
    }
  }

  // (`el`: another select than ref n's own, e.g. the one the page put in its place: Fields.optionsNow)
  function options(n, el) {
    el = el || Registry.get(n);
    if (!el || el.localName !== 'select') return null;
    return { multiple: el.multiple, options: [...el.options].map((o, i) => ({ index: i, value: o.value,
      label: (o.label || o.textContent || '').replace(WS, ' ').trim(), selected: o.selected, disabled: o.disabled })) };
  }

  // Current status, role and name of many refs at once (for the refs table).
  function brief(ns) {
    Aria.begin();
    try {
      return ns.map((n) => {
        const st = Registry.status(n);
        if (st !== 'live') return { status: st };
        const el = Registry.get(n);
        const role = Aria.role(el) || 'generic';
        return { status: hiddenInTree(el) ? 'hidden' : 'live', role, name: Aria.name(el, role).name,
          idChange: Registry.identityChange(n) };
      });
    } finally { Aria.end(); }
  }

  function optionPoint(n, index) {
    const el = Registry.get(n);
    if (!el || el.localName !== 'select' || !el.options[index]) return null;
    const opt = el.options[index];
    opt.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    const b = opt.getBoundingClientRect();
    if (b.width <= 0 || b.height <= 0) return null;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, w: innerWidth, h: innerHeight };
  }

  return { deepHit, nextFrame, asks, ownerContent, current, describe, ownerHit, prepare, hovered, settle, options, brief, optionPoint };
