// Change watcher of one document, for the snapshot cache (snapshot/cache.py). It lives in the
// isolated world next to the bridge and answers one question cheaply: may the page look different
// to a snapshot than at the last capture? It says "yes" (dirty) after
// - any DOM mutation (subtree, attributes, character data, child list; shadow roots included from
//   their attachment to a connected element, or once a snapshot has walked them -- see watchShadow),
// - form input by the user (input, change), <details> toggles, focus moving (focusin, focusout, and
//   the focused element compared with the one at the capture),
// - window resize, visual viewport resize, and media-query changes (colour scheme, reduced motion,
//   orientation, print),
// - a CSS transition or animation starting or ending; and while an animation or transition of a
//   property a snapshot reads (display, visibility, content, ...: sheets.js) is running, the
//   document always counts as dirty (it can hide or reveal elements); opacity, transforms and
//   colours cannot change a snapshot.
// - the pointer moving or pressing, when the document's style sheets have :hover/:active rules that
//   can show, hide or rename elements (display, visibility, content, ...: sheets.js); a sheet the
//   isolated world cannot read (cross-origin) counts as having them.
// - a form field whose value, checked or selected state a script changed (no event, no mutation).
// It also keeps the time of the last change and of the last scroll, so an action can wait for the page
// to settle (quiet()),
// and *where* the page changed (take()), so a capture can re-walk only those parts (incremental.js):
// the element each mutation or input event touched, or "everything" (overflow) for changes that
// can reach any element (resize, media queries, :hover/:focus rules that show or hide things,
// style sheet edits, animations of display/visibility/content, a modal dialog opening).
// What it cannot see (documented in README): style changes made only through the CSSOM
// (insertRule, adoptedStyleSheets) and canvas drawing.
  let dirty = true;            // nothing captured yet
  let started = false;
  let running = 0;             // animations/transitions started and not yet ended
  let mo = null;
  const shadows = new WeakSet();
  const OPTIONS = { subtree: true, attributes: true, characterData: true, childList: true };
  const MEDIA = ['(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(orientation: portrait)',
    'print', '(forced-colors: active)'];

  let active = null;           // the focused element at the last capture (focus events do not fire
  let hadFocus = false;        // while the window has no focus, so this is compared as well)
  let changedAt = 0;           // performance.now() of the last change seen
  let scrolledAt = 0;          // performance.now() of the last scroll or scrollend event (any scroller)
  let scrolling = false;       // a scroll event came and its scrollend has not yet
  let touchedAt = 0;           // the last thing that can move an element: any DOM change (inline styles
                               // too), a load, a scroll, a resize, an input event (see stillFor)
  let startedAt = 0;
  const mark = () => { dirty = true; changedAt = performance.now(); };
  // times of the last DOM-changing tasks (a page that keeps changing by itself is told from one that
  // changed once in answer to an action: act.js settle)
  const beats = [];
  function beat(t) { if (beats.length && t - beats[beats.length - 1] < 2) return; beats.push(t); if (beats.length > 16) beats.shift(); }
  function beatsSince(t) { let n = 0; for (let i = beats.length - 1; i >= 0 && beats[i] > t; i--) n++; return n; }
  // ... and of trusted input: a change within ANSWER_MS after one is the page answering it; others,
  // seen BUSY_BEATS times in the last second, make a page that keeps changing by itself (a ticker)
  const ANSWER_MS = 50;
  const inputs = [];
  function inputSeen(e) {
    if (!e.isTrusted) return;
    const t = performance.now();
    inputs.push(t);
    while (inputs.length > 64 || (inputs.length && inputs[0] < t - 2000)) inputs.shift();
  }
  function background(now) {
    let n = 0;
    for (const t of beats) {
      if (t <= now - 1000) continue;
      let answer = false;
      for (const i of inputs) if (t >= i && t - i < ANSWER_MS) { answer = true; break; }
      if (!answer) n++;
    }
    return n;
  }
  // Where it changed since the last capture: node -> kinds (TEXT, LIST, ATTR, EVENT), or overflow.
  const TEXT = 1, LIST = 2, ATTR = 4, EVENT = 8;
  const MAX_ROOTS = 300;
  let roots = new Map();
  let overflow = true;         // nothing captured yet: everything counts as changed
  // whose doing a change was (ownTasks, below): the places the page's own tasks touched, and the others
  let own = 0, ownName = null, inOwn = false, ownOpen = 0, unsure = false;
  let ownSet = new Set(), otherSet = new Set();
  function touch(node, kind) {
    if (node && !unsure) {  // whose doing it was (ownTasks); too many places: not told apart
      const set = inOwn ? ownSet : otherSet;
      if (set.size >= MAX_ROOTS) unsure = true; else set.add(node);
    }
    if (overflow || !node) return;
    if (roots.size >= MAX_ROOTS && !roots.has(node)) { everything(); return; }
    roots.set(node, (roots.get(node) | 0) | kind);
  }
  function everything() { overflow = true; unsure = true; roots = new Map(); removedIds = new Set(); }
  // ids of removed elements (an element elsewhere may have taken its name from one), and 'for:ID'
  // for removed labels of a control elsewhere
  let removedIds = new Set();
  function idsOf(n) {
    if (overflow || n.nodeType !== 1) return;
    if (n.id) removedIds.add(n.id);
    if (n.localName === 'label' && n.htmlFor) removedIds.add('for:' + n.htmlFor);
    if (n.firstElementChild) {
      for (const d of n.querySelectorAll('[id]')) removedIds.add(d.id);
      for (const d of n.querySelectorAll('label[for]')) removedIds.add('for:' + d.htmlFor);
    }
  }
  const markAll = () => { mark(); everything(); };
  // attributes whose change can reach other elements (idrefs, a modal dialog, slot assignment)
  const FAR_ATTRS = new Set(['id', 'for', 'slot', 'open', 'usemap', 'name']);
  function note(r) {
    const t = r.target;
    if (inHead(t)) { if (!inTitle(t)) everything(); return; }
    if (r.type === 'characterData') { touch(t.parentNode, TEXT); return; }
    if (r.type === 'childList') {
      if (t.localName === 'style' || sheetNodes(r.addedNodes) || sheetNodes(r.removedNodes)) { everything(); return; }
      touch(t, LIST);
      for (let i = 0; i < r.removedNodes.length; i++) idsOf(r.removedNodes[i]);
      return;
    }
    const a = r.attributeName;
    if (FAR_ATTRS.has(a) && (a !== 'open' || t.localName === 'dialog') && (a !== 'name' || t.localName === 'map')) {
      everything();
      return;
    }
    if (t.localName === 'link' || t.localName === 'style') { everything(); return; }
    touch(t, ATTR);
  }
  function inHead(n) { const h = document.head; return !!h && (n === h || h.contains(n)); }
  function inTitle(n) { for (; n; n = n.parentNode) if (n.localName === 'title') return true; return false; }
  function sheetNodes(list) {
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n.nodeType !== 1) continue;
      if (n.localName === 'style' || n.localName === 'link' || (n.firstElementChild && n.querySelector('style, link'))) return true;
    }
    return false;
  }
  // A DOM change: dirty. Inline-style-only changes (a script animating transform or opacity every
  // frame) leave the settle clock alone, so they cannot hold an action up; they still make it dirty.
  function changed(records) {
    dirty = true;
    touchedAt = performance.now();
    let settled = true;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (settled && (r.type !== 'attributes' || r.attributeName !== 'style')) { changedAt = performance.now(); settled = false; beat(changedAt); }
      note(r);
    }
    if (inOwn && !settled) own++;
  }
  // A script can set a field's value, checked or selected state with no mutation and no event (a
  // "select all" checkbox checking the others): each field a capture showed is kept with its state,
  // and compared at the next check.
  let fields = new Map();
  function fieldKey(el) {
    if (el.localName === 'select') {
      let k = '';
      for (let i = 0; i < el.options.length; i++) k += el.options[i].selected ? '1' : '0';
      return k;
    }
    if (el.type === 'checkbox' || el.type === 'radio') return (el.checked ? 'c' : '') + (el.indeterminate ? 'i' : '');
    return el.value;
  }
  function field(el) { fields.set(el, fieldKey(el)); }
  function resetFields() { fields = new Map(); }
  // Did a field change since it was shown? With `note`, each changed field counts as changed there.
  function fieldsChanged(noteThem) {
    let any = false;
    for (const [el, k] of fields) {
      if (!el.isConnected) { fields.delete(el); continue; }
      const now = fieldKey(el);
      if (now === k) continue;
      any = true;
      if (!noteThem) return true;
      touch(el, EVENT);
      fields.set(el, now);
    }
    return any;
  }

  // User input changes a field's state without a mutation: the field (and its radio group).
  function input(ev) {
    mark();
    const t = Aria.realTarget(ev);
    if (!t || t.nodeType !== 1) { everything(); return; }
    if (t.localName === 'input' && t.type === 'radio' && t.name) {
      const scope = t.form || t.getRootNode();
      const all = scope.querySelectorAll ? scope.querySelectorAll('input[type=radio]') : [];
      for (let i = 0; i < all.length; i++) if (all[i].name === t.name) touch(all[i], EVENT);
    }
    touch(t, EVENT);
  }

  function start() {
    if (started) return;
    started = true;
    startedAt = performance.now();
    mo = new MutationObserver(changed);
    mo.observe(document, OPTIONS);
    const opts = { capture: true, passive: true };
    for (const type of ['input', 'change', 'toggle', 'reset', 'load', 'error', 'play', 'pause', 'volumechange',
      'durationchange', 'emptied'])
      document.addEventListener(type, input, opts);
    for (const type of ['pointerdown', 'pointerup', 'pointerover', 'keydown', 'input'])
      window.addEventListener(type, inputSeen, opts);
    for (const type of ['focusin', 'focusout'])
      document.addEventListener(type, () => { mark(); if (Sheets.any('focus')) everything(); }, opts);
    for (const type of ['animationstart', 'transitionrun']) {
      document.addEventListener(type, () => { running++; dirty = true; }, opts);
    }
    for (const type of ['animationend', 'animationcancel', 'transitionend', 'transitioncancel']) {
      document.addEventListener(type, () => { running = Math.max(0, running - 1); dirty = true; }, opts);
    }
    for (const type of ['pointerover', 'pointerout', 'pointerdown', 'pointerup'])
      document.addEventListener(type, () => { if (Sheets.any('hover')) markAll(); }, opts);
    // scrolling (settle waits for it: a smooth scroll reveals content as it goes); not a change by itself
    document.addEventListener('scroll', () => { scrolledAt = performance.now(); scrolling = true; }, opts);
    document.addEventListener('scrollend', () => { scrolledAt = performance.now(); scrolling = false; }, opts);
    window.addEventListener('resize', markAll, opts);
    for (const type of ['resize', 'load', 'error', 'input', 'change', 'toggle', 'scroll'])
      window.addEventListener(type, () => { touchedAt = performance.now(); }, opts);
    if (window.visualViewport) window.visualViewport.addEventListener('resize', markAll, { passive: true });
    for (const q of MEDIA) {
      try { window.matchMedia(q).addEventListener('change', markAll); } catch (e) { /* old engines */ }
    }
  }

  // A shadow root attached to an element in the document (a custom element upgraded late) changes what
  // it shows with no mutation: the main world's watcher (browser/timer_watch.py) sends `name` on it (an
  // event that does not leave the root the host is in: heard on each root watched too). The new root is
  // watched from then on (a component renders into it after the next capture as well as before).
  let attachName = null;
  function attached(e) {
    mark();
    touch(e.target, LIST);
    const sr = Aria.shadowOf(e.target);
    if (sr) watchShadow(sr);
  }
  function shadowAttached(name) {
    if (attachName !== null) return;
    attachName = name;
    document.addEventListener(name, attached, { capture: true, passive: true });
  }

  // DOM-changing tasks the page ran on its own since the last capture: a timer, interval or animation
  // frame it set with no input behind it (the main world's watcher, browser/timer_watch.py, sends `name`
  // after each one's callback; what it changed is taken then, so it is told from the rest). An action's
  // changes leave out what only such tasks touched (ownOnly; act/changes.py), and say when they ran.
  function ownTasks(name) {
    if (ownName !== null) return;
    ownName = name;
    const opts = { capture: true, passive: true };
    window.addEventListener(name + '(', () => { ownOpen++; inOwn = true; }, opts);  // one began ...
    window.addEventListener(name, () => {  // ... and ended, with its promise continuations
      const pending = mo ? mo.takeRecords() : [];
      inOwn = true;
      try { if (pending.length) changed(pending); } finally { ownOpen = Math.max(0, ownOpen - 1); inOwn = ownOpen > 0; }
    }, opts);
  }
  const ownChanges = () => own;
  const inside = (n, root) => { for (; n; n = n.parentNode || n.host) if (n === root) return true; return false; };
  // The identities (idFor) of the elements only the page's own tasks changed since the last capture
  // (nothing else changed them, anything in them or anything around them), and whether that is every
  // place they changed.
  function ownOnly(idFor) {
    const ids = [];
    let all = !unsure;
    for (const o of unsure ? [] : ownSet) {
      let alone = o.nodeType === 1 && o.isConnected;
      for (const x of alone ? otherSet : []) if (inside(x, o) || inside(o, x)) { alone = false; break; }
      const id = alone ? idFor(o) : 0;
      if (id) ids.push(id); else all = false;
    }
    return { ids, all };
  }

  // Shadow roots are not covered by an observer on the document: watch each one a snapshot saw or
  // whose attachment was heard.
  function watchShadow(root) {
    if (!mo || shadows.has(root)) return false;
    shadows.add(root);
    mo.observe(root, OPTIONS);
    if (attachName !== null) root.addEventListener(attachName, attached, { capture: true, passive: true });
    return true;
  }
  // ... and before the first capture (an action first: act.js asks stillFor), the roots there are now,
  // once: true when one was new (watched only from now)
  let swept = false;
  function sweep(root) {
    let added = false;
    for (const el of root.querySelectorAll('*')) {
      const sr = Aria.shadowOf(el);
      if (sr && watchShadow(sr)) { sweep(sr); added = true; }
    }
    return added;
  }

  function animating() {
    if (running > 0) return true;
    if (!document.getAnimations) return false;
    const all = document.getAnimations();
    for (let i = 0; i < all.length; i++) if (all[i].playState === 'running') return true;
    return false;
  }

  // Called at the start of a capture: what the capture sees is the new clean state.
  function clean() {
    start();
    swept = true;  // (the capture's walk watches the roots it sees)
    if (mo) mo.takeRecords();
    dirty = false;
    own = 0; unsure = false; ownSet = new Set(); otherSet = new Set();
    roots = new Map();
    removedIds = new Set();
    overflow = false;
    active = Aria.deepActive();
    hadFocus = document.hasFocus();
  }

  // What changed since the last capture ({overflow, roots}), then clean: the capture that asks
  // sees the new state. Before the first capture everything counts as changed.
  function take() {
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    if (Aria.deepActive() !== active && Sheets.any('focus')) everything();
    if (fieldsChanged(true)) dirty = true;
    if (animating() && Sheets.animatesTree()) everything();
    const out = { overflow, roots, removedIds };
    clean();
    return out;
  }

  // The cache check: pending mutation records count, so no microtask timing matters.
  function isDirty() {
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    return dirty || Aria.deepActive() !== active || document.hasFocus() !== hadFocus || (animating() && Sheets.animatesTree())
      || fieldsChanged(false);
  }

  // For settling after an action: dirty or not, milliseconds since the last DOM change, input or
  // focus move (running animations and inline-style changes do not count here: a spinner must not
  // hold an action up), milliseconds since the last scroll event of any scroller, and whether a
  // scroll is under way (no scrollend since its last scroll event).
  function quiet() {
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    const d = isDirty();
    const now = performance.now();
    return { dirty: d, idle: changedAt ? now - changedAt : 1e9, scroll: scrolledAt ? now - scrolledAt : 1e9,
      scrolling };
  }

  // Milliseconds in which nothing that can move an element happened in this document (no DOM change,
  // inline styles included, no load, scroll, resize or input; no animation or transition running),
  // as far as the watcher has seen since it started; 0 when it cannot vouch (not watching, or moving now).
  function stillFor() {
    if (!started) return 0;
    if (!swept) { swept = true; if (sweep(document)) startedAt = performance.now(); }
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    if (scrolling || animating()) return 0;
    return performance.now() - Math.max(touchedAt, changedAt, scrolledAt, startedAt);
  }

  return { start, take, isDirty, quiet, stillFor, beatsSince, background, watchShadow, shadowAttached, ownTasks,
    ownChanges, ownOnly, mark, field,
    resetFields, TEXT, EVENT };
