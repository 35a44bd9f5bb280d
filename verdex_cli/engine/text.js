// The snapshot text of one frame, rendered in the page (module Text, see engine.py). The same format as
// render_text.py (the README's "Snapshot text format"); Python keeps that renderer for the views it
// filters itself and as the oracle tests compare this one with. A capture answers this text instead
// of its tree: the page renders it in a few milliseconds where Python takes many times that, and the
// tree, which the page keeps anyway (incremental.js), crosses to Python only when it is asked for.
//
// What a frame's render leaves to Python (capture.py stitches the frames):
// - every ref is written `\x01e<n>`: `\x01` stands for the tab's prefix and the frame's index, which a
//   frame new to the page does not know yet (page text never holds a raw control character: every
//   name, value and text run is escaped here, as clean() does);
// - a frame owner's line has `\x02` where ` [frame=fN]` goes and no `:`: what follows it is the child
//   frame's content, stitched in by Python;
// - refs of tier 2 (rows, cells, options...) are listed with their lines, so the page's own choice of
//   compact mode (from this frame's count alone) can be made again for the whole page.
// After patches (incremental.js) the frame is rendered again and only the lines that differ from the
// last render Python holds are sent: the common first and last lines are kept.
  const MAX_TEXT = 100;
  const COMPACT_LIMIT = 100;  // take.py's COMPACT_LIMIT
  const STATE_ORDER = ['checked', 'disabled', 'expanded', 'selected', 'pressed', 'level', 'required', 'editable'];
  const FRAME_UNIT = 4398046511104;  // 2 ** 42: a line's node identity is (frame + 1) * 2**42 + its number
  const REF = '\x01';
  const OWNER_MARK = '\x02';

  // Python's str.isspace: what strip() removes.
  function isSpace(c) {
    if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
    if (c < 0x85) return false;
    return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
      c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
  }
  function strip(s) {
    let a = 0;
    let b = s.length;
    while (a < b && isSpace(s.charCodeAt(a))) a++;
    while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
    return a === 0 && b === s.length ? s : s.slice(a, b);
  }
  function rstrip(s) {
    let b = s.length;
    while (b > 0 && isSpace(s.charCodeAt(b - 1))) b--;
    return b === s.length ? s : s.slice(0, b);
  }

  // Cut to MAX_TEXT characters as Python counts them (code points: a surrogate pair is one). While
  // `whole` is set nothing is cut: a line that was is rendered again whole (render's `long`), so what
  // changed past the cut is still a change (delta.py compares whole texts).
  let whole = false;
  let wasCut = false;
  function cut(s) {
    if (s.length <= MAX_TEXT || whole) return s;
    let i = 0;
    let n = 0;
    while (i < s.length && n < MAX_TEXT) {
      const c = s.charCodeAt(i);
      i += (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) ? 2 : 1;
      n++;
    }
    if (i >= s.length) return s;
    wasCut = true;
    return rstrip(s.slice(0, i)) + '...';
  }

  function hex(c, width) {
    const h = c.toString(16);
    return '0'.repeat(Math.max(0, width - h.length)) + h;
  }

  // sanitize.clean(one_line=True): every terminal control shown as a visible escape.
  const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/;
  const CONTROL_ALL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/g;
  function escapeControl(ch) {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    const c = ch.charCodeAt(0);
    return c <= 0xff ? '\\x' + hex(c, 2) : '\\u' + hex(c, 4);
  }
  function clean(s) { return CONTROL.test(s) ? s.replace(CONTROL_ALL, escapeControl) : s; }
  function oneLine(s) { return clean(cut(s)); }

  // sanitize.json_quote: a JSON string literal, non-ASCII (lone surrogates too) kept, every control
  // character escaped.
  const QUOTED = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029]/;
  const QUOTED_ALL = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
  const SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
  function escapeQuoted(ch) { return SHORT[ch] || '\\u' + hex(ch.charCodeAt(0), 4); }
  function quote(s) {
    s = cut(s);
    return '"' + (QUOTED.test(s) ? s.replace(QUOTED_ALL, escapeQuoted) : s) + '"';
  }

  function states(s) {
    let out = '';
    for (const key of STATE_ORDER) {
      if (!(key in s)) continue;
      const v = s[key];
      if (v === true) out += ' [' + key + ']';
      else if (v === false || v === null || v === undefined) continue;
      else out += ' [' + key + '=' + v + ']';
    }
    return out;
  }

  function hasElement(kids) {
    for (const k of kids) if (typeof k !== 'string') return true;
    return false;
  }

  // The text runs of a text-only node, joined as one value (empty when they are all white space).
  function runsText(kids) {
    const parts = [];
    for (const k of kids) { const t = strip(k); if (t) parts.push(t); }
    return parts.length ? oneLine(parts.join(' ')) : '';
  }

  // Render one frame's tree. `frame`: its index (-1 when not known yet: the identities leave it out).
  function render(root, compact, frame) {
    const base = frame >= 0 ? (frame + 1) * FRAME_UNIT : 0;
    const lines = [];
    const ids = [];
    const refs = [];     // n, role, name, tier of each ref, one after the other, in document order
    const refLines = []; // the line of each ref
    const t2 = [];       // [line, n] of every tier-2 ref (hidden when compact)
    const owners = [];   // [line, slot, frame id or '']
    const long = new Map();  // line -> that line uncut, for the lines a text was cut in

    // a node's line (nodeLine's arguments); when a text was cut in it, kept whole as well, built again uncut
    // (arguments, not a closure: one that captured them would cost every node a context object)
    function push(indent, role, name, marks, shape, kids, value) {
      lines.push(nodeLine(indent, role, name, marks, shape, kids, value));
      if (!wasCut) return;
      whole = true;
      try { long.set(lines.length - 1, nodeLine(indent, role, name, marks, shape, kids, value)); } finally { whole = false; }
    }
    // a node's line: its head (role, name, marks), then by `shape`: 0 nothing, 1 its text runs, 2 ':'
    // (children follow), 3 its value
    function nodeLine(indent, role, name, marks, shape, kids, value) {
      wasCut = false;
      const head = indent + '- ' + role + (name ? ' ' + quote(name) : '') + marks;
      if (shape === 1) { const text = runsText(kids); return text ? head + ': ' + text : head; }
      if (shape === 2) return head + ':';
      return shape === 3 ? head + ': ' + oneLine(value) : head;
    }

    function node(n, indent) {
      const role = n.r;
      const kids = n.c && n.c.length ? n.c : null;
      const hasElements = kids !== null && hasElement(kids);
      const name = n.n || '';
      const refNo = n.e;
      const fromContent = n.nc === 1;
      const showName = !!name && !(fromContent && hasElements && !refNo && role !== 'heading');
      let marks = '';
      if (n.s) marks += states(n.s);
      if (n.x) marks += ' [native]';
      const owner = n.fo !== undefined;
      if (owner) marks += OWNER_MARK;
      if (refNo) {
        const tier = n.t || 1;
        refs.push(refNo, role, name, tier);
        refLines.push(lines.length);
        if (tier === 2) t2.push(lines.length, refNo);
        if (!(compact && tier === 2)) marks += ' [ref=' + REF + 'e' + refNo + ']';
      }
      if (owner) owners.push([lines.length, n.fo, n.fid || '']);
      const shape = owner ? 0 : kids && !hasElements && !(showName && fromContent) ? 1 : kids && hasElements ? 2 :
        n.v ? 3 : 0;
      push(indent, role, showName ? name : '', marks, shape, kids, n.v);
      if (shape === 2) children(kids, indent + '  ', showName && fromContent, n.ti);
    }

    function children(kids, indent, namedFromContent, ti) {
      let runs = 0;
      for (const ch of kids) {
        if (typeof ch === 'string') {
          const j = runs++;
          if (namedFromContent) continue;
          const text = strip(ch);
          if (!text) continue;
          push(indent, 'text', '', '', 3, null, text);
          ids.push(ti && j < ti.length && ti[j] ? base + ti[j] : 0);
          continue;
        }
        ids.push(ch.i ? base + ch.i * 1024 : 0);
        node(ch, indent);
      }
    }

    const kids = root.c && root.c.length ? root.c : null;
    push('', 'document', root.n || '', '', kids ? 2 : 0);
    ids.push(base);
    if (kids) children(kids, '  ', false, root.ti);
    // what an owner of this frame shows after its line (capture.py): nothing, its text, or its lines
    const shape = kids === null ? 0 : hasElement(kids) ? 2 : 1;
    const inline = shape === 1 ? runsText(kids) : null;
    return { lines, ids, refs, refLines, t2, owners, shape, inline, compact, frame, long };
  }

  // What a render answers: the whole text, or (`prev`: the last render Python holds) only the lines
  // that differ from it (`at`: the first; `del`: how many of the old ones they replace; `ra`/`rb`:
  // the old refs before and after them; `ka`/`kb`: the same for tier-2 refs).
  function answer(r, prev) {
    const out = { shape: r.shape, inline: r.inline, owners: r.owners, compact: r.compact, frame: r.frame };
    if (r.owners.length) out.rl = r.refLines;  // the line of each ref: stitched in document order
    if (!prev || prev.frame !== r.frame) {
      out.text = r.lines.join('\n');
      out.ids = r.ids;
      out.refs = r.refs;
      out.t2 = r.t2;
      if (r.long.size) longs(out, r.long, r.lines, 0, r.lines.length);
      return out;
    }
    const a0 = prev.lines;
    const b0 = r.lines;
    const room = Math.min(a0.length, b0.length);
    // A line is the same when its text, its identity and its ref are: the ref Python keeps for a line
    // (its number, role, whole name and tier) is not all in the text (a tier-2 ref is hidden when
    // compact, the tier never shown, a long name cut), so refs are compared too (one ref a line at most).
    // (refs are listed flat: ref i is entries 4i to 4i+3; -1: the line has none)
    const px = prev.refs;
    const rx = r.refs;
    const sameRef = (x, y) => (x < 0 && y < 0) || (x >= 0 && y >= 0 && px[4 * x] === rx[4 * y] &&
      px[4 * x + 1] === rx[4 * y + 1] && px[4 * x + 2] === rx[4 * y + 2] && px[4 * x + 3] === rx[4 * y + 3]);
    const pl = prev.refLines;
    const rl = r.refLines;
    // a line cut the same way may hold another whole text
    const pw = prev.long, rw = r.long;
    const sameWhole = pw.size || rw.size ? (x, y) => pw.get(x) === rw.get(y) : () => true;
    let at = 0;
    for (let pa = 0, pb = 0; at < room && a0[at] === b0[at] && prev.ids[at] === r.ids[at] && sameWhole(at, at); at++) {
      const x = pl[pa] === at ? pa : -1;
      const y = rl[pb] === at ? pb : -1;
      if (!sameRef(x, y)) break;
      if (x >= 0) pa++;
      if (y >= 0) pb++;
    }
    let tail = 0;
    for (let qa = pl.length - 1, qb = rl.length - 1; tail < room - at &&
         a0[a0.length - 1 - tail] === b0[b0.length - 1 - tail] &&
         prev.ids[prev.ids.length - 1 - tail] === r.ids[r.ids.length - 1 - tail] &&
         sameWhole(a0.length - 1 - tail, b0.length - 1 - tail); tail++) {
      const x = pl[qa] === a0.length - 1 - tail ? qa : -1;
      const y = rl[qb] === b0.length - 1 - tail ? qb : -1;
      if (!sameRef(x, y)) break;
      if (x >= 0) qa--;
      if (y >= 0) qb--;
    }
    const oldEnd = a0.length - tail;
    const newEnd = b0.length - tail;
    const below = (list, x, step) => {  // how many entries of the sorted `list` are < x
      let i = 0;
      while (i < list.length && list[i] < x) i += step;
      return i / step;
    };
    const ra = below(prev.refLines, at, 1);
    const rb = prev.refLines.length - below(prev.refLines, oldEnd, 1);
    const ka = below(prev.t2, at, 2);
    const kb = prev.t2.length / 2 - below(prev.t2, oldEnd, 2);
    const na = below(r.refLines, at, 1);
    const nb = below(r.refLines, newEnd, 1);
    const ma = below(r.t2, at, 2);
    const mb = below(r.t2, newEnd, 2);
    out.diff = {
      at, del: oldEnd - at, old: a0.length,
      text: b0.slice(at, newEnd).join('\n'), lines: newEnd - at,
      ids: r.ids.slice(at, newEnd),
      refs: r.refs.slice(4 * na, 4 * nb), ra, rb,
      t2: r.t2.slice(2 * ma, 2 * mb), ka, kb,
    };
    if (rw.size) longs(out.diff, rw, b0, at, newEnd);
    return out;
  }

  // The whole lines of lines from..to-1, each as where it first differs from its cut line: `long`
  // [line (counted from `from`), p, ...], the whole line being the cut line's first p characters (code
  // points, as Python counts; none past a ref mark, which Python spells out) and then its rest in
  // `whole`, one a line (bridge.js sends it after the text, not in the JSON: quoted names would be
  // escaped twice). (What was cut is all that crosses again: the rest of the line is in the text.)
  function longs(into, long, lines, from, to) {
    const at = [];
    const rests = [];
    long.forEach((line, k) => {
      if (k < from || k >= to) return;
      const cutLine = lines[k];
      const mark = cutLine.indexOf(REF);
      const end = Math.min(mark < 0 ? cutLine.length : mark, line.length);
      let p = 0;
      let pairs = 0;  // surrogate pairs among the first p (one code point each)
      for (let c; p < end && (c = line.charCodeAt(p)) === cutLine.charCodeAt(p); p++) {
        if ((c & 0xfc00) === 0xdc00 && p > 0 && (line.charCodeAt(p - 1) & 0xfc00) === 0xd800) pairs++;
      }
      if (p > 0 && (line.charCodeAt(p - 1) & 0xfc00) === 0xd800) p--;  // (not between a pair's halves)
      at.push(k - from, p - pairs);
      rests.push(line.slice(p));
    });
    if (at.length) { into.long = at; into.whole = rests.join('\n'); }
  }

  // The view of a frame's tree (the capture's answer in place of the tree). `cap`: the capture this one
  // follows, whose render Python holds (0: none): only the lines that changed are sent.
  let last = null;  // {cap, render} of the last render answered
  function view(root, opts, capNow, capBefore) {
    const tiers = opts.tiers;
    const compact = !opts.allRefs && tiers[0] + tiers[1] > COMPACT_LIMIT;
    const r = render(root, compact, opts.frame);
    if (opts.shown) opts.shown(r.refs);  // every ref of the text
    const prev = last && capBefore && last.cap === capBefore ? last.render : null;
    last = capNow ? { cap: capNow, render: r } : null;
    return answer(r, prev);
  }

  function forget() { last = null; }

  return { render, view, forget };
