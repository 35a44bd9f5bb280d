// Targets by meaning, in one frame's document (open shadow roots included): find elements by
// test id, label, text, id or role and name with the same role/name engine as snapshots, and the facts
// a stable locator is built from. Same isolated world as the bridge; page scripts cannot call it.
// Module Targets, exported as __verdex.targets (see engine.py).
  const B = Bridge;
  const WS = /\s+/g;
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'slider',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'searchbox', 'spinbutton', 'option',
    'listbox']);
  const TIER2 = new Set(['listitem', 'option', 'treeitem', 'row', 'cell', 'gridcell']);
  // named ancestors a locator may be scoped to, nearest first (landmarks and repeated containers)
  const SCOPES = new Set(['banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region',
    'search', 'article', 'dialog', 'alertdialog', 'group', 'listitem', 'row', 'tabpanel', 'list', 'table']);
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head']);  // never targets
  const LIMIT = 200;  // candidates reported per frame

  let found = [];     // candidates of the last search (refs are issued on demand)
  let owners = [];    // frame owner elements of the last search

  const norm = (t) => (t || '').replace(WS, ' ').trim();

  // 3 exact, 2 equal ignoring case, 1 contains ignoring case, 0 no match
  function level(text, want) {
    const t = norm(text);
    if (t === want) return 3;
    const a = t.toLowerCase();
    const b = want.toLowerCase();
    if (a === b) return 2;
    return b && a.includes(b) ? 1 : 0;
  }

  const flatParent = Aria.flatParent;

  // Pre-order walk of the flat tree below `root`; visit(el) === false skips el's subtree.
  function walk(root, visit, withHidden) {
    const stack = Aria.children(root).reverse();
    while (stack.length) {
      const el = stack.pop();
      if (el.nodeType !== 1 || SKIP.has(el.localName)) continue;
      if (!withHidden && Aria.isHidden(el) && Aria.hidesSubtree(el)) continue;
      if (visit(el) === false) continue;
      const kids = Aria.children(el);
      for (let i = kids.length - 1; i >= 0; i--) if (kids[i].nodeType === 1) stack.push(kids[i]);
    }
  }

  // The text of an element in the flat tree (shadow content included), cached per search.
  function textOf(el, cache) {
    let t = cache.get(el);
    if (t !== undefined) return t;
    t = '';
    for (const k of Aria.children(el)) {
      if (k.nodeType === 3) t += k.data;
      else if (k.nodeType === 1 && k.localName !== 'script' && k.localName !== 'style') t += ' ' + textOf(k, cache) + ' ';
    }
    cache.set(el, t);
    return t;
  }

  function labelTexts(el) {
    const out = [];
    const al = el.getAttribute('aria-label');
    if (al && norm(al)) out.push(norm(al));
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      const parts = [];
      for (const id of ids.split(WS)) {
        const ref = id && root.getElementById ? root.getElementById(id) : null;
        if (ref) parts.push(ownText(ref, el));
      }
      if (norm(parts.join(' '))) out.push(norm(parts.join(' ')));
    }
    if (el.labels) for (const l of el.labels) { const t = norm(ownText(l, el)); if (t) out.push(t); }
    return out;
  }

  // A label's own words: its text without the control it labels and without the content of form
  // controls inside it (<label>Country <select>...</select></label> is "Country", not every option).
  const NOT_LABEL_TEXT = new Set(['select', 'textarea', 'datalist', 'option', 'script', 'style', 'template']);
  function ownText(label, control) {
    let out = '';
    const stack = [label];
    while (stack.length) {
      const n = stack.pop();
      if (n.nodeType === 3) { out += n.data; continue; }
      if (n.nodeType !== 1 || (n !== label && (n === control || NOT_LABEL_TEXT.has(n.localName)))) continue;
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
    return out;
  }

  function roleName(el) {
    const role = Aria.role(el) || 'generic';
    return { role, name: Aria.name(el, role).name };
  }

  function tierOf(el, role) {
    if (INTERACTIVE.has(role) || Aria.isFocusableByTabindex(el) || el.localName === 'select') return 1;
    return TIER2.has(role) ? 2 : 0;
  }

  // A text match inside a control (a span in a button) stands for the control.
  function lift(el) {
    let a = el;
    for (let i = 0; i < 3 && a; i++, a = flatParent(a)) {
      if (a === document.body) break;
      if (INTERACTIVE.has(Aria.role(a) || '')) return a;
    }
    return el;
  }

  // spec: {kind: testid|label|text|id|role, value, role, name, scope (ref number), hidden}
  function search(spec) {
    const wanted = Aria.closedWanted();  // closed roots to resolve first (browser/closed_roots.py)
    if (wanted) return { wantClosed: wanted };
    found = [];
    const hits = new Map();  // element -> level
    const add = (el, lv) => { if (lv > (hits.get(el) || 0)) hits.set(el, lv); };
    const withHidden = !!spec.hidden;
    const root = spec.scope ? B.element(spec.scope) : (document.body || document.documentElement);
    Aria.begin();
    try {
      if (!root || !root.isConnected) return { status: 'removed' };
      const want = spec.kind === 'role' ? (spec.name || '') : (spec.value || '');
      if (spec.kind === 'text') {
        const cache = new Map();
        walk(root, (el) => {
          const lv = level(textOf(el, cache), want);
          if (!lv) return false;  // the flat text holds every descendant's: nothing below matches
          let deeper = false;
          for (const k of Aria.children(el)) {
            if (k.nodeType === 1 && level(textOf(k, cache), want)) { deeper = true; break; }
          }
          if (!deeper && (withHidden || !Aria.isHidden(el))) add(lift(el), lv);
          return deeper;
        }, withHidden);
      } else {
        owners = [];
        // No pruning of hidden subtrees here: a style look-up for every element costs more than the
        // role test; only a match is checked for being hidden (that covers its ancestors too).
        walk(root, (el) => {
          if ((el.localName === 'iframe' || el.localName === 'frame') && (withHidden || !Aria.isHidden(el))) {
            owners.push(el);  // frames: found in the same walk
          }
          let lv = 0;
          if (spec.kind === 'testid') {
            const v = el.getAttribute('data-testid');
            if (v !== null) lv = level(v, want);
          } else if (spec.kind === 'id') {
            lv = el.id === want ? 3 : 0;  // the whole id, as written
          } else if (spec.kind === 'label') {
            for (const t of labelTexts(el)) lv = Math.max(lv, level(t, want));
          } else if (Aria.role(el) === spec.role) {
            lv = want ? level(Aria.name(el, spec.role).name, want) : 3;
          }
          if (lv && (withHidden || !Aria.isHidden(el))) add(el, lv);
          return true;
        }, true);
      }
      const out = [];
      for (const [el, lv] of hits) {
        if (out.length >= LIMIT) break;
        const rn = roleName(el);
        found.push(el);
        out.push({ i: found.length - 1, lv, role: rn.role, name: rn.name, tier: tierOf(el, rn.role) });
      }
      const frames = spec.scope ? 0 : (spec.kind === 'text' ? frameOwners(withHidden) : owners.length);
      return { status: 'ok', candidates: out, total: hits.size, frames };
    } finally { Aria.end(); }
  }

  // How many frames (iframe/frame elements) this document shows; owner(k) hands out the k-th.
  function frameOwners(withHidden) {
    owners = [];
    walk(document.body || document.documentElement, (el) => {
      if (el.localName === 'iframe' || el.localName === 'frame') { owners.push(el); return false; }
      return true;
    }, withHidden);
    return owners.length;
  }

  function owner(k) { return owners[k] || null; }

  // Issue refs (the bridge's registry) for candidates of the last search; `listed` (an ambiguous
  // target's candidates, named without their rows): a ref issued before keeps what it was shown as
  function issue(indices, listed) {
    const out = indices.map((i) => (found[i] ? (listed ? B.issueListed : B.issue)(found[i]) : 0));
    return { numbers: out, counter: B.counter };
  }

  // What a stable locator for element n can be built from.
  function facts(n) {
    const el = B.element(n);
    if (!el || !el.isConnected) return null;
    Aria.begin();
    try {
      const rn = roleName(el);
      const scopes = [];
      for (let a = flatParent(el); a && a !== document.body && scopes.length < 4; a = flatParent(a)) {
        const r = Aria.role(a);
        if (!r || !SCOPES.has(r)) continue;
        const nm = Aria.name(a, r).name;
        if (nm) scopes.push({ role: r, name: nm });
      }
      const text = norm(textOf(el, new Map()));
      return { role: rn.role, name: rn.name, testid: el.getAttribute('data-testid'), id: el.id, labels: labelTexts(el),
        text: text.length <= 80 ? text : '', scopes, tag: el.localName, type: el.type || '' };
    } finally { Aria.end(); }
  }

  // One element's stable-locator candidates, in the order act/locators.py prefers them (test id,
  // labels, role and name, role and name inside each named container, an id), each with `ok`: would a search
  // of this document alone (the same test as search(): visible matches first, the best level wins)
  // find this element alone, by exact name? One walk of the document answers them all. Each also
  // has `pw`: would a Playwright locator (PwLocators) find it alone? Then the text candidate only a
  // Playwright test uses (`ok` false).
  function locate(n) {
    const self = B.element(n);
    const f = facts(n);
    if (!f) return null;
    const cands = [];
    const testid = norm(f.testid || '');
    if (testid) cands.push({ kind: 'testid', value: testid });
    const labels = [...new Set(f.labels.map(norm))].filter((x) => x);
    for (const v of labels) cands.push({ kind: 'label', value: v });
    const name = norm(f.name);
    if (name) {
      cands.push({ kind: 'role', role: f.role, name, scope: null });
      for (const s of f.scopes) cands.push({ kind: 'role', role: f.role, name, scope: { role: s.role, name: norm(s.name) } });
    }
    // An id last, and only one a person would write: letters, '-' and '_'. A digit or other punctuation
    // suggests a generated id that changes between builds or renders (`:r1:`, `ember123`, `select-2-input`).
    const id = /^[A-Za-z][A-Za-z_-]*$/.test(f.id) ? f.id : '';
    if (id) cands.push({ kind: 'id', value: id });
    const boxes = new Map();  // a scoped candidate -> its container element (for PwLocators)
    const done = () => ({ facts: f, candidates: PwLocators.judge(self, cands, (c) => boxes.get(c) || null) });
    if (!cands.length) return done();
    const scopes = cands.filter((c) => c.scope).map((c) => c.scope);
    const byTestid = new Map(), byId = new Map(), byLabel = labels.map(() => new Map()), byRole = new Map();
    const byScope = scopes.map(() => new Map());
    Aria.begin();
    try {
      walk(document.body || document.documentElement, (el) => {
        if (testid) {
          const v = el.getAttribute('data-testid');
          const lv = v !== null ? level(v, testid) : 0;
          if (lv) byTestid.set(el, lv);
        }
        if (id && el.id === id) byId.set(el, 3);
        if (labels.length) {
          const texts = labelTexts(el);
          if (texts.length) {
            labels.forEach((want, i) => {
              let lv = 0;
              for (const t of texts) lv = Math.max(lv, level(t, want));
              if (lv) byLabel[i].set(el, lv);
            });
          }
        }
        if (name || scopes.length) {
          const r = Aria.role(el);
          if (r && name && r === f.role) {
            const lv = level(Aria.name(el, r).name, name);
            if (lv) byRole.set(el, lv);
          }
          scopes.forEach((s, i) => {
            if (r !== s.role) return;
            const lv = s.name ? level(Aria.name(el, r).name, s.name) : 3;
            if (lv) byScope[i].set(el, lv);
          });
        }
        return true;
      }, true);
      const alone = (hits) => { const w = winners(hits); return w.length === 1 && w[0] === self && hits.get(self) === 3; };
      let si = 0, li = 0;
      for (const c of cands) {
        if (c.kind === 'testid') c.ok = alone(byTestid);
        else if (c.kind === 'id') c.ok = alone(byId);
        else if (c.kind === 'label') c.ok = alone(byLabel[li++]);
        else if (!c.scope) c.ok = alone(byRole);
        else {
          const within = winners(byScope[si++]);  // the scope must be one element of this document
          if (within.length !== 1) { c.ok = false; continue; }
          boxes.set(c, within[0]);
          const inside = new Map();
          for (const [el, lv] of byRole) if (below(el, within[0])) inside.set(el, lv);
          c.ok = alone(inside);
        }
      }
      return done();
    } finally { Aria.end(); }
  }

  // What search() reports of these matches (element -> level): the visible ones at their best level,
  // or, when none is visible, the hidden ones.
  function winners(hits) {
    let pool = [...hits.keys()].filter((el) => !Aria.isHidden(el));
    if (!pool.length) pool = [...hits.keys()];
    let best = 0;
    for (const el of pool) best = Math.max(best, hits.get(el));
    return pool.filter((el) => hits.get(el) === best);
  }

  function below(el, root) {
    for (let a = flatParent(el); a; a = flatParent(a)) if (a === root) return true;
    return false;
  }

  return { search, owner, issue, facts, locate, textOf, flatParent, walk, norm, roleName, tierOf };
