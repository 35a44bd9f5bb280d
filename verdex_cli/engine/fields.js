// In-page field helpers for fill/type/press/upload, in the same isolated world as the bridge:
// what kind of field a ref is, deep focus checks, caret placement, picker values and a key guard.
// Page scripts cannot see or call any of it.
// Module Fields, exported as __verdex.fields (see engine.py).
  const B = Bridge;
  const TEXT = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const PICKER = new Set(['range', 'color', 'date', 'time', 'datetime-local', 'month', 'week']);
  const BUTTON = new Set(['button', 'submit', 'reset', 'image']);
  // inputs whose caret can be placed by script; the others get an End key press
  const SELECTABLE = new Set(['text', 'search', 'url', 'tel', 'password']);

  function inputType(el) { return el.localName === 'input' ? (el.type || 'text').toLowerCase() : el.localName; }

  function kindOf(el) {
    const tag = el.localName;
    if (tag === 'input') {
      const t = inputType(el);
      if (TEXT.has(t)) return 'text';
      if (PICKER.has(t)) return 'picker';
      if (t === 'file') return 'file';
      if (t === 'checkbox' || t === 'radio') return 'checkable';
      if (BUTTON.has(t)) return 'button';
      return 'none';
    }
    if (tag === 'textarea') return 'text';
    if (tag === 'select') return 'select';
    if (el.isContentEditable) return 'text';
    if (tag === 'button') return 'button';
    return 'none';
  }

  function isPassword(el) { return el.localName === 'input' && inputType(el) === 'password'; }

  function info(n) {
    const el = B.element(n);
    if (!el) return { status: 'unknown' };
    if (!el.isConnected) return { status: 'removed' };
    const readonly = (('readOnly' in el) && el.readOnly === true && el.localName !== 'select')
      || el.getAttribute('aria-readonly') === 'true';
    return {
      status: 'ok', kind: kindOf(el), type: inputType(el), role: Aria.role(el) || 'generic', readonly,
      disabled: el.matches(':disabled'), multiple: el.multiple === true, password: isPassword(el),
      min: el.getAttribute('min'), max: el.getAttribute('max'), step: el.getAttribute('step'),
    };
  }

  // ---- focus --------------------------------------------------------------------------------
  function contains(outer, inner) {
    for (let x = inner; x; x = x.parentNode || x.host) if (x === outer) return true;
    return false;
  }

  // Does focus (or a key event's target) `a` count as being on `el`? The element itself, something
  // inside its shadow tree, or the contenteditable host that holds it.
  function isOn(el, a) {
    return !!a && (a === el || contains(el, a) || (a.isContentEditable === true && contains(a, el)));
  }

  function refNumber(el) {
    for (let n = B.counter; n > 0; n--) if (B.element(n) === el) return n;
    return 0;
  }

  function who(a) {
    if (!a || a === document.body || a === document.documentElement) return { none: true };
    const role = Aria.role(a) || 'generic';
    const out = { role, name: Aria.name(a, role).name, n: refNumber(a), tag: Aria.label(a) };
    if (a.localName === 'iframe' || a.localName === 'frame') out.frame = true;
    if (isPassword(a)) out.password = true;
    return out;
  }

  // (the watched field's replacement once the page re-rendered it: see `follow`; `replaced` says so)
  function focusState(n) {
    const el = follow(n);
    if (!el) return { status: 'removed' };
    const a = Aria.deepActive();
    const out = isOn(el, a) ? { status: 'ok' } : { status: 'elsewhere', on: who(a) };
    if (el !== B.element(n)) out.replaced = true;
    return out;
  }

  function focus(n) {
    const el = B.element(n);
    if (!el || !el.isConnected) return { status: 'removed' };
    if (!isOn(el, Aria.deepActive())) el.focus({ preventScroll: true });
    return focusState(n);
  }

  // In a parent frame: does focus sit on this frame owner (the way into the child frame)?
  function holds(owner) {
    const a = Aria.deepActive();
    return a === owner ? true : who(a);
  }

  function focused() { return who(Aria.deepActive()); }
  function focusedElement() { return Aria.deepActive(); }

  // ---- values -------------------------------------------------------------------------------
  function value(n) {
    const el = follow(n);
    return el ? valueOf(el) : null;
  }

  function valueOf(el) {
    if (el.localName !== 'input' && el.localName !== 'textarea' && el.isContentEditable) return el.textContent;
    return typeof el.value === 'string' ? el.value : null;
  }

  function selectAll(n) {
    const el = B.element(n);
    if (!el) return false;
    if (el.localName === 'input' || el.localName === 'textarea') { el.select(); return true; }
    if (el.isContentEditable) { selectContents(el, false); return true; }
    return false;
  }

  function selectContents(el, collapseToEnd) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (collapseToEnd) range.collapse(false);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // Put the caret after the last character; 'key' when only an End key press can do it here.
  function caretToEnd(n) {
    const el = B.element(n);
    if (!el) return 'removed';
    if (el.localName === 'textarea' || (el.localName === 'input' && SELECTABLE.has(inputType(el)))) {
      const len = el.value.length;
      el.setSelectionRange(len, len);
      return 'ok';
    }
    if (el.localName === 'input') return 'key';
    if (el.isContentEditable) { selectContents(el, true); return 'ok'; }
    return 'none';
  }

  // ---- picker kinds ---------------------------------------------------------------------------
  // The browser's own parser decides: a detached input of the same type and limits.
  function checkPicker(n, text) {
    const el = B.element(n);
    if (!el) return { ok: false, reason: 'removed' };
    const t = inputType(el);
    if (t === 'color') {
      if (!/^#[0-9a-fA-F]{6}$/.test(text)) return { ok: false, reason: 'format' };
      return { ok: true, value: text.toLowerCase() };
    }
    if (text === '') return t === 'range' ? { ok: false, reason: 'empty' } : { ok: true, value: '' };
    if (t === 'range' && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return { ok: false, reason: 'format' };
    const probe = document.createElement('input');
    probe.type = t;
    for (const a of ['min', 'max', 'step']) if (el.hasAttribute(a)) probe.setAttribute(a, el.getAttribute(a));
    if (t === 'datetime-local') text = text.replace(' ', 'T');
    probe.value = text;
    if (t === 'range') {
      if (Number(probe.value) !== Number(text)) return { ok: false, reason: 'range', min: probe.min || '0', max: probe.max || '100', step: probe.step || '1' };
      return { ok: true, value: probe.value };
    }
    if (probe.value === '') return { ok: false, reason: 'format' };
    if (probe.validity.rangeUnderflow || probe.validity.rangeOverflow) return { ok: false, reason: 'limits', min: el.getAttribute('min'), max: el.getAttribute('max') };
    if (el.hasAttribute('step') && probe.validity.stepMismatch) return { ok: false, reason: 'step', step: el.getAttribute('step') };
    return { ok: true, value: probe.value };
  }

  const valueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;

  // What a picker does when the user chooses: the value changes, then input and change fire.
  // `key`: the main world's timer watcher (browser/timer_watch.py) counts the timers the page's
  // handlers set while these events run, as for trusted input
  function setPicker(n, v, key) {
    const el = B.element(n);
    if (!el || !el.isConnected) return { status: 'removed' };
    valueSetter.call(el, v);
    const set = el.value;  // what the browser made of it, before the page's handlers
    if (key) window.dispatchEvent(new CustomEvent(key + '+'));
    try {
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } finally {
      if (key) window.dispatchEvent(new CustomEvent(key + '-'));
    }
    return { status: 'ok', value: el.value, set };
  }

  // The file input whose chooser the page opened (a button that clicks a hidden input): a ref for it.
  function chooser(el) {
    const role = Aria.role(el) || 'generic';
    return { n: B.issue(el), counter: B.counter, role, name: Aria.name(el, role).name, label: Aria.label(el),
      hidden: Aria.isHidden(el), multiple: el.multiple === true };
  }

  function files(n) {
    const el = B.element(n);
    if (!el || !el.files) return null;
    return [...el.files].map((f) => f.name);
  }

  // ---- the key guard: key events that would reach another element are stopped -----------------
  let guard = null;
  const KEYS = ['keydown', 'keypress', 'beforeinput', 'input'];

  // n = 0 arms a parent frame, where no key event may land at all while the child frame types.
  function armKeys(n) {
    disarmKeys();
    const el = n ? B.element(n) : null;
    if (n && !el) return false;
    const g = { el, blocked: [], handler: null };
    g.handler = (ev) => {
      if (!ev.isTrusted) return;  // the page's own synthetic events are not our keys
      const t = Aria.realTarget(ev);
      if (g.el && isOn(g.el, t && t.nodeType === 1 ? t : null)) return;
      if (ev.cancelable) ev.preventDefault();
      ev.stopImmediatePropagation();
      g.blocked.push(who(t && t.nodeType === 1 ? t : document.body));
    };
    for (const t of KEYS) window.addEventListener(t, g.handler, true);
    guard = g;
    return true;
  }

  function disarmKeys() {
    if (!guard) return [];
    for (const t of KEYS) window.removeEventListener(t, guard.handler, true);
    const out = guard.blocked;
    guard = null;
    return out;
  }

  // ---- the field watch: the state the browser itself gave the field at each trusted input/change
  // event on it, seen before the page's own handlers on the element or document run (a capture
  // listener on the window). A final state that differs from the last one seen was made by the page.
  let watch = null;
  const WATCHED = ['input', 'change'];

  function stateOf(el) {
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    if (el.localName === 'select') return [...el.options].filter((o) => o.selected).map((o) => o.index);
    return valueOf(el);
  }

  // (`el`: the field now, its replacement once followed; `was`: the ref's own element)
  function watchField(n) {
    unwatchField();
    const el = B.element(n);
    if (!el) return false;
    const w = { n, el, was: el, place: placeOf(el), seen: [], handler: null };
    w.handler = (ev) => {
      if (!ev.isTrusted) return;  // the page's own synthetic events are not the browser's doing
      const t = Aria.realTarget(ev);
      if (isOn(w.el, t && t.nodeType === 1 ? t : null)) w.seen.push(stateOf(w.el));
    };
    for (const t of WATCHED) window.addEventListener(t, w.handler, true);
    watch = w;
    return true;
  }

  // What the watch saw ({watched, seen: [...]}), and the field's state now ({now}; `replaced`: that of
  // the field the page put in its place); the watch ends.
  function unwatchField(n) {
    const el = n ? follow(n) : null;
    const w = watch;
    if (w) for (const t of WATCHED) window.removeEventListener(t, w.handler, true);
    watch = null;
    const live = !!el && (!w || w.el === el);
    return { watched: !!w, seen: w ? w.seen : [], now: live ? stateOf(el) : null, removed: !!n && !live,
      replaced: live && el !== B.element(n) };
  }

  // The checked state of the field now (its replacement's, followed), for check/uncheck.
  function checkedNow(n) {
    const el = follow(n);
    if (!el) return { status: 'removed' };
    const role = Aria.role(el) || 'generic';
    return { status: 'live', checked: (Aria.states(el, role) || {}).checked, replaced: el !== B.element(n) };
  }

  // The options of the select now (of its replacement, followed), for select's read-back.
  function optionsNow(n) {
    const el = follow(n);
    const out = el ? B.options(n, el) : null;
    if (out) out.replaced = el !== B.element(n);
    return out;
  }

  // ---- a field the page replaced: a render function that rebuilds its form (`app.innerHTML = ...`)
  // puts a new control where the watched one was. Its place: the way down from the document to it,
  // each step the tag and either the step's record key (the same record, wherever it moved) or, with
  // none, its index among same-tag siblings; its role and name; and its row (list item, table row):
  // the row's key, or its text. Only the control found by that way with the same role, name and row is
  // taken for it: never a control of another record.
  const KEY_ATTRS = ['id', 'key', 'data-id', 'data-key', 'data-testid', 'data-row-key'];
  const ROW = 'li, tr, article, [role=row], [role=listitem], [role=option], [role=treeitem], [role=article]';

  function keyOf(el) {
    let k = '';
    for (const a of KEY_ATTRS) if (el.hasAttribute(a)) k += a + '=' + el.getAttribute(a) + '\n';
    return k;
  }

  function sameTag(parent, tag) { return [...parent.children].filter((c) => c.localName === tag); }

  function describeField(el) {
    const role = Aria.role(el) || 'generic';
    const row = el.parentElement && el.parentElement.closest(ROW);
    return { role, name: Aria.name(el, role).name, type: inputType(el),
      row: row ? keyOf(row) || row.textContent.replace(/\s+/g, ' ').trim() : '' };
  }

  function placeOf(el) {
    const steps = [];
    for (let x = el; x;) {
      const up = x.parentNode;
      const shadow = !!up && up.nodeType === 11 && !!up.host;
      steps.push({ tag: x.localName, key: keyOf(x), i: up ? sameTag(up, x.localName).indexOf(x) : 0, shadow });
      x = shadow ? up.host : x.parentElement;
    }
    return { steps: steps.reverse(), what: describeField(el) };
  }

  function walk(steps) {
    let node = document;
    for (const s of steps) {
      const parent = s.shadow ? Aria.shadowOf(node) : node;
      if (!parent) return null;
      const same = sameTag(parent, s.tag);
      const hits = s.key ? same.filter((c) => keyOf(c) === s.key) : [same[s.i]];
      if (hits.length !== 1 || !hits[0]) return null;
      node = hits[0];
    }
    return node;
  }

  // The ref's element, or (it is gone, and a watch saw it) the control the page put in its place. The
  // watch holds the element: the registry forgets a disconnected one after a few captures (a busy page
  // is captured several times while a read-back waits for it to settle).
  function follow(n) {
    const w = watch;
    const el = B.element(n) || (w && w.n === n ? w.was : null);
    if (!el || el.isConnected) return el;
    if (!w || w.was !== el) return null;
    const prev = w.el;  // (the replacement followed before, when the page re-renders at every key)
    if (prev !== el && prev.isConnected) return prev;
    const now = walk(w.place.steps);
    if (!now || now === el || Aria.isHidden(now)) return null;
    const was = w.place.what, is = describeField(now);
    if (is.role !== was.role || is.name !== was.name || is.type !== was.type || is.row !== was.row) return null;
    w.el = now;
    if (guard && guard.el === prev) guard.el = now;  // the key guard lets keys reach the new field
    return now;
  }

  return { info, focus, focusState, holds, focused, focusedElement, value, selectAll, caretToEnd, checkPicker,
    setPicker, files, chooser, armKeys, disarmKeys, watchField, unwatchField, checkedNow, optionsNow };
