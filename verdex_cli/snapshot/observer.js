// Change watcher of one document, for the snapshot cache (snapshot/cache.py). It lives in the
// isolated world next to the bridge and answers one question cheaply: may the page look different
// to a snapshot than at the last capture? It says "yes" (dirty) after
// - any DOM mutation (subtree, attributes, character data, child list; open shadow roots included
//   once a snapshot has walked them -- see watchShadow),
// - form input by the user (input, change), <details> toggles, focus moving (focusin, focusout, and
//   the focused element compared with the one at the capture),
// - window resize, visual viewport resize, and media-query changes (colour scheme, reduced motion,
//   orientation, print),
// - a CSS transition or animation starting or ending; and while any animation or transition is
//   running the document always counts as dirty (animations can hide or reveal elements).
// - the pointer moving or pressing, when the document's style sheets have :hover/:active rules that
//   can show, hide or rename elements (display, visibility, content, opacity); a sheet the
//   isolated world cannot read (cross-origin) counts as having them.
// It also keeps the time of the last change, so an action can wait for the page to settle (quiet()).
// What it cannot see (documented in README): style changes made only through the CSSOM
// (insertRule, adoptedStyleSheets) and canvas drawing.
const Observer = (() => {
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
  const mark = () => { dirty = true; changedAt = performance.now(); };
  // A DOM change: dirty. Inline-style-only changes (a script animating transform or opacity every
  // frame) leave the settle clock alone, so they cannot hold an action up; they still make it dirty.
  function changed(records) {
    pointerRules = null;
    dirty = true;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (r.type !== 'attributes' || r.attributeName !== 'style') { changedAt = performance.now(); return; }
    }
  }
  let pointerRules = null;     // [sheet count, answer]: do :hover/:active rules change the tree?
  const TREE_PROPS = /(^|[;{\s])(display|visibility|content|opacity)\s*:/;

  function deepActive() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  function start() {
    if (started) return;
    started = true;
    mo = new MutationObserver(changed);
    mo.observe(document, OPTIONS);
    const opts = { capture: true, passive: true };
    for (const type of ['input', 'change', 'toggle', 'focusin', 'focusout', 'reset', 'load', 'error'])
      document.addEventListener(type, mark, opts);
    for (const type of ['animationstart', 'transitionrun']) {
      document.addEventListener(type, () => { running++; dirty = true; }, opts);
    }
    for (const type of ['animationend', 'animationcancel', 'transitionend', 'transitioncancel']) {
      document.addEventListener(type, () => { running = Math.max(0, running - 1); dirty = true; }, opts);
    }
    for (const type of ['pointerover', 'pointerout', 'pointerdown', 'pointerup'])
      document.addEventListener(type, () => { if (pointerSensitive()) mark(); }, opts);
    window.addEventListener('resize', mark, opts);
    if (window.visualViewport) window.visualViewport.addEventListener('resize', mark, { passive: true });
    for (const q of MEDIA) {
      try { window.matchMedia(q).addEventListener('change', mark); } catch (e) { /* old engines */ }
    }
  }

  function rulesChangeTree(rules) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.cssRules && r.cssRules.length && rulesChangeTree(r.cssRules)) return true;  // @media, @supports
      const sel = r.selectorText;
      if (sel && (sel.includes(':hover') || sel.includes(':active')) && TREE_PROPS.test(r.cssText)) return true;
    }
    return false;
  }

  // Whether moving or pressing the pointer can change what a snapshot shows (cached per sheet count;
  // any DOM mutation re-checks, since it may have added or changed a <style>).
  function pointerSensitive() {
    const sheets = document.styleSheets;
    if (pointerRules && pointerRules[0] === sheets.length) return pointerRules[1];
    let answer = false;
    for (let i = 0; i < sheets.length && !answer; i++) {
      try { answer = rulesChangeTree(sheets[i].cssRules); } catch (e) { answer = true; }  // unreadable sheet
    }
    pointerRules = [sheets.length, answer];
    return answer;
  }

  // Open shadow roots are not covered by an observer on the document: watch each one a snapshot saw.
  function watchShadow(root) {
    if (!mo || shadows.has(root)) return;
    shadows.add(root);
    mo.observe(root, OPTIONS);
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
    if (mo) mo.takeRecords();
    dirty = false;
    active = deepActive();
    hadFocus = document.hasFocus();
  }

  // The cache check: pending mutation records count, so no microtask timing matters.
  function isDirty() {
    if (!started) return true;
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    return dirty || deepActive() !== active || document.hasFocus() !== hadFocus || animating();
  }

  // For settling after an action: dirty or not, and milliseconds since the last DOM change, input
  // or focus move (running animations and inline-style changes do not count here: a spinner must
  // not hold an action up).
  function quiet() {
    if (mo) { const pending = mo.takeRecords(); if (pending.length) changed(pending); }
    const d = isDirty();
    return { dirty: d, idle: changedAt ? performance.now() - changedAt : 1e9 };
  }

  return { start, clean, isDirty, quiet, watchShadow, mark };
})();
