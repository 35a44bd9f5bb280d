// Very deep pages (module Deep, see engine.py). Two limits keep a snapshot of a 5,000-level DOM
// from overflowing a stack:
// - walk() recursion: below MAX_DOM levels the rest of a subtree is not walked on the spot; a
//   placeholder takes its place and it is walked later from a fresh stack (`drain`), then spliced in
//   (`expand`). The tree comes out the same, except that the element at the boundary sees the
//   placeholder as "has element children".
// - output nesting: nodes deeper than MAX_TREE levels are listed flat, in document order, under
//   their ancestor at that level (`flatten`), so the JSON and the text stay shallow enough for
//   any parser; the caller adds a note saying how many.
  const MAX_DOM = 450;
  const MAX_TREE = 200;
  const DEFER = '\u0000defer';
  let depth = 0;
  let deepest = 0;  // the output cannot nest deeper than the walk went
  let queue = [];

  function begin() { depth = 0; deepest = 0; queue = []; }

  // walk() calls enter() first: false means "too deep here", and a placeholder is pushed to `out`
  function enter(node, out, inContainer, noText) {
    if (depth < MAX_DOM) {
      if (++depth > deepest) deepest = depth;
      return true;
    }
    const ph = { r: DEFER, node, ic: inContainer, nt: noText, c: [] };
    queue.push(ph);
    out.push(ph);
    return false;
  }

  function leave() { depth--; }

  // Walk the deferred subtrees, each from the top of the stack (they may defer further).
  function drain(walk) {
    const n = queue.length;
    if (n) deepest = Infinity;
    for (let i = 0; i < queue.length; i++) {
      const ph = queue[i];
      depth = 0;
      walk(ph.node, ph.c, ph.ic, ph.nt);
      ph.node = null;
    }
    queue = [];
    return n > 0;
  }

  function isPh(ch) { return ch !== null && typeof ch === 'object' && ch.r === DEFER; }

  // A children list with its placeholders replaced by what they stood for (recursively). Each list's
  // `t` (per string: its identity, see bridge.js) follows its strings.
  function splat(c) {
    let any = false;
    for (const ch of c) if (isPh(ch)) { any = true; break; }
    if (!any) return c;
    const out = [];
    const st = [[c, 0, 0]];
    while (st.length) {
      const top = st[st.length - 1];
      if (top[1] >= top[0].length) { st.pop(); continue; }
      const ch = top[0][top[1]++];
      if (isPh(ch)) st.push([ch.c, 0, 0]);
      else if (typeof ch === 'string') {
        const src = top[0].t ? top[0].t[top[2]] : 0;
        top[2]++;
        Runs.push(out, ch, src);
      } else out.push(ch);
    }
    return out;
  }

  function expand(root) {
    const stack = [root];
    while (stack.length) {
      const n = stack.pop();
      if (!n.c) continue;
      const was = n.c;
      let c = splat(was);
      if (c !== was) c = Runs.finish(c) || [];  // the text the placeholders brought, final
      if (c.length) n.c = c; else delete n.c;
      if (c !== was || n.ti !== undefined) {
        let mixed = false;
        for (const ch of c) if (typeof ch !== 'string') { mixed = true; break; }
        if (mixed && c.t) n.ti = c.t; else delete n.ti;
      }
      for (const ch of c) if (typeof ch !== 'string') stack.push(ch);
    }
  }

  // List nodes deeper than MAX_TREE flat under their ancestor at that level; returns how many moved.
  function flatten(root) {
    if (deepest < MAX_TREE) return 0;
    let moved = 0;
    const stack = [[root, 0]];
    while (stack.length) {
      const [n, d] = stack.pop();
      if (!n.c) continue;
      if (d < MAX_TREE) {
        for (const ch of n.c) if (typeof ch !== 'string') stack.push([ch, d + 1]);
        continue;
      }
      const out = [];
      const st = [[n.c, 0, false]];
      while (st.length) {
        const top = st[st.length - 1];
        if (top[1] >= top[0].length) { st.pop(); continue; }
        const ch = top[0][top[1]++];
        out.push(ch);
        if (typeof ch === 'string') continue;
        if (top[2]) moved++;
        if (!ch.c) continue;
        const texts = [];
        const elems = [];
        for (const k of ch.c) (typeof k === 'string' ? texts : elems).push(k);
        if (!elems.length) continue;
        if (texts.length) ch.c = texts; else delete ch.c;
        st.push([elems, 0, true]);
      }
      n.c = out;
    }
    return moved;
  }

  return { begin, enter, leave, drain, expand, flatten };
