// The in-page half of acting on a ref (concatenated before bridge.js, in the isolated world): what an
// element is now (describe, brief), getting it ready for a pointer action (scroll, wait until visible,
// enabled, stable and hit-testable: prepare, hits), the guard that stops mouse events meant for another
// element (arm, disarm), focus, selection, and a field's value and options.
const Act = (() => {
  const WS = /\s+/g;

  function composedContains(outer, inner) {
    for (let n = inner; n; n = n.parentNode || n.host) {
      if (n === outer) return true;
      if (n.assignedSlot && n.assignedSlot !== n.parentNode && composedContains(outer, n.assignedSlot)) return true;
    }
    return false;
  }

  function deepHit(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
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

  function describe(n) {
    const st = Registry.status(n);
    if (st !== 'live') return { status: st };
    const el = Registry.get(n);
    const cur = current(el);
    const r = el.getBoundingClientRect();
    const attrs = {};
    for (const a of ['id', 'class', 'name', 'type', 'href', 'value', 'placeholder', 'aria-label', 'role', 'title']) {
      const val = a === 'value' ? (el.value !== undefined && typeof el.value === 'string' ? el.value : null) : el.getAttribute(a);
      if (val !== null && val !== '') {
        attrs[a] = a === 'value' && el.localName === 'input' && el.type === 'password' ? Aria.MASK : String(val).slice(0, 200);
      }
    }
    return {
      status: 'live', role: cur.role, name: cur.name, hidden: cur.hidden, states: cur.states,
      idChange: Registry.identityChange(n),
      tag: el.localName, attrs, box: { x: r.x, y: r.y, width: r.width, height: r.height },
    };
  }

  // a background tab runs no animation frames: fall back to a timer there
  const raf = () => new Promise((res) => {
    if (document.hidden) setTimeout(res, 16); else requestAnimationFrame(() => res());
  });

  // Does the point (in this document's viewport) reach `el` (an iframe owner)?
  function hits(el, x, y) {
    const hit = deepHit(x, y);
    if (hit && composedContains(el, hit)) return true;
    return hit ? Aria.label(coverOf(hit, el)) : 'nothing (the point is outside the viewport)';
  }

  // Prepare an element for a pointer action: scroll, wait until visible,
  // enabled, stable and hit-testable; return its click point.
  async function prepare(n, opts) {
    const st = Registry.status(n);
    if (st !== 'live') return { status: st };
    const el = Registry.get(n);
    const deadline = performance.now() + (opts.timeoutMs || 5000);
    let reason = 'not ready';
    let lastBox = null;
    for (;;) {
      const cur = current(el);
      if (cur.hidden) reason = 'it is hidden';
      else if (cur.states && cur.states.disabled && !opts.allowDisabled) reason = 'it is disabled';
      else {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        await raf();
        const b = el.getBoundingClientRect();
        if (b.width <= 0 || b.height <= 0) reason = 'it has zero size';
        else if (getComputedStyle(el).pointerEvents === 'none' && opts.pointer) reason = 'it does not receive pointer events (pointer-events: none)';
        else if (lastBox && lastBox.x === b.x && lastBox.y === b.y && lastBox.width === b.width && lastBox.height === b.height) {
          const x = b.x + b.width / 2;
          const y = b.y + b.height / 2;
          if (!opts.pointer) return { status: 'ok', x, y, box: { x: b.x, y: b.y, width: b.width, height: b.height } };
          const hit = deepHit(x, y);
          if (hit && (composedContains(el, hit) || hitIsOwnLabel(el, hit))) {
            return { status: 'ok', x, y, box: { x: b.x, y: b.y, width: b.width, height: b.height } };
          }
          reason = hit ? 'it is covered by ' + Aria.label(coverOf(hit, el)) : 'its centre is outside the viewport';
        } else reason = 'it is moving';
        lastBox = b;
      }
      if (performance.now() > deadline) return { status: 'not_actionable', reason };
      await raf();
    }
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

  // ---- the guard: mouse events that would reach another element are stopped
  let guard = null;
  const GUARDED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];

  function arm(n) {
    disarm();
    const el = Registry.get(n);
    if (!el) return false;
    const g = { el, received: 0, blocked: [], handler: null };
    g.handler = (ev) => {
      const path = ev.composedPath();
      const ok = path.includes(el) || (el.labels && [...el.labels].some((l) => path.includes(l)));
      if (ok) { g.received++; return; }
      ev.stopImmediatePropagation();
      ev.preventDefault();
      g.blocked.push(ev.type + ' on ' + Aria.label(path[0] && path[0].nodeType === 1 ? path[0] : document.body));
    };
    for (const t of GUARDED) window.addEventListener(t, g.handler, true);
    guard = g;
    return true;
  }

  function disarm() {
    if (!guard) return { received: 0, blocked: [] };
    for (const t of GUARDED) window.removeEventListener(t, guard.handler, true);
    const out = { received: guard.received, blocked: guard.blocked };
    guard = null;
    return out;
  }

  function focus(n) {
    const el = Registry.get(n);
    if (!el || !el.isConnected) return { status: 'removed' };
    el.focus({ preventScroll: false });
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return { status: active === el || composedContains(el, active) ? 'ok' : 'not_focusable' };
  }

  function selectAll(n) {
    const el = Registry.get(n);
    if (!el) return false;
    if (typeof el.select === 'function' && (el.localName === 'input' || el.localName === 'textarea')) { el.select(); return true; }
    if (el.isContentEditable) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      return true;
    }
    return false;
  }

  function fieldValue(n) {
    const el = Registry.get(n);
    if (!el) return null;
    if (el.isContentEditable) return el.textContent;
    return typeof el.value === 'string' ? el.value : null;
  }

  function options(n) {
    const el = Registry.get(n);
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
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }

  return { current, describe, hits, prepare, arm, disarm, focus, selectAll, fieldValue, options, brief, optionPoint };
})();
