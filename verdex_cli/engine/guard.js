// The click guard (module Guard, in the isolated world; see engine.py): trusted mouse events (verdex's
// own input) that would reach another element than the ref's are stopped. The page's own script-made
// events (a handler calling other.click(), opening a hidden file input, clicking a download link) are
// the page's business: never stopped, never counted.
  let guard = null;
  const GUARDED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];

  function arm(n) {
    disarm();
    const el = Registry.get(n);
    if (!el) return false;
    const g = { el, received: 0, got: [], blocked: [], handler: null, nav: false, onNav: null };
    // a navigation this document starts while armed (the Navigation API's navigate event, fired when
    // a link's activation or a script begins one): a second click must not follow into the next page
    // (another document only: within this one the guard still sees where the second click goes)
    g.onNav = (e) => { if (!(e.destination && e.destination.sameDocument)) g.nav = true; };
    if (window.navigation) window.navigation.addEventListener('navigate', g.onNav);
    // the document goes away while armed (a handler navigates its frame): what the guard saw is told
    // through the binding (browser/guard_world.py), since no read-back will find this document
    g.onHide = () => {
      const tell = globalThis.__verdexGuardLeft;
      if (guard === g && typeof tell === 'function') tell(JSON.stringify({ n, received: g.received, got: g.got, blocked: g.blocked }));
    };
    window.addEventListener('pagehide', g.onHide);
    g.handler = (ev) => {
      if (!ev.isTrusted) return;
      const path = ev.composedPath();
      const ok = path.includes(el) || (el.labels && [...el.labels].some((l) => path.includes(l))) ||
        Aria.composedContains(el, Aria.realTarget(ev));
      // the page put another record in the element's place since it was checked (a live grid that
      // re-sorts its recycled rows as the pointer comes in): that record is not the one the user saw
      const other = ok ? Registry.identityChange(n) : '';
      if (ok && !other) { g.received++; if (g.got.length < 16) g.got.push(ev.type); return; }
      ev.stopImmediatePropagation();
      ev.preventDefault();
      g.blocked.push(ev.type + ' on ' + Aria.label(path[0] && path[0].nodeType === 1 ? path[0] : document.body) +
        (other ? ' now in another record (' + other + ')' : ''));
    };
    for (const t of GUARDED) window.addEventListener(t, g.handler, true);
    guard = g;
    return true;
  }

  function disarm() {
    if (!guard) return { received: 0, got: [], blocked: [], armed: false };  // (a new document: nothing seen here)
    for (const t of GUARDED) window.removeEventListener(t, guard.handler, true);
    if (window.navigation) window.navigation.removeEventListener('navigate', guard.onNav);
    window.removeEventListener('pagehide', guard.onHide);
    const out = { received: guard.received, got: guard.got, blocked: guard.blocked };
    guard = null;
    return out;
  }

  // Has the armed document begun a navigation (see arm)?
  function navigating() { return !!(guard && guard.nav); }

  return { GUARDED, arm, disarm, navigating };
