  // ---------------------------------------------------------------------
  // Per-run caches
  // ---------------------------------------------------------------------

  let run = null;
  let runDepth = 0;  // begin() calls not yet ended: nested ones share the outer run

  function newRun() {
    return {
      facts: new Map(),      // element -> Facts (one record per element: style, hidden-ness, role, name...)
      lastEl: null,          // a two-entry cache in front of `facts` (the walk asks about an element
      lastFacts: null,       // and its parent at a time)
      prevEl: null,
      prevFacts: null,
      labels: null,          // control element -> [label elements]
      labelRoots: null,      // roots whose labels have been indexed
      scan: new Map(),       // tree root -> style sheet facts (see scanRoot)
      modal: undefined,      // {modal, chain} for an open modal <dialog>, or null
      layoutTable: new Map(), // table -> bool (see isLayoutTable)
      tables: new Map(),     // element -> its closest('table'), for the table parts under it (tableOf)
    };
  }

  // Run `fn` with a run context, creating a throwaway one outside begin/end.
  function inRun(fn) {
    return function (a, b) {
      if (run) return fn(a, b);
      return once(fn, a, b);
    };
  }

  // One call outside begin/end, with a throwaway run context.
  function once(fn, a, b) {
    run = newRun();
    try {
      return fn(a, b);
    } finally {
      run = null;
    }
  }

  // What one run knows about one element. One record (all fields set up front, so every record
  // has the same shape) instead of a Map per fact: one lookup per question.
  function Facts(el) {
    this.el = el;
    this.styled = false;     // display and visibility read (the rest of the style lazily, see `cs`)
    this.display = '';
    this.visibility = '';
    this.tt = null;          // text-transform, or null: not read yet
    this.cv = null;          // content-visibility, or null
    this.root = null;        // getRootNode()
    this.hidden = 0;         // isHidden: 0 not known yet, 1 no, 2 yes
    this.hiddenSub = 0;      // hiddenSubtree: 0 not known yet, 1 no, 2 yes
    this.role = undefined;   // role string or null; undefined: not computed yet
    this.name = null;        // {name, fromContent}
    this.text = null;        // text alternative in content recursion
    this.textAttr = false;   // ... and whether it came from an attribute
    this.pseudo = 0;         // may have ::before/::after content: 0 not known yet, 1 no, 2 yes
    this.shown = false;      // it has a box and visibility:visible (see `boxed`)
  }

  function facts(el) {
    const r = run;
    if (r.lastEl === el) return r.lastFacts;
    if (r.prevEl === el) return r.prevFacts;
    let f = r.facts.get(el);
    if (f === undefined) {
      f = new Facts(el);
      r.facts.set(el, f);
    }
    r.prevEl = r.lastEl;
    r.prevFacts = r.lastFacts;
    r.lastEl = el;
    r.lastFacts = f;
    return f;
  }

  // The computed style itself, for rarely needed properties (each read costs). It is not kept:
  // thousands of style objects alive until the end of the run would only burden the GC.
  Object.defineProperty(Facts.prototype, 'cs', { get() { return getComputedStyle(this.el); } });

  function loadStyle(el, s) {
    const cs = getComputedStyle(el);
    s.display = cs.display;
    s.visibility = cs.visibility;
    s.styled = true;
    return s;
  }

  // One call instead of a computed style object (and its two reads): an element with a box (so its
  // display is not none) and visibility:visible, as checkVisibility says, is shown as far as its
  // own display and visibility go. Without a box (display:none, display:contents, in a closed
  // <details> or a content-visibility:hidden subtree, an <option>...) the style decides, as always:
  // either way the answer is the one the style gives.
  const SHOWN = { visibilityProperty: true };
  const CHECKS = typeof Element.prototype.checkVisibility === 'function';

  function boxed(el, f) {
    if (f.shown) return true;
    if (f.styled || !CHECKS || !el.checkVisibility(SHOWN)) return false;
    f.shown = true;
    return true;
  }

  function style(el) {
    const s = facts(el);
    return s.styled ? s : loadStyle(el, s);
  }

  // How the element's box sits in the text around it (innerText's word boundaries): 0 inline (its
  // white space joins the text around it: inline, display:contents, <wbr> even when a flex
  // container blockifies it), 1 an inline-level box of its own (inline-block...: white space at its
  // edges stays inside and collapses away), 2 a <br> or a block-level or table box (a word boundary).
  function textBox(el) {
    const tag = el.localName;
    if (tag === 'br') return 2;
    if (tag === 'wbr') return 0;
    const d = style(el).display;
    if (d === 'inline' || d === 'contents' || d.startsWith('ruby')) return 0;
    return d.startsWith('inline') ? 1 : 2;
  }

  // el.closest('table') for a table part (tr, td...: not a table itself, so it is its parent's),
  // asked once per parent in a run: the cells of a row share one answer.
  function tableOf(el) {
    const p = el.parentElement;
    if (p === null) return null;
    if (run === null) return p.closest('table');
    let t = run.tables.get(p);
    if (t === undefined) {
      t = p.closest('table');
      run.tables.set(p, t);
    }
    return t;
  }

  // The tree scope of `el`: its parent's (known in a top-down walk), else asked for.
  function rootOf(el) {
    const s = facts(el);
    if (s.root === null) {
      const p = el.parentNode;
      let pf;
      if (p !== null && p.nodeType === 1 && (pf = run.facts.get(p)) !== undefined && pf.root !== null) s.root = pf.root;
      else s.root = el.getRootNode();
    }
    return s.root;
  }

  // text-transform and content-visibility are inherited/rare: only read them
  // when some style sheet (or inline style) of the element's tree scope or of
  // an enclosing one can set them.
  function scopesMention(el, key) {
    let root = rootOf(el);
    for (;;) {
      if (scanRoot(root)[key]) return true;
      if (root.nodeType !== 11 || !root.host) return false;
      root = root.host.getRootNode();
    }
  }

  function textTransformOf(el) {
    const s = facts(el);
    if (s.tt === null) s.tt = scopesMention(el, 'tt') ? s.cs.textTransform : 'none';
    return s.tt;
  }

  function contentVisibilityOf(el) {
    const s = facts(el);
    if (s.cv === null) s.cv = scopesMention(el, 'cv') ? s.cs.contentVisibility : 'visible';
    return s.cv;
  }

  // ---------------------------------------------------------------------
  // Flat tree
  // ---------------------------------------------------------------------

  function children(node) {
    const out = [];
    const type = node.nodeType;
    let parent = node;
    if (type === 1) {
      const sr = shadowOf(node);
      if (sr) {
        parent = sr;
      } else if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
        const assigned = node.assignedNodes({ flatten: true });
        if (assigned.length) {
          for (let i = 0; i < assigned.length; i++) {
            const t = assigned[i].nodeType;
            if (t === 1 || t === 3) out.push(assigned[i]);
          }
          return out;
        }
      }
    } else if (type !== 9 && type !== 11) {
      return out;
    }
    const first = parent.firstChild;
    if (first === null) return out;
    if (first.nextSibling === null) {  // the common single child: an exact-size array
      const t = first.nodeType;
      return t === 1 || t === 3 ? [first] : out;
    }
    for (let c = first; c; c = c.nextSibling) {
      const t = c.nodeType;
      if (t === 1 || t === 3) out.push(c);
    }
    return out;
  }

  function flatParent(node) {
    const slot = node.assignedSlot;
    if (slot) return slot;
    const p = node.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;
    if (p.nodeType !== 1) return null;
    return p;
  }

  function firstSummaryChild(details) {
    for (let c = details.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'summary') return c;
    }
    return null;
  }

  // True when `child` (a flat-tree child of `parent`) is cut off by its parent:
  // the content of a closed <details> (other than its summary), or of an
  // element with content-visibility:hidden (e.g. hidden="until-found").
  function parentHidesChild(parent, child) {
    if (parent.localName === 'details' && !parent.open && parent.namespaceURI === HTML_NS &&
        firstSummaryChild(parent) !== child) return true;
    return contentVisibilityOf(parent) === 'hidden';
  }

  const HTML_NS = 'http://www.w3.org/1999/xhtml';

  // ---------------------------------------------------------------------
  // Hidden-ness
  // ---------------------------------------------------------------------

  // Chrome lists <option hidden> of a <select> anyway.
  function isSelectOption(el) {
    const tag = el.localName;
    if (tag !== 'option' && tag !== 'optgroup') return false;
    const p = el.parentElement;
    if (!p) return false;
    if (p.localName === 'select') return true;
    return p.localName === 'optgroup' && !!p.parentElement && p.parentElement.localName === 'select';
  }

  // An open modal <dialog> (showModal) makes everything outside it inert.
  // Returns {modal, chain} where chain holds the modal's flat-tree ancestors,
  // or null.  With several modals the last one in tree order is taken.
  function modalInfo() {
    if (run.modal !== undefined) return run.modal;
    let modal = null;
    try {
      const all = document.querySelectorAll('dialog:modal');
      if (all.length) modal = all[all.length - 1];
    } catch (e) {
      modal = null;
    }
    let info = null;
    if (modal) {
      const chain = new Set();
      for (let n = flatParent(modal); n; n = flatParent(n)) chain.add(n);
      info = { modal, chain };
    }
    run.modal = info;
    return info;
  }

  // Is `el` an ancestor of the open modal dialog?  Such elements are inert
  // but their subtree holds the dialog: they stay visible with role 'none'.
  function isModalAncestor(el) {
    const m = modalInfo();
    return !!m && m.chain.has(el);
  }

  // Does `el` remove itself and all its descendants from the tree?
  // (2 yes, 1 no; no recursion: a 5,000-level page is asked bottom-up outside a walk)
  function hiddenSubtree(el) {
    const f = facts(el);
    if (f.hiddenSub !== 0) return f.hiddenSub === 2;
    let v = ownHidden(el, f);
    if (v === 0) v = chainHidden(up, upFacts);  // the parent not asked yet (not in a top-down walk)
    f.hiddenSub = v;
    return v === 2;
  }

  let up = null;  // set by ownHidden when the answer is its flat parent's (not known yet)
  let upFacts = null;

  // 2: `el` hides its subtree, 1: it is shown, 0: as its flat parent `up`, not known yet.
  function ownHidden(el, f) {
    if (NEVER_RENDERED.has(el.localName)) return 2;
    const ah = el.getAttribute('aria-hidden');
    if (ah !== null && ah.trim().toLowerCase() === 'true') return 2;
    if (el.hasAttribute('inert')) return 2;
    if (!boxed(el, f) && (f.styled ? f : loadStyle(el, f)).display === 'none' && !isSelectOption(el)) return 2;
    const p = flatParent(el);
    if (!p) return 1;
    const m = modalInfo();
    // Outside an open modal dialog: inert.
    if (m && m.chain.has(p) && el !== m.modal && !m.chain.has(el)) return 2;
    const pf = facts(p);
    if (pf.hiddenSub === 2) return 2;
    if (p.localName === 'details' && !p.open && p.namespaceURI === HTML_NS && firstSummaryChild(p) !== el) return 2;
    if ((pf.cv !== null ? pf.cv : contentVisibilityOf(p)) === 'hidden') return 2;  // (parentHidesChild)
    if (pf.hiddenSub === 1) return 1;
    up = p;
    upFacts = pf;
    return 0;
  }

  // hiddenSubtree of an element whose ancestors were not asked yet: up the chain to an answer.
  function chainHidden(el, f) {
    const pending = [];
    for (;;) {
      const v = ownHidden(el, f);
      if (v !== 0) {
        f.hiddenSub = v;
        return settle(pending, v);
      }
      pending.push(f);
      el = up;
      f = upFacts;
    }
  }

  function settle(pending, v) {
    for (let i = 0; i < pending.length; i++) pending[i].hiddenSub = v;
    return v;
  }

  function isHiddenImpl(node) {
    if (!node) return true;
    if (node.nodeType === 3) {
      const p = flatParent(node);
      if (!p) return false;
      return isHiddenImpl(p) || parentHidesChild(p, node);
    }
    if (node.nodeType !== 1) return false;
    const f = facts(node);
    if (f.hidden !== 0) return f.hidden === 2;
    let h = hiddenSubtree(node);
    if (!h && !boxed(node, f)) {
      const v = (f.styled ? f : loadStyle(node, f)).visibility;
      h = v === 'hidden' || v === 'collapse';
    }
    f.hidden = h ? 2 : 1;
    return h;
  }

