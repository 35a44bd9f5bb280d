// Structure around an element, for the container/siblings/anchors/text commands: its ancestor chain,
// the repeating ancestor it belongs to (cards, rows, list items) and what tells those apart, the
// anchors inside (headings, labelled landmarks, test ids, unique text), and its full text.
// Module Structure, exported as __verdex.structure (see engine.py).
  const B = Bridge;
  const T = Targets;
  const LANDMARKS = new Set(['banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region',
    'search', 'dialog', 'alertdialog']);
  const NAMELESS = new Set(['generic', 'none', 'presentation']);
  const MAX_ITEMS = 50;
  const CUT = 100;

  const cut = (t) => (t.length > CUT ? t.slice(0, CUT) + '...' : t);

  function refMap() {
    const m = new Map();
    for (let k = 1; k <= B.counter; k++) {
      const e = B.element(k);
      if (e) m.set(e, k);
    }
    return m;
  }

  function brief(el, refs) {
    const role = Aria.role(el) || 'generic';
    return { tag: el.localName, role, id: el.id || '', classes: [...el.classList],
      testid: el.getAttribute('data-testid') || '', name: NAMELESS.has(role) ? '' : Aria.name(el, role).name,
      n: refs.get(el) || 0 };
  }

  function withAria(fn) {
    return (...args) => {
      Aria.begin();
      try { return fn(...args); } finally { Aria.end(); }
    };
  }

  const container = withAria((n) => {
    const el = B.element(n);
    if (!el || !el.isConnected) return null;
    const refs = refMap();
    const chain = [];
    for (let a = el; a; a = T.flatParent(a)) {
      chain.push(brief(a, refs));
      if (a === document.body || a === document.documentElement) break;
    }
    return chain;
  });

  function sig(el) {
    return el.localName + [...el.classList].sort().map((c) => '.' + c).join('') +
      (el.getAttribute('role') ? '[role=' + el.getAttribute('role') + ']' : '');
  }

  function peers(a) {
    const p = a.parentNode;
    if (!p || !p.children) return [a];
    const s = sig(a);
    return [...p.children].filter((c) => sig(c) === s);
  }

  // The nearest ancestor-or-self with look-alike siblings, or the one `level` steps up.
  function anchorOf(el, level) {
    if (level !== null && level !== undefined) {
      let a = el;
      for (let i = 0; i < level && a && a !== document.body; i++) a = T.flatParent(a);
      return a;
    }
    for (let a = el; a && a !== document.body; a = T.flatParent(a)) if (peers(a).length >= 2) return a;
    return null;
  }

  function levelOf(el, a) {
    let k = 0;
    for (let x = el; x && x !== a; x = T.flatParent(x)) k++;
    return k;
  }

  function pathTo(a, el) {
    const path = [];
    for (let x = el; x && x !== a; x = x.parentElement) {
      const p = x.parentElement;
      if (!p) return null;
      path.unshift([...p.children].filter((c) => c.localName === x.localName).indexOf(x));
    }
    return path;
  }

  function counterpartOf(a, path, tags) {
    let x = a;
    for (let i = 0; i < path.length && x; i++) x = [...x.children].filter((c) => c.localName === tags[i])[path[i]] || null;
    return x;
  }

  function attrs(el) {
    const out = {};
    for (const at of el.attributes) if (at.name !== 'class' && at.name !== 'style') out[at.name] = at.value;
    return out;
  }

  const siblings = withAria((n, level) => {
    const el = B.element(n);
    if (!el || !el.isConnected) return null;
    const a = anchorOf(el, level);
    if (!a) return { found: false };
    const refs = refMap();
    const items = peers(a);
    const path = pathTo(a, el) || [];
    const tags = [];
    for (let x = el; x && x !== a; x = x.parentElement) tags.unshift(x.localName);
    const rows = items.slice(0, MAX_ITEMS).map((item, index) => {
      const b = brief(item, refs);
      const cp = a === el ? item : counterpartOf(item, path, tags);
      const feat = { text: cut(T.norm(T.textOf(item, new Map()))) };
      if (b.name) feat.name = b.name;
      for (const [k, v] of Object.entries(attrs(item))) feat['@' + k] = v;
      const row = { index, self: item === a, role: b.role, name: b.name, n: b.n, feat };
      if (cp && cp !== item) {
        const c = T.roleName(cp);
        const tier = T.tierOf(cp, c.role);
        row.counterpart = { role: c.role, name: c.name, tier, n: tier ? B.issue(cp) : (refs.get(cp) || 0) };
        for (const [k, v] of Object.entries(attrs(cp))) feat[cp.localName + '@' + k] = v;
      }
      return row;
    });
    const keys = new Set();
    for (const r of rows) for (const k of Object.keys(r.feat)) keys.add(k);
    const differ = [...keys].filter((k) => new Set(rows.map((r) => r.feat[k])).size > 1);
    for (const r of rows) {
      r.differs = {};
      for (const k of differ) if (r.feat[k] !== undefined) r.differs[k] = r.feat[k];
      delete r.feat;
    }
    return { found: true, level: levelOf(el, a), signature: sig(a), count: items.length, differ, items: rows,
      counter: B.counter };
  });

  const anchors = withAria((n, level) => {
    const el = B.element(n);
    if (!el || !el.isConnected) return null;
    let a = anchorOf(el, level);
    if (!a) {  // no repeating ancestor: the nearest landmark, else the whole page
      for (a = T.flatParent(el); a && a !== document.body; a = T.flatParent(a)) {
        if (LANDMARKS.has(Aria.role(a) || '')) break;
      }
      a = a || document.body;
    }
    const refs = refMap();
    // how often each text run occurs in the whole document
    const counts = new Map();
    const runs = (root, fn) => T.walk(root, (x) => {
      for (const k of Aria.children(x)) if (k.nodeType === 3) { const t = T.norm(k.data); if (t) fn(t, x); }
    }, false);
    runs(document.body || document.documentElement, (t) => counts.set(t, (counts.get(t) || 0) + 1));
    const out = [];
    const push = (item) => { if (out.length < MAX_ITEMS) out.push(item); };
    const consider = (x) => {
      const role = Aria.role(x) || 'generic';
      const name = NAMELESS.has(role) ? '' : Aria.name(x, role).name;
      if (role === 'heading' && name) push({ kind: 'heading', role, name, level: (Aria.states(x, role) || {}).level, n: refs.get(x) || 0 });
      else if (LANDMARKS.has(role) && name) push({ kind: 'landmark', role, name, n: refs.get(x) || 0 });
      const tid = x.getAttribute('data-testid');
      if (tid) push({ kind: 'testid', value: tid, role, name, n: refs.get(x) || 0 });
    };
    consider(a);
    T.walk(a, (x) => { consider(x); return true; }, false);
    const seen = new Set(out.filter((x) => x.kind === 'heading').map((x) => x.name));  // no repeats
    const texts = [];
    if (!Aria.isHidden(a)) for (const k of Aria.children(a)) if (k.nodeType === 3 && T.norm(k.data)) texts.push([T.norm(k.data), a]);
    runs(a, (t, x) => texts.push([t, x]));
    for (const [t, x] of texts) {
      if (counts.get(t) !== 1 || seen.has(t) || t.length < 2 || t.length > 80) continue;
      seen.add(t);
      const role = Aria.role(x) || 'generic';
      push({ kind: 'text', text: t, role, n: refs.get(x) || 0 });
    }
    return { level: levelOf(el, a), within: brief(a, refs), anchors: out };
  });

  function hasShadow(el) {
    if (Aria.shadowOf(el)) return true;
    for (const x of el.querySelectorAll('*')) if (Aria.shadowOf(x)) return true;
    return false;
  }

  const text = withAria((n) => {
    const el = B.element(n);
    if (!el || !el.isConnected) return null;
    const rn = T.roleName(el);
    const out = { role: rn.role, name: rn.name };
    if (typeof el.innerText === 'string' && !hasShadow(el)) out.text = el.innerText;
    else out.text = T.norm(T.textOf(el, new Map()));
    if ((el.localName === 'input' || el.localName === 'textarea') && typeof el.value === 'string') {
      out.value = el.value;
      if (el.localName === 'input' && el.type === 'password') { out.value = ''; out.masked = true; }
    }
    return out;
  });

  return { container, siblings, anchors, text };
