  // ---------------------------------------------------------------------
  // Closed shadow roots
  // ---------------------------------------------------------------------
  // A closed root is hidden from every world (el.shadowRoot is null); the protocol resolves it in this
  // one (browser/closed_roots.py) and it is held by its host here. The main world's watcher
  // (browser/timer_watch.py) hands over each host as its closed root is attached: `wanted` asks it
  // (KEY + 'c'); it sends KEY + 'h' on each host, heard on the window and on the closed roots held
  // (a host inside a closed root not held yet shows only that root's host: that one is wanted first).
  const closedRoots = new WeakMap();  // host -> its closed root
  let heldRoots = 0;
  let closedKey = null;
  let waiting = [];                   // hosts heard of whose roots are not held yet
  let unread = [];                    // hosts whose roots the protocol could not resolve
  let later = false;                  // the next walk goes without asking (a page attaching roots all the time)
  let scan = null;                    // the document's roots are to be looked for (null: not asked yet)

  function shadowOf(el) {
    const sr = el.shadowRoot;
    if (sr || heldRoots === 0) return sr || null;
    return closedRoots.get(el) || null;
  }

  // The focused element, inside shadow roots (the closed ones held here too).
  function deepActive() {
    let a = document.activeElement;
    for (let sr = a && shadowOf(a); sr && sr.activeElement; sr = shadowOf(a)) a = sr.activeElement;
    return a;
  }

  function heard(e) {
    e.stopPropagation();
    const t = e.composedPath()[0];
    if (!t || t.nodeType !== 1) return;
    const probe = new Event(closedKey + 'i', { cancelable: true });
    t.dispatchEvent(probe);
    if (probe.defaultPrevented) e.preventDefault();  // the host itself: taken
    if (!closedRoots.has(t) && !waiting.includes(t) && !unread.includes(t)) waiting.push(t);  // (unread: not again)
  }

  function closedListen(key) {
    if (closedKey !== null || !key) return;
    closedKey = key;
    window.addEventListener(key + 'h', heard);
  }

  function ask(name) {
    const e = new Event(closedKey + name, { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  }

  // Hosts whose closed roots are wanted before a walk: {closed: how many, scan: the document's roots
  // must be looked for (the watcher came after the page's scripts, or is not in this document)}; null
  // when none are.
  function closedWanted() {
    if (closedKey === null || later) { later = false; return null; }
    ask('c');
    // (a frame's document is looked through only when it has custom elements, which is where closed
    // roots are made: each frame's look costs its capture several round trips in turn, and an
    // out-of-process frame's watcher is installed as it attaches, before its scripts as a rule)
    if (scan === null) scan = (ask('L') || !ask('?')) && (window.top === window || hasCustom());
    if (waiting.length) waiting = waiting.filter((h) => !closedRoots.has(h));
    return waiting.length || scan ? { closed: waiting.length, scan } : null;
  }

  function hasCustom() {
    for (const el of document.getElementsByTagName('*')) if (el.localName.includes('-')) return true;
    return false;
  }

  function closedHost(i) { return waiting[i] || null; }
  function closedLater() { later = true; return true; }

  // The closed roots the protocol resolved here; wanted hosts left without one are named by `closedUnread`.
  function adoptClosed(roots) {
    for (const r of roots) {
      if (!r || r.nodeType !== 11 || !r.host || closedRoots.has(r.host) || r.host.shadowRoot === r) continue;
      closedRoots.set(r.host, r);
      heldRoots++;
      r.addEventListener(closedKey + 'h', heard);
    }
    for (const h of waiting) if (!closedRoots.has(h) && !unread.includes(h)) unread.push(h);
    waiting = [];
    scan = false;
    return heldRoots;
  }

  function closedUnread() {
    unread = unread.filter((h) => !closedRoots.has(h));
    return unread.filter((h) => h.isConnected);
  }

  // Is `inner` in `outer`'s flat tree (through shadow roots and the slots it is assigned to)?
  function composedContains(outer, inner) {
    for (let n = inner; n; n = n.parentNode || n.host) {
      if (n === outer) return true;
      if (n.assignedSlot && n.assignedSlot !== n.parentNode && composedContains(outer, n.assignedSlot)) return true;
    }
    return false;
  }

  // The element an event reached, as far as the closed roots held show it (a listener on the window
  // sees only the outermost host): a pointer event's deepest hit, else the focused element.
  function realTarget(ev) {
    let t = ev.composedPath()[0];
    if (!t || t.nodeType !== 1 || heldRoots === 0 || !closedRoots.has(t)) return t;
    if (ev instanceof MouseEvent) {
      for (let r = closedRoots.get(t); r; r = shadowOf(t)) {
        const inner = r.elementFromPoint(ev.clientX, ev.clientY);
        if (!inner || inner === t) break;
        t = inner;
      }
      return t;
    }
    for (let r = closedRoots.get(t); r && r.activeElement; r = shadowOf(t)) t = r.activeElement;
    return t;
  }
