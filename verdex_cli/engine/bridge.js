// The in-page half of verdex: walks one frame's DOM (open shadow roots in
// flat-tree order) and returns the accessibility tree as one JSON string.
// It runs in an isolated world (module Bridge, exported as __verdex.bridge; see engine.py), so page scripts
// can neither see nor tamper with the element -> ref registry below.
  const TIER1 = new Set(['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'slider',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'searchbox', 'spinbutton', 'iframe']);
  const TIER2 = new Set(['listitem', 'option', 'treeitem', 'row', 'cell', 'gridcell']);
  const CONTAINERS = new Set(['listbox', 'combobox', 'tree', 'grid', 'treegrid', 'menu']);
  const COLLAPSIBLE = new Set(['generic', 'none', 'presentation']);
  // roles whose name can only come from their content (or aria-label/title):
  // with element children and no ref, such a name is not shown, so not computed
  const CONTENT_NAMED = new Set(['row', 'cell', 'gridcell', 'columnheader', 'rowheader', 'listitem', 'legend',
    'label', 'term', 'tooltip']);
  const CELLS = new Set(['cell', 'gridcell']);
  // ARIA "children presentational": their content is only their name
  const LEAVES = new Set(['button', 'checkbox', 'radio', 'switch', 'img', 'slider', 'progressbar', 'meter',
    'separator', 'scrollbar', 'menuitemcheckbox', 'menuitemradio', 'math']);
  const WS = /\s+/g;
  // a cheap pre-check before looking for refs inside a children-presentational control
  const MAYBE_INTERACTIVE = 'a[href], area[href], a[onclick], button, input, select, textarea, [tabindex], [role], [contenteditable]';

  let owners = [];                 // frame owner elements of the last snapshot
  let tracking = false;            // this walk is what the next capture compares with (fields)
  // owner element -> {id: frame id, win: its contentWindow} as Python found it (tagOwners): the next
  // capture names the frame at once. A new browsing context in the element (re-inserted, replaced)
  // has another window, so the cached id is not used for it.
  const ownerFrames = new WeakMap();
  const EL = Incremental.EL;        // node -> its element, for patches (incremental.js)
  // Number refs on after `start`; `renumber`: a document new to the frame's numbering (see Registry.init).
  // `key`: the main world watcher's event names (browser/timer_watch.py): KEY + 's' is sent when a shadow
  // root is attached, KEY + 'o' after a task the page ran on its own, the others hand over closed roots'
  // hosts (aria/shadows.js).
  function init(start, renumber, key) {
    if (renumber) Incremental.forget();
    Registry.init(start, renumber);
    Observer.start();  // watching from the set-up: an action before any snapshot knows what moved (act.js)
    if (key) { Observer.shadowAttached(key + 's'); Observer.ownTasks(key + 'o'); Aria.closedListen(key); }
  }
  const issue = Registry.issue;    // element -> ref number (engine/registry.js)
  // Node identity for what has no ref, so a comparison can tell the same DOM node from another one
  // with the same text (delta.py): a node without a ref carries `i` (its element's number here); a
  // node whose children mix elements and text runs carries `ti`, per text run in order: the number
  // of the run's parent element (the element whose children were walked) times 1024, plus 1 + the
  // run's place among that element's text runs (0: none past 1022). So text set anew in the same
  // element (textContent) is the same run, changed; another element's text is not.
  // Internal: never shown, never a ref, never reset.
  const ids = new WeakMap();
  let idNo = 0;
  function idOf(n) {
    let i = ids.get(n);
    if (i === undefined) { i = ++idNo; ids.set(n, i); }
    return i;
  }
  // A text run's identity travels with the children list it is in: list.t (arrays keep it out of
  // the JSON) holds one per string of the list, in order (runs.js keeps it in step).
  function tierOf(el, role, inContainer, tag) {
    if (TIER1.has(role) || Aria.isFocusableByTabindex(el) || tag === 'select' || Aria.editingHost(el) ||
        ((tag === 'video' || tag === 'audio') && Aria.hasMediaControls(el))) return 1;
    if (inContainer && TIER2.has(role)) return 2;
    return 0;
  }

  // `noText`: the node is hidden by visibility (its own text is not shown, a visible child is).
  function walk(node, out, inContainer, noText) {
    if (!Deep.enter(node, out, inContainer, noText)) return;  // too deep for this stack: walked later
    const sr = node.nodeType === 1 ? Aria.shadowOf(node) : null;
    if (sr) Observer.watchShadow(sr);
    // the common element (no shadow root, no slot): its child nodes as they are, else the flat tree's
    const kids = sr !== null || node.nodeType !== 1 || node.localName === 'slot' ? Aria.children(node) : null;
    let base = 0;
    let runs = 0;
    for (let i = 0, k = kids === null ? node.firstChild : kids[0]; k; k = kids === null ? k.nextSibling : kids[++i]) {
      if (k.nodeType === 3) {
        if (noText) continue;
        const t = Runs.text(k.data);
        if (t === '') continue;
        if (!base) base = idOf(node) * 1024;
        Runs.push(out, t, ++runs < 1023 ? base + runs : 0);
      } else if (k.nodeType === 1) {
        element(k, out, inContainer);
      }
    }
    Deep.leave();
  }

  function element(el, out, inContainer) {
    if (Aria.isHidden(el)) {
      // visibility:hidden hides the element itself, not a visible child
      if (!Aria.hidesSubtree(el)) {
        const c = [];
        walk(el, c, inContainer, true);
        Runs.merge(out, c, Aria.textBox(el));
      }
      return;
    }
    const role = Aria.role(el);
    const tag = el.localName;
    if (role === null || role === undefined) { wrapped(el, out, inContainer); return; }
    if (role === 'heading') Registry.passHeading(el);
    if (tracking && (tag === 'input' || tag === 'select' || tag === 'textarea')) Observer.field(el);
    const tier = tierOf(el, role, inContainer, tag);
    // one shape for every node (fields left undefined stay out of the JSON)
    const node = { r: role, e: undefined, t: undefined, s: undefined, v: undefined, c: undefined, n: undefined,
      nc: undefined, i: undefined, ti: undefined };
    node[EL] = el;
    if (tier) {
      node.e = issue(el, tier);
      if (tier === 2) node.t = 2;  // tier 1 is the default (model.py)
    } else {
      node.i = idOf(el);
    }
    if (role === 'iframe') {
      nameInto(node, el, role);
      node.fo = owners.length;
      owners.push(el);
      const known = ownerFrames.get(el);
      if (known && known.win === el.contentWindow && known.win) node.fid = known.id;
      out.push(node);
      return;
    }
    const isField = tag === 'input' || tag === 'textarea' || LEAVES.has(role);
    let hasElements = false;
    if (tag === 'video' || tag === 'audio') {
      // Fallback content is not rendered; the browser's own controls are
      // listed (marked x: no element of their own, so no refs).
      const c = Aria.mediaControls(el);
      for (const ch of c) ch.x = 1;
      if (c.length) { node.c = c; hasElements = true; }
    } else if (role === 'img' && tag === 'img' && el.hasAttribute('usemap')) {
      const areas = mapAreas(el);
      if (areas.length) { node.c = areas; hasElements = true; }
    } else if (isField && el.firstElementChild && tag !== 'textarea' &&
               (Aria.shadowOf(el) || el.querySelector(MAYBE_INTERACTIVE))) {
      // Children presentational: only interactive descendants (a link inside
      // a role=button card) stay reachable; the rest is the name.
      const c = [];
      walk(el, c, inContainer);
      const keep = [];
      interactiveOnly(c, keep);
      if (keep.length) { node.c = keep; hasElements = true; }
    } else if (!isField) {
      const c = [];
      walk(el, c, inContainer || CONTAINERS.has(role));
      if (c.length) {
        node.c = c;
        for (const ch of c) if (typeof ch !== 'string') { hasElements = true; break; }
        if (hasElements && c.t) node.ti = c.t;
      }
    }
    // A name from content is not shown for a structural node with element
    // children (they show it), so it is not computed for those either.
    const skipName = (COLLAPSIBLE.has(role) && !tier && !Aria.hasNameAttr(el))
      || (hasElements && !tier && CONTENT_NAMED.has(role) && !el.hasAttribute('aria-label')
          && !el.hasAttribute('aria-labelledby') && !el.hasAttribute('title'));
    if (!skipName) nameInto(node, el, role);
    // a name from text-only content is that text: it is not sent twice (the text format drops it)
    if (node.nc === 1 && !hasElements && node.c !== undefined && role !== 'label') node.c = undefined;
    if (role === 'label' && !node.e && el.control) {
      // a label's text is already its control's name: keep only the elements
      if (node.c) for (const ch of node.c) if (typeof ch !== 'string') out.push(ch);
      return;
    }
    if ((COLLAPSIBLE.has(role) || (role === 'rowgroup' && Aria.soleBody(el))) && !node.e && !node.n) {
      if (tag === 'wbr') Runs.push(out, Runs.ZW);
      Runs.merge(out, node.c, Aria.textBox(el));
      return;
    }
    if (node.c !== undefined) node.c = Runs.finish(node.c);
    // states and value only for a node that is shown (collapsed wrappers above drop theirs)
    const st = Aria.states(el, role);
    for (const key in st) { node.s = st; break; }
    let v = Aria.value(el, role);
    if (v !== undefined && v !== null && v !== '') {
      if (el.localName === 'input' && el.type === 'password') v = Aria.MASK;  // one fixed mask: never the length
      node.v = String(v);
    }
    if (CELLS.has(role) && !node.e && !node.n && !node.s && node.c && node.c.length === 1 && hasElements) {
      out.push(node.c[0]);  // a cell that only wraps one control: show the control
      return;
    }
    out.push(node);
  }

  // The links of an image map (<area href>), shown under their image.
  function mapAreas(img) {
    return Aria.mapAreas(img).map((a) => {
      const node = { r: 'link', e: issue(a), t: 1 };
      nameInto(node, a, 'link');
      return node;
    });
  }

  function interactiveOnly(list, keep) {
    for (const ch of list) {
      if (typeof ch === 'string') continue;
      if (ch.e) keep.push(ch);
      else if (ch.c) interactiveOnly(ch.c, keep);
    }
  }

  function nameInto(node, el, role) {
    const nm = Aria.name(el, role);
    if (nm.name) { node.n = nm.name; if (nm.fromContent) node.nc = 1; }
  }

  // An element without a role of its own (html, body): its content.
  function wrapped(el, out, inContainer) {
    const c = [];
    walk(el, c, inContainer);
    Runs.merge(out, c, Aria.textBox(el));
  }

  // A whole frame (within: none or 0) or the subtree of one element (within: its ref number). With
  // `cap` (the number of this frame's last capture, as the caller holds it), the answer may be patches
  // to that capture's tree (incremental.js) instead of the whole tree.
  // `view`: 0 answers the tree; 1 the frame's text instead (text.js; 2: no compact mode), only the lines
  // that changed when the caller holds capture `cap`'s text; `frame`: the frame's index (-1: not known).
  // `check`: a whole capture that changes nothing the next capture relies on (tests compare it with
  // a patched one).
  // `show`: the refs of the text answered are shown to the user now (`shown` in the answer says they
  // were marked: PageState.show need not send them again).
  function snapshot(within, cap, view, frame, check, show) {
    const wanted = Aria.closedWanted();  // closed roots to resolve first (browser/closed_roots.py)
    if (wanted) return JSON.stringify({ wantClosed: wanted });
    try {
      return capture(within, cap, view, frame, check, show);
    } catch (e) {
      // the change watcher was reset for a capture that never came back: the next one sees it all
      if (!within && !check) { Observer.mark(); Incremental.forget(); }
      throw e;
    }
  }

  function capture(within, cap, view, frame, check, show) {
    const whole = !within && !check;
    if (whole) {
      const dirt = Observer.take();  // what changed since the last capture; clean from here on
      if (cap && !Registry.moved()) {  // a new address: every ref's heading is looked at anew
        const out = patch(cap, dirt, view, frame, show);
        if (out !== null) return out;
      }
    }
    owners = [];
    if (whole) Observer.resetFields();
    tracking = whole;
    Aria.begin();
    Registry.begin();
    Deep.begin();
    let root;
    let gone;
    let flat = 0;
    let deep = false;
    try {
      root = { r: 'document', n: title(), c: [] };
      const start = within ? Registry.get(within) : document.body || document.documentElement;
      if (within && start && start.isConnected) { Registry.seedHeading(start); element(start, root.c, false); }
      else if (!within && start) walk(start, root.c, false);
      if (Deep.drain(walk)) { Deep.expand(root); deep = true; }
      root.c = Runs.finish(root.c) || [];
      flat = Deep.flatten(root);
      if (root.c.t) root.ti = root.c.t;
    } finally {
      gone = carried.concat(Registry.end());
      carried = [];
      Aria.end();
    }
    const tiers = Registry.tiers();
    const out = { counter: Registry.counter, url: location.href, gone, flat, owners: owners.length, tiers };
    const unread = Aria.closedUnread();
    if (unread.length) out.unread = unread.slice(0, 5).map(Aria.label).concat(unread.length > 5 ? ['...'] : []);
    if (whole) out.cap = Incremental.remember(root, tiers, !deep && !flat);
    if (whole && view) out.view = Text.view(root, { allRefs: view === 2, frame, tiers, shown: marker(out, show) }, out.cap, cap);
    else out.root = root;
    return encode(out);
  }

  // A whole capture for tests to compare a patched tree with; `changed`: the page changed since that
  // patch (timers run between two evaluations), so the two may differ.
  // After an action: wait until the page settled (Act.settle), then, in the same call, say whether the
  // frame changed since its last capture and, when it did, capture it (`what`: snapshot's arguments),
  // so what an action changed costs no round trip more than the wait itself.
  async function settleThen(opts, what, cap) {
    const s = await Act.settle(opts);
    if (opts.hover && s.settled && !s.navigating) s.hovered = await Act.hovered(opts.hover, true);
    s.own = Observer.ownChanges();  // the page's own tasks changed it since the last capture: where alone
    if (s.own) s.ownOnly = Observer.ownOnly((n) => ids.get(n) || 0);
    if (s.settled && !s.navigating && what) {
      s.dirty = dirty(cap);
      if (s.dirty && !Aria.closedWanted()) s.capture = snapshot(what[0] || 0, what[1] || 0, what[2] || 0, what[3] === undefined ? -1 : what[3]);
    }
    return s;
  }

  // Changed since capture `cap` (the caller's last one of this frame; 0: not known)? A capture taken
  // since reset the change watcher: what it saw is a change to the caller, whose answer was lost.
  function dirty(cap) { return Observer.isDirty() || (!!cap && cap !== Incremental.cap); }

  function check() {
    const changed = Observer.isDirty();
    const out = JSON.parse(snapshot(0, 0, 0, -1, true));
    out.changed = changed;
    return JSON.stringify(out);
  }

  // What marks the refs of a text as shown, when asked to; else what tells whether they all were as the
  // capture saw them already (new to the registry). Either way the answer `out` says when they are.
  function marker(out, show) {
    if (!show) return (refs) => { if (Registry.allShown(refs)) out.shown = 1; };
    out.shown = 1;
    return Registry.showListed;
  }

  let carried = [];  // refs let go of by a patch attempt that gave way to a whole capture

  function title() { return (document.title || '').replace(WS, ' ').trim(); }

  // Patches for what changed since capture `cap`, as JSON; null when the whole frame must be captured.
  function patch(cap, dirt, view, frame, show) {
    Aria.begin();
    Registry.begin();
    let res = null;
    let gone;
    try {
      tracking = true;
      res = Incremental.update(cap, dirt, (el, inContainer) => {
        Deep.begin();
        const out = [];
        Registry.seedHeading(el);
        element(el, out, inContainer);
        Registry.around(el);
        return Deep.drain(walk) ? null : out;
      });
    } finally {
      gone = Registry.end();
      Aria.end();
    }
    if (res === null) { carried = gone; return null; }  // the whole capture reports them
    const t = title();
    Incremental.title(t);
    const out = { title: t, counter: Registry.counter, url: location.href, gone, flat: 0, owners: owners.length,
      tiers: res.tiers, cap: Incremental.cap };
    if (view) out.view = Text.view(Incremental.root, { allRefs: view === 2, frame, tiers: res.tiers, shown: marker(out, show) }, out.cap, cap);
    else out.patch = res.patches;
    return encode(out);
  }

  // A capture's answer: its JSON, and a frame's text after a NUL (out of the JSON, where it would be
  // escaped twice on its way: JSON inside the protocol's JSON). Neither holds a raw NUL: JSON escapes
  // it, and the text shows every control character as an escape (text.js).
  function encode(out) {
    const v = out.view;
    const holder = v ? (v.diff || v) : null;
    if (!holder || typeof holder.text !== 'string') return JSON.stringify(out);
    const text = holder.text;
    const whole = holder.whole;  // (text.js longs)
    holder.text = holder.whole = undefined;
    return JSON.stringify(out) + '\x00' + text + (whole ? '\x00' + whole : '');
  }

  // The tree of capture `cap` while the page still holds it (JSON; null once another capture followed).
  function heldTree(cap) {
    const root = Incremental.root;
    return root && cap === Incremental.cap ? JSON.stringify(root) : null;
  }

  function owner(k) { return owners[k]; }
  // Refs let go of by a capture whose answer was not used (its frame was no longer shown): the next
  // capture reports them.
  function carry(gone) { carried = carried.concat(gone); return true; }
  function tagOwners(ids) {  // {slot: frame id} for owners of the last snapshot
    for (const k in ids) { const el = owners[k]; if (el) ownerFrames.set(el, { id: ids[k], win: el.contentWindow }); }
    return true;
  }
  // The attributes a test can name the owner element of frame `id` by (an owner of the last snapshot,
  // tagged and still showing that frame), or null.
  function ownerAttrs(id) {
    for (const el of owners) {
      const known = ownerFrames.get(el);
      if (known && known.id === id && known.win && known.win === el.contentWindow && el.isConnected) {
        return { tag: el.localName, id: el.id, title: el.getAttribute('title') || '', name: el.getAttribute('name') || '' };
      }
    }
    return null;
  }
  // The same for one owner element (a remote object): its slot in the last snapshot (-1: not in it).
  function tagOwner(el, id) {
    const k = owners.indexOf(el);
    if (k >= 0) ownerFrames.set(el, { id, win: el.contentWindow });
    return k;
  }

  // Forget every ref of this document (reset-refs); numbering restarts unless kept.
  function reset(keepCounter) { Incremental.forget(); Text.forget(); Registry.reset(keepCounter); }

  // Look-alikes of removed ref n in its place (see Registry.successors); each gets a ref.
  function successors(n, role, name) {
    Aria.begin();
    try {
      return Registry.successors(n, role, name, (el, r) => tierOf(el, r, inContainer(el)),
        (t) => (t || '').replace(WS, ' ').trim(), 5);
    } finally { Aria.end(); }
  }

  function inContainer(el) {
    for (let p = el.parentElement; p; p = p.parentElement) if (CONTAINERS.has(Aria.role(p))) return true;
    return false;
  }

  function element_(n) { return Registry.get(n) || null; }

  // Closed shadow roots the protocol resolved in this world (roots: their objects): walked from now on.
  function adoptClosed(roots) {
    Aria.adoptClosed(roots);
    Observer.mark();
    Incremental.forget();
    return true;
  }

  return { aria: Aria, init, snapshot, check, heldTree, dirty, owner, tagOwners, tagOwner, ownerAttrs, carry, reset,
    successors, element: element_, adoptClosed, closedHost: Aria.closedHost, closedLater: Aria.closedLater, doc: () => document, issue: Registry.issueShown, issueListed: Registry.issue, show: Registry.show, showNow: Registry.showNow, ownerHit: Act.ownerHit, describe: Act.describe, prepare: Act.prepare, arm: Guard.arm,
    disarm: Guard.disarm, navigating: Guard.navigating, watchDoc: FrameWatch.watchDoc, unwatchDoc: FrameWatch.unwatchDoc, watchedFrame: FrameWatch.watchedFrame, watchState: FrameWatch.watchState, hovered: Act.hovered, options: Act.options,
    optionPoint: Act.optionPoint, brief: Act.brief, settleThen, wheelStart: Wheel.start, wheelMoved: Wheel.moved,
    title: () => document.title, visibility: () => document.visibilityState, viewport: () => [innerWidth, innerHeight],
    navStatus: () => { const e = performance.getEntriesByType('navigation')[0]; return e ? e.responseStatus : 0; },
    get counter() { return Registry.counter; }, get registered() { return Registry.size; } };
