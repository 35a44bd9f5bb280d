// Text runs of a snapshot (module Runs, see engine.py): the text between two nodes,
// with the word boundaries a reader sees (innerText's). White space between inline elements is one
// space; a <br> or the edge of a block is a boundary; the content of a collapsed wrapper (a generic
// <span>, <div>) merges into the text around it.
//
// While the walk lasts, a run's white space at a join is one character: ' ' a space, '\r' white
// space that holds a line break of the source (a segment break: white space holding one right after a
// <wbr> vanishes, as in Chrome; only the leading white space of a text node is marked, as only that
// can follow a <wbr>), '\n' a boundary (a <br>, a block's edge: it survives the
// trimming at an inline-block's edges), and '\u200b' stands for a <wbr>. A list may start with a lone
// white-space character (it may join the text before a collapsed wrapper); finish() drops it and
// turns the rest into plain spaces.
  const WS = /\s+/g;
  const SPACED = /[^\S ]| {2}/;  // white space that WS would change: other than one plain space
  const MARKS = /[\n\r\u200b]/;
  const WBR = /\u200b\r?/g;
  const HARD = /[\n\r]/g;
  const ZW = '\u200b';
  const TRAIL = /[ \r]?\u200b*$/;
  const LEAD = /^\u200b*[ \r]?/;

  // 1 ' ', 2 '\r', 3 '\n' (when two meet, the stronger one wins, else the first), 0 anything else
  function rank(c) { return c === 32 ? 1 : c === 13 ? 2 : c === 10 ? 3 : 0; }

  // Is there a line break in the white space of `data` from index i on?
  function broken(data, i) {
    for (; i < data.length; i++) {
      const c = data.charCodeAt(i);
      if (c === 10 || c === 13) return true;
      if (c !== 32 && c !== 9 && c !== 12) return false;
    }
    return false;
  }

  // A text node's data, white space collapsed ('\r' first when its leading white space holds a line
  // break).
  function text(data) {
    const t = SPACED.test(data) ? data.replace(WS, ' ') : data;  // (most text has nothing to collapse)
    return t.charCodeAt(0) === 32 && broken(data, 0) ? '\r' + t.slice(1) : t;
  }

  function lone(t) { return t.length === 1 && (rank(t.charCodeAt(0)) !== 0 || t === ZW); }

  // Add run `t` to `out`, joined to a run before it. `out.t` holds one identity per string of `out`
  // (bridge.js: which element's text it is; 0 none): a joined run keeps the first identity it had.
  function push(out, t, id) {
    const last = out.length - 1;
    if (last >= 0 && typeof out[last] === 'string') {
      const p = out[last];
      const a = rank(p.charCodeAt(p.length - 1));
      const b = rank(t.charCodeAt(0));
      if (!a || !b) out[last] = p + t;
      else if (b > a) out[last] = p.slice(0, -1) + t;
      else if (t.length > 1) out[last] = p + t.slice(1);
      const ids = out.t;
      if (id && ids && !ids[ids.length - 1]) ids[ids.length - 1] = id;  // a bare boundary takes the text's
    } else if (last < 0 || !lone(t)) {
      out.push(t);
      (out.t || (out.t = [])).push(id || 0);
    }
  }

  // The content `c` (nodes and runs) of a collapsed element into `out`. `box` (Aria.textBox): 0
  // inline, 1 an inline-level box of its own (white space at its edges collapses away), 2 a block.
  function merge(out, c, box) {
    if (box === 2) push(out, '\n', 0);
    if (c !== undefined && c.length) {
      if (box) {  // a box of its own: white space at its edges collapses away, its <wbr>s stay inside
        const end = c.length - 1;
        if (typeof c[end] === 'string') c[end] = c[end].replace(TRAIL, '');
        if (typeof c[0] === 'string') c[0] = c[0].replace(LEAD, '');
      }
      const ids = c.t;
      for (let i = 0, j = 0; i < c.length; i++) {
        const ch = c[i];
        if (typeof ch !== 'string') out.push(ch);
        else if (ch !== '') push(out, ch, ids ? ids[j++] : 0);
        else j++;
      }
    }
    if (box === 2) push(out, '\n', 0);
  }

  // A node's own list, final: plain text runs (none blank); undefined when nothing is left.
  // The identities in `c.t` stay in step with its strings.
  function finish(c) {
    const ids = c.t;
    if (typeof c[0] === 'string' && lone(c[0])) { c.shift(); if (ids) ids.shift(); }
    for (let i = 0, j = 0; i < c.length; i++) {
      const s = c[i];
      if (typeof s !== 'string') continue;
      if (!MARKS.test(s)) { j++; continue; }
      const t = s.replace(WBR, '').replace(HARD, ' ');
      if (t.trim() === '') { c.splice(i--, 1); if (ids) ids.splice(j, 1); } else { c[i] = t; j++; }
    }
    return c.length ? c : undefined;
  }

  return { text, push, merge, finish, ZW };
