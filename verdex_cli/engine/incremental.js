// Incremental capture of one frame (module Incremental, see engine.py). After a whole-frame capture the
// bridge keeps its tree here; every node it emitted for an element carries that element under the
// symbol EL (JSON leaves symbols out). When the change watcher (observer.js) can say which elements
// changed, the next capture re-walks only the smallest parts of the tree that those changes can
// reach and answers with patches ({p: path of child indices from the frame root, n: the new node}),
// which the caller splices into its copy of the tree. Anything it cannot vouch for answers null,
// and the bridge captures the whole frame instead.
//
// How far a change reaches (the "anchor" re-walked for a changed element D):
// - the nearest ancestor-or-self of D that emitted a node, widened to its parent element first when
//   a style sheet has sibling rules (`+`/`~`) that set what a snapshot reads;
// - then up to the topmost emitted ancestor whose name comes from the part of its subtree that holds D
//   (its content, or its legend, caption, figcaption, svg title; a dialog's heading);
// - then up again while the re-walk does not give exactly one node (it became hidden, collapsed...);
// - names given from elsewhere follow their source: a label's control, the elements whose
//   aria-labelledby names an id inside D or around it, the image of an image map;
// - the frame root, a frame owner in the old or new part, a page deeper than the walk's stack
//   limits, or :has() rules that set what a snapshot reads: the whole frame is captured.
  const EL = Symbol('verdex.element');
  const CONTAINERS = new Set(['listbox', 'combobox', 'tree', 'grid', 'treegrid', 'menu']);
  const MAX_DEPTH = 190;  // output depth a patch may reach (Deep flattens below 200 in a whole capture)
  let last = null;        // {root, tiers: [t1, t2]} of the last capture, while patches can follow it
  let capNo = 0;

  // After a whole-frame capture: keep its tree (when patches may follow it) and name the capture.
  function remember(root, tiers, usable) {
    capNo++;
    last = usable ? { root, tiers: tiers.slice() } : null;
    named = new Map();
    return capNo;
  }

  function forget() { last = null; }

  const flatParent = Aria.flatParent;

  // The chain of emitted nodes from the root down to the nearest one of `el` or its ancestors.
  function locate(el) {
    const chain = new Set();
    for (let n = el; n; n = flatParent(n)) chain.add(n);
    const nodes = [last.root];
    const path = [];
    let node = last.root;
    for (;;) {
      const c = node.c;
      let next = -1;
      if (c) {
        for (let i = 0; i < c.length; i++) {
          const ch = c[i];
          if (typeof ch === 'object' && ch[EL] !== undefined && chain.has(ch[EL])) { next = i; break; }
        }
      }
      if (next < 0) return { nodes, path, chain };
      node = c[next];
      path.push(next);
      nodes.push(node);
    }
  }

  // Does this node's name come from a part of its subtree that holds the change (chain: the changed
  // element and its ancestors)? Names from content, and names from a legend, caption, figcaption,
  // an svg title, or a dialog's heading.
  const NAMING_CHILD = { fieldset: 'legend', table: 'caption', figure: 'figcaption', svg: 'title' };
  function namedBelow(node, chain) {
    if (node.nc) return true;
    if (node.r === 'dialog' || node.r === 'alertdialog') return true;
    const el = node[EL];
    const want = el && NAMING_CHILD[el.localName];
    if (!want) return false;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === want && chain.has(c)) return true;
    return false;
  }

  function hasOwner(node) {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      if (n.fo !== undefined) return true;
      if (n.c) for (const k of n.c) if (typeof k === 'object') stack.push(k);
    }
    return false;
  }

  function countTiers(node, sign, tiers) {
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      if (n.e) tiers[n.t === 2 ? 1 : 0] += sign;
      if (n.c) for (const k of n.c) if (typeof k === 'object') stack.push(k);
    }
  }

  function depthOf(node) {
    let deepest = 0;
    const stack = [[node, 1]];
    while (stack.length) {
      const [n, d] = stack.pop();
      if (d > deepest) deepest = d;
      if (n.c) for (const k of n.c) if (typeof k === 'object') stack.push([k, d + 1]);
    }
    return deepest;
  }

  // The changed elements, widened by what the style sheets can do; null: capture everything.
  function widen(dirt) {
    const out = new Set();
    for (const [node, kinds] of dirt.roots) {
      let el = node.nodeType === 1 ? node : (node.nodeType === 11 ? node.host : node.parentNode);
      if (!el || !el.isConnected) continue;
      const scope = el.getRootNode();
      if (kinds !== Observer.TEXT) {
        if (Sheets.any('has', scope)) return null;
        if ((kinds & Observer.EVENT) && Sheets.any('state', scope)) return null;
        if (Sheets.any('sibling', scope) && flatParent(el)) el = flatParent(el);
      }
      out.add(el);
    }
    return out;
  }

  // Elements whose name comes from a changed element elsewhere.
  function dependents(els, removedIds) {
    const add = [];
    if (removedIds.size) {
      namers(document);
      for (const m of named.values()) for (const id of removedIds) if (m.has(id)) add.push(...m.get(id));
      for (const id of removedIds) {
        const control = id.startsWith('for:') ? document.getElementById(id.slice(4)) : null;
        if (control) add.push(control);
      }
    }
    for (const el of els) noteNamers(el);  // namers inside changed parts may be new
    for (const el of els) {
      const label = el.closest('label');
      if (label && label.control) add.push(label.control);
      if (el.firstElementChild) for (const l of el.querySelectorAll('label')) if (l.control) add.push(l.control);
      const map = el.closest('map');
      if (map && map.name) for (const img of document.querySelectorAll('img[usemap]')) {
        if (img.getAttribute('usemap') === '#' + map.name) add.push(img);
      }
      const byId = namers(el.getRootNode());
      if (!byId.size) continue;
      for (let n = el; n; n = flatParent(n)) if (n.id && byId.has(n.id)) add.push(...byId.get(n.id));
      if (el.firstElementChild) for (const d of el.querySelectorAll('[id]')) if (byId.has(d.id)) add.push(...byId.get(d.id));
    }
    for (const el of add) els.add(el);
  }

  // Per tree scope, id -> the elements that take their name (or role) from the element with that
  // id; listed once after a whole capture, then kept up to date from the changed parts.
  const NAMERS = '[aria-labelledby], [aria-labeledby], input[list]';
  let named = new Map();
  function namers(scope) {
    let m = named.get(scope);
    if (m === undefined) {
      m = new Map();
      named.set(scope, m);
      if (scope.querySelectorAll) for (const el of scope.querySelectorAll(NAMERS)) addNamer(m, el);
    }
    return m;
  }
  function noteNamers(el) {
    const m = named.get(el.getRootNode());
    if (m === undefined) return;  // listed in full when first asked
    if (el.matches(NAMERS)) addNamer(m, el);
    if (el.firstElementChild) for (const d of el.querySelectorAll(NAMERS)) addNamer(m, d);
  }
  function addNamer(m, el) {
    const v = el.getAttribute('aria-labelledby') || el.getAttribute('aria-labeledby') || el.getAttribute('list') || '';
    for (const id of v.trim().split(/\s+/)) {
      if (!id) continue;
      let list = m.get(id);
      if (list === undefined) m.set(id, list = []);
      if (!list.includes(el)) list.push(el);
    }
  }

  // Patches for what changed, or null (capture the whole frame). `rewalk(el, inContainer)` walks one
  // element as a whole capture would and returns what it emitted (null: too deep for a patch).
  function update(cap, dirt, rewalk) {
    if (last === null || cap !== capNo || dirt.overflow) return null;
    const els = widen(dirt);
    if (els === null) return null;
    dependents(els, dirt.removedIds);
    const order = [...els].filter((e) => e.isConnected).map((e) => ({ el: e, at: locate(e) }));
    order.sort((a, b) => a.at.path.length - b.at.path.length);
    const done = new Set();
    const patches = [];
    const tiers = last.tiers.slice();
    for (const item of order) {
      let skip = false;
      for (const d of done) if (item.at.chain.has(d)) { skip = true; break; }
      if (skip) continue;
      const at = locate(item.el);  // again: an earlier patch may have replaced nodes on its path
      let k = at.nodes.length - 1;
      for (let i = 1; i < k; i++) if (namedBelow(at.nodes[i], at.chain)) { k = i; break; }
      for (;;) {
        if (k <= 0) return null;
        const old = at.nodes[k];
        if (hasOwner(old)) return null;
        const el = old[EL];
        let inContainer = false;
        for (let i = 0; i < k; i++) if (CONTAINERS.has(at.nodes[i].r)) { inContainer = true; break; }
        const out = el && el.isConnected ? rewalk(el, inContainer) : [];
        if (out === null) return null;
        if (out.length === 1 && typeof out[0] === 'object' && out[0][EL] === el) {
          const node = out[0];
          if (hasOwner(node) || k + depthOf(node) > MAX_DEPTH) return null;
          done.add(el);
          if (JSON.stringify(node) === JSON.stringify(old)) break;  // re-walked, and the same
          at.nodes[k - 1].c[at.path[k - 1]] = node;
          countTiers(old, -1, tiers);
          countTiers(node, 1, tiers);
          patches.push({ p: at.path.slice(0, k), n: node });
          break;
        }
        k--;  // it no longer stands for one node: its parent is re-walked
      }
    }
    last.tiers = tiers;
    capNo++;  // the caller's tree must take these patches to follow the next ones
    return { patches, tiers };
  }

  function title(t) { if (last) last.root.n = t; }

  return { EL, remember, forget, update, title, get cap() { return capNo; }, get root() { return last && last.root; } };
