  // ---------------------------------------------------------------------
  // Per-run caches
  // ---------------------------------------------------------------------

  let run = null;

  function newRun() {
    return {
      style: new Map(),      // element -> selected computed style values
      hidden: new Map(),     // element -> bool (excluded from the tree)
      hiddenSub: new Map(),  // element -> bool (element hides itself and its subtree)
      role: new Map(),       // element -> role string | null
      name: new Map(),       // element -> {name, fromContent}
      text: new Map(),       // element -> {text, attr}: text alternative in content recursion
      labels: null,          // control element -> [label elements]
      labelRoots: null,      // roots whose labels have been indexed
      scan: new Map(),       // tree root -> style sheet facts (see scanRoot)
      pseudoEl: new Map(),   // element -> may have ::before/::after content
      modal: undefined,      // {modal, chain} for an open modal <dialog>, or null
      layoutTable: new Map(), // table -> bool (see isLayoutTable)
    };
  }

  // Run `fn` with a run context, creating a throwaway one outside begin/end.
  function inRun(fn) {
    return function (a, b) {
      if (run) return fn(a, b);
      run = newRun();
      try {
        return fn(a, b);
      } finally {
        run = null;
      }
    };
  }

  function style(el) {
    let s = run.style.get(el);
    if (s === undefined) {
      const cs = getComputedStyle(el);
      // Rarely needed properties are read lazily (each read costs).
      s = {
        cs, display: cs.display, visibility: cs.visibility, tt: null, cv: null, root: null,
      };
      run.style.set(el, s);
    }
    return s;
  }

  // text-transform and content-visibility are inherited/rare: only read them
  // when some style sheet (or inline style) of the element's tree scope or of
  // an enclosing one can set them.
  function rootOf(el) {
    const s = style(el);
    if (s.root === null) s.root = el.getRootNode();
    return s.root;
  }

  function scopesMention(el, key) {
    let root = rootOf(el);
    for (;;) {
      if (scanRoot(root)[key]) return true;
      if (root.nodeType !== 11 || !root.host) return false;
      root = root.host.getRootNode();
    }
  }

  function textTransformOf(el) {
    const s = style(el);
    if (s.tt === null) s.tt = scopesMention(el, 'tt') ? s.cs.textTransform : 'none';
    return s.tt;
  }

  function contentVisibilityOf(el) {
    const s = style(el);
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
      const sr = node.shadowRoot;
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
    for (let c = parent.firstChild; c; c = c.nextSibling) {
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
  function hiddenSubtree(el) {
    let h = run.hiddenSub.get(el);
    if (h !== undefined) return h;
    h = false;
    const tag = el.localName;
    if (NEVER_RENDERED.has(tag)) {
      h = true;
    } else {
      const ah = el.getAttribute('aria-hidden');
      if (ah !== null && ah.trim().toLowerCase() === 'true') h = true;
      else if (el.hasAttribute('inert')) h = true;
      else if (style(el).display === 'none' && !isSelectOption(el)) h = true;
      else {
        const p = flatParent(el);
        if (p) {
          const m = modalInfo();
          // Outside an open modal dialog: inert.
          if (m && m.chain.has(p) && el !== m.modal && !m.chain.has(el)) h = true;
          else h = parentHidesChild(p, el) || hiddenSubtree(p);
        }
      }
    }
    run.hiddenSub.set(el, h);
    return h;
  }

  function isHiddenImpl(node) {
    if (!node) return true;
    if (node.nodeType === 3) {
      const p = flatParent(node);
      if (!p) return false;
      return isHiddenImpl(p) || parentHidesChild(p, node);
    }
    if (node.nodeType !== 1) return false;
    let h = run.hidden.get(node);
    if (h !== undefined) return h;
    h = hiddenSubtree(node);
    if (!h) {
      const v = style(node).visibility;
      h = v === 'hidden' || v === 'collapse';
    }
    run.hidden.set(node, h);
    return h;
  }

