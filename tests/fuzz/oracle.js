// The truth fuzzer's oracle: a plain page script (it knows nothing of verdex) loaded first in every
// generated document. It gives every element a physical id that is unique across the whole run (class
// `oid-DOC-N`; a class, because verdex treats data-* attributes as identity and the oracle must not
// help it tell elements apart), a generation that the site bumps when it reuses a node for another
// item, and reports to its own origin's server (POST /__log):
//   hello / bye     the document loaded / went away (pagehide)
//   ev              every user event (mousedown, mouseup, mousemove, click, dblclick, input, change,
//                   mouseover, keydown, focusin):
//                   isTrusted, the target's oid, the oids on its path, its control's text and key
//   did             an event of those that reached the page's own handlers (click, dblclick, input,
//                   change, keydown at the document, bubbling), with the record of its target
//   after           the field the event reached, read when its own handlers have run (a 0 ms timer)
//   renew           the site reused a node for another item (new generation, item key)
//   note            the site says it did something the judge checks the result for (a long text changed)
// Every `ev` and probe also carries `rec`: the record the element belongs to in the page's own model
// (site.js keeps it; a node recycled for another row belongs to another record).
//   flush           answer to a flush request: every field's value once the page's handlers settled,
//                   the focused element, and probes of asked oids (connected, hidden, disabled,
//                   covered, in view, hovered, moving)
(() => {
  if (window.__oracle) return;
  const DOC = document.currentScript.dataset.doc;
  const T0 = performance.timeOrigin;
  const oidOf = new WeakMap();
  const byOid = new Map();
  const gen = new Map();
  const itemKey = new Map();
  let n = 0;
  let seq = 0;
  let pending = 0;
  let lastChange = performance.now();

  const now = () => T0 + performance.now();
  function send(rec) {
    rec.doc = DOC; rec.seq = ++seq; rec.at = now();
    const body = JSON.stringify(rec);
    let sent = false;
    try { sent = navigator.sendBeacon('/__log', body); } catch (e) { sent = false; }
    if (!sent) fetch('/__log', { method: 'POST', body, keepalive: body.length < 60000 }).catch(() => {});
  }

  function tag(el) {
    let id = oidOf.get(el);
    if (id === undefined) {
      id = 'oid-' + DOC + '-' + (++n);
      oidOf.set(el, id); byOid.set(id, el); gen.set(id, 0);
      for (const c of [...el.classList]) if (c.startsWith('oid-') && c !== id) el.classList.remove(c);
    }
    if (!el.classList.contains(id)) el.classList.add(id);
    return id;
  }
  function tagTree(root) {
    if (root.nodeType !== 1) return;
    tag(root);
    for (const el of root.querySelectorAll('*')) tag(el);
  }
  const oidsOf = (el) => (el && el.nodeType === 1 ? (oidOf.get(el) || tag(el)) : null);

  const watcher = new MutationObserver((muts) => {
    lastChange = performance.now();
    for (const m of muts) {
      if (m.type === 'childList') m.addedNodes.forEach(tagTree);
      else if (m.type === 'attributes' && m.target.nodeType === 1) {
        const id = oidOf.get(m.target);
        if (id === undefined || !m.target.classList.contains(id)) tag(m.target);
      }
    }
  });
  const WATCH = { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] };
  watcher.observe(document, WATCH);
  // closed shadow roots the site made (site.js hands each over): their elements are tagged and watched,
  // and an event inside one, which a listener outside sees on its host only, is followed to the element
  // it reached (a pointer event's hit, else the focused element)
  const closedOf = new WeakMap();
  function closedRoot(root) {
    closedOf.set(root.host, root);
    for (const el of root.children) tagTree(el);
    watcher.observe(root, WATCH);
  }
  function pathOf(e) {
    const path = e.composedPath().filter((x) => x.nodeType === 1);
    for (let root = path[0] && closedOf.get(path[0]); root; root = closedOf.get(path[0])) {
      let inner = e instanceof MouseEvent ? root.elementFromPoint(e.clientX, e.clientY) : root.activeElement;
      if (!inner || inner === path[0]) break;
      const more = [];
      for (; inner && inner !== root; inner = inner.parentNode) if (inner.nodeType === 1) more.push(inner);
      path.unshift(...more);
    }
    return path;
  }
  if (document.documentElement) tagTree(document.documentElement);

  const recordOf = (el) => (window.__site && window.__site.recordOf ? window.__site.recordOf(el) : null);
  const CONTROL = 'a,button,input,select,textarea,summary,label,[role],[tabindex]';
  function keyOf(el) {
    const item = el.closest && el.closest('[data-key],li,tr');
    if (!item) return null;
    const id = oidOf.get(item);
    return item.dataset.key || (id && itemKey.get(id)) || (item.firstElementChild ? item.firstElementChild.textContent.trim() : null);
  }
  function fieldState(el) {
    if (el.localName === 'select') return { v: el.value, s: [...el.selectedOptions].map((o) => o.value) };
    if (el.type === 'checkbox' || el.type === 'radio') return { v: el.value, c: el.checked };
    return { v: el.value };
  }
  function fields() {
    const out = {};
    for (const el of document.querySelectorAll('input,textarea,select')) out[oidsOf(el)] = fieldState(el);
    return out;
  }

  function onEvent(e) {
    const path = pathOf(e);
    const target = path[0] || null;
    if (!target) return;
    const ctl = target.closest ? target.closest(CONTROL) : null;
    const rec = {
      t: 'ev', type: e.type, trusted: e.isTrusted, oid: oidsOf(target), gen: gen.get(oidsOf(target)),
      path: path.map(oidsOf), key: keyOf(target), rec: recordOf(target), field: target.dataset ? target.dataset.field : undefined,
      ctl: ctl ? { oid: oidsOf(ctl), tag: ctl.localName, text: (ctl.textContent || ctl.value || '').trim().slice(0, 80) } : null,
    };
    if (e.type === 'keydown') rec.k = e.key;
    send(rec);
    lastChange = performance.now();
    if (target.matches && target.matches('input,textarea,select')) {
      setTimeout(() => send({ t: 'after', type: e.type, oid: oidsOf(target), state: fieldState(target) }), 0);
    }
  }
  // what the page's own handlers get: events that reach the document (bubbling), before site.js's
  // listeners there (registered earlier); an event stopped on its way (verdex's guard) is not here
  function onHandled(e) {
    const path = pathOf(e);
    const target = path[0];
    if (!target) return;
    send({ t: 'did', type: e.type, trusted: e.isTrusted, oid: oidsOf(target), rec: recordOf(target),
      field: target.dataset ? target.dataset.field : undefined, path: path.map(oidsOf),
      text: (target.textContent || target.value || '').trim().slice(0, 80) });
  }
  for (const type of ['click', 'dblclick', 'input', 'change', 'keydown']) document.addEventListener(type, onHandled);
  window.addEventListener('scroll', () => { lastChange = performance.now(); }, true);
  for (const type of ['mousedown', 'mouseup', 'mousemove', 'click', 'dblclick', 'input', 'change', 'mouseover', 'keydown', 'focusin']) {
    window.addEventListener(type, onEvent, true);
  }

  function inView(r) {
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }
  function blockedByModal(el) {
    const modal = document.querySelector('dialog:modal');
    return !!modal && !modal.contains(el);
  }
  // An option of a select has no box of its own while the select is closed: it is shown as its select
  // is, unless it is itself hidden (as in the accessibility tree, and in verdex's snapshots)
  function shown(el) {
    const select = el.localName === 'option' ? el.closest('select') : null;
    if (!select) return el.checkVisibility({ visibilityProperty: true });
    return select.checkVisibility({ visibilityProperty: true }) && !el.hidden && getComputedStyle(el).display !== 'none';
  }
  function probe(id) {
    const el = byOid.get(id);
    if (!el) return { known: false };
    const r = el.getBoundingClientRect();
    const out = {
      known: true, connected: el.isConnected, gen: gen.get(id), key: keyOf(el),
      text: (el.textContent || '').trim().slice(0, 80), tag: el.localName, type: el.type || null,
      hidden: !el.isConnected || !shown(el),
      disabled: !!(el.matches && el.matches(':disabled')), readonly: !!el.readOnly,
      zero: r.width <= 0 || r.height <= 0, inView: inView(r),
      hover: el.isConnected && el.matches(el.localName + ':hover'), // tag-qualified: the quirks-mode :hover quirk focused: document.activeElement === el,
      inert: !!el.closest('[inert]') || blockedByModal(el), rect: [r.x, r.y, r.width, r.height],
    };
    if (out.inView) {
      const x = Math.min(Math.max(r.x + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.y + r.height / 2, 0), innerHeight - 1);
      let hit = document.elementFromPoint(x, y);
      for (let root = hit && closedOf.get(hit); root; root = closedOf.get(hit)) {  // into a closed root
        const inner = root.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      const own = hit && (el.contains(hit) || [...(el.labels || [])].some((l) => l.contains(hit)));
      out.covered = !own;
      out.cover = own || !hit ? null : oidsOf(hit);
    }
    out.rec = recordOf(el);
    out.field = el.dataset ? el.dataset.field : undefined;
    if (el.matches && el.matches('input,textarea,select')) out.state = fieldState(el);
    // a field the page's render function replaced: the one with the same model field shown now
    const now = !el.isConnected && el.dataset && el.dataset.field
      ? document.querySelector('[data-field="' + el.dataset.field + '"]') : null;
    if (now) { out.state = fieldState(now); out.replaced = oidsOf(now); }
    // an iframe: which of this window's frames it shows (its document's flush path ends with it)
    if (el.localName === 'iframe') {
      out.win = null;
      for (let i = 0; i < window.length; i++) if (window[i] === el.contentWindow) out.win = i;
    }
    return out;
  }

  // where an iframe shows its document: its content box in this viewport, whether all of it is in
  // view, and a 6 x 4 grid of hit tests over it (true: that point reaches the iframe)
  function frameView(f) {
    const r = f.getBoundingClientRect();
    const x0 = r.x + f.clientLeft;
    const y0 = r.y + f.clientTop;
    const grid = [];
    for (let j = 0; j < 4; j++) {
      const row = [];
      for (let i = 0; i < 6; i++) {
        const x = x0 + (i + 0.5) * f.clientWidth / 6;
        const y = y0 + (j + 0.5) * f.clientHeight / 4;
        row.push(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === f);
      }
      grid.push(row);
    }
    const full = r.width > 0 && r.x >= 0 && r.y >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    return { box: [x0, y0, f.clientWidth, f.clientHeight], full, grid, inert: !!f.closest('[inert]') || blockedByModal(f) };
  }

  function settled(cap) {
    return new Promise((res) => {
      const start = performance.now();
      (function poll() {
        const t = performance.now();
        if (pending === 0 && t - lastChange >= 60) return res(true);
        if (t - start > cap) return res(false);
        setTimeout(poll, 15);
      })();
    });
  }

  window.addEventListener('message', async (e) => {
    const d = e.data;
    if (!d || typeof d !== 'object' || !d.__oracleFlush) return;
    const ok = await settled(1500);
    const probes = {};
    const before = {};
    for (const id of d.probe || []) if (id.startsWith('oid-' + DOC + '-')) before[id] = byOid.get(id) && byOid.get(id).getBoundingClientRect();
    if (d.moving && Object.keys(before).length) await new Promise((r) => setTimeout(r, 60));
    for (const id of Object.keys(before)) {
      probes[id] = probe(id);
      const a = before[id];
      const b = byOid.get(id) && byOid.get(id).getBoundingClientRect();
      probes[id].moving = !!(a && b && (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height));
    }
    const act = document.activeElement;
    send({
      t: 'flush', token: d.__oracleFlush, url: location.href, top: window === top, settled: ok, path: d.path || [],
      frames: [...document.querySelectorAll('iframe')].map(frameView),
      visibility: document.visibilityState, active: act && act !== document.body ? oidsOf(act) : null,
      modal: !!document.querySelector('dialog:modal'), fields: fields(), probes,
      shop: !!document.body && document.body.innerText.includes('Shop'), // for 'wait text Shop'
    });
  });

  window.addEventListener('pagehide', () => send({ t: 'bye', url: location.href }));
  send({ t: 'hello', url: location.href, top: window === top });

  window.__oracle = {
    // the site reused `el` (and its subtree) for another item: a new generation, i.e. another element
    renew(el, key) {
      for (const x of [el, ...el.querySelectorAll('*')]) {
        const id = oidsOf(x);
        gen.set(id, gen.get(id) + 1);
        itemKey.set(id, key);
        send({ t: 'renew', oid: id, gen: gen.get(id), key });
      }
    },
    later(fn, ms) { pending++; setTimeout(() => { pending--; lastChange = performance.now(); fn(); }, ms); },
    frame(fn) { pending++; requestAnimationFrame(() => { pending--; lastChange = performance.now(); fn(); }); },
    fetch(url) { // the page's data: the body's number, counted as pending until its handlers ran
      pending++;
      return fetch(url).then((r) => r.text()).then((t) => { setTimeout(() => { pending--; lastChange = performance.now(); }, 0); return t; },
        () => { pending--; return '0'; });
    },
    note(what) { send({ t: 'note', what }); },
    closed: closedRoot,
    doc: DOC,
    oid: oidsOf,
  };
})();
