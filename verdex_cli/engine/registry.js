// The element <-> ref registry of one document. It lives in the isolated world (module Registry,
// see engine.py), so page scripts can neither read nor forge it.
//
// - `refOf` (WeakMap) maps an element to its number for as long as the element exists: the same
//   element always gets the same number, also after it was away for a while.
// - `entries` maps a number to its element, what the last capture saw of it (`cur`) and what the user
//   was last *shown* (`shown`, and `sig`): its identity (the attributes that say *which* item it is),
//   its record (the row, list item, card, option, tree item or dialog around it: key attributes and
//   label), its heading and the document's address. A capture only updates `cur` of the elements it
//   had numbered before; `show` makes that what the user saw (a snapshot, a find, an action's change
//   line that names the ref), so a change the user was not shown is never taken as seen. An entry is kept while its element is
//   connected or was seen in the last KEEP snapshots; older disconnected
//   elements are dropped (memory stays bounded) and reported once as `gone`, so the caller can keep
//   a tombstone. A dropped number still classifies as `removed` here: it is at most `counter`.
  const KEEP = 5;
  // identity attributes besides data-*; `value` only where it names the choice (see ownSig)
  const ID_ATTRS = new Set(['id', 'name', 'href', 'key', 'aria-posinset', 'aria-rowindex', 'row-index', 'row-id']);
  const VALUE_TAGS = new Set(['button', 'option']);
  const VALUE_TYPES = new Set(['radio', 'checkbox', 'submit', 'button', 'reset', 'image']);
  // data-* attributes that describe a state of the same item, not which item it is
  const VOLATILE = /^data-(?:[\w-]*[-_])?(?:state|status|active|focus|focused|focus-visible|focus-within|hover|hovered|highlighted|selected|checked|disabled|open|opened|closed|expanded|collapsed|pressed|loading|loaded|busy|pending|visible|hidden|invalid|valid|dirty|touched|orientation|side|align|placement|theme|mode|drag|dragging|dropping|animat\w*|transition\w*|motion\w*|scroll\w*|headlessui-state|count|size|width|height|x|y|top|left|offset|ts|time|timestamp|updated)$/;
  const ITEM_TAGS = new Set(['li', 'tr', 'option', 'dt', 'dd']);
  const ITEM_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'menuitem', 'menuitemradio',
    'menuitemcheckbox', 'tab', 'article']);
  const KEY_SET = new Set(['data-key', 'data-index', 'data-id', 'key', 'data-row-index', 'data-rowindex',
    'data-row-key', 'data-item-index', 'aria-rowindex', 'aria-posinset', 'row-index', 'row-id']);
  const ITEM_DEPTH = 6;
  const CUT = 80;

  let counter = 0;              // last number issued in this document
  let floor = 0;                // numbers up to here were forgotten by reset-refs --keep-counter
  let refOf = new WeakMap();    // element -> n
  let entries = new Map();      // n -> {el, seen, sig, parent, tag, inShadow, cur, shown}
  let snapNo = 0;               // snapshots taken of this document
  let run = null;               // per-snapshot caches
  let tierCount = [0, 0, 0];    // refs issued in the last snapshot, by tier

  // Number on after `start` (the tab's highest number for this frame index). `renumber`: this
  // document is new to the frame's numbering; refs this registry already holds (a document restored
  // from the back/forward cache) were of an earlier visit and are forgotten: its elements get new ones.
  function init(start, renumber) {
    if (renumber && entries.size) reset(true);
    counter = Math.max(counter, start | 0);
  }

  function begin() {
    snapNo++;
    run = { index: new Map(), item: new Map(), rec: new Map(), part: new Map() };
    tierCount = [0, 0, 0];
    head = null;
    capUrl = location.href;
  }

  function tiers() { return [tierCount[1], tierCount[2]]; }

  // Drop disconnected elements not seen in the last KEEP snapshots; returns their numbers.
  function end() {
    run = null;
    lastUrl = capUrl;
    const gone = [];
    const old = snapNo - KEEP;
    entries.forEach((e, n) => {
      if (e.seen <= old && !e.el.isConnected) { entries.delete(n); gone.push(n); }
    });
    return gone;
  }

  // The element's number; what a capture sees of it becomes its `cur` state (an element new to the
  // registry: also what was shown of it).
  function issue(el, tier) {
    if (run && tier) tierCount[tier]++;
    let n = refOf.get(el);
    if (n === undefined) { n = ++counter; refOf.set(el, n); }
    let e = entries.get(n);
    const fresh = e === undefined;
    if (fresh) {
      e = { el, seen: 0, sig: '', parent: null, tag: el.localName, inShadow: Aria.rootOf(el) !== document,
        csig: '', cown: '', crec: null, chead: null, curl: '', sown: null, srec: null, shead: '', surl: '', same: 0 };
      entries.set(n, e);
    }
    e.seen = snapNo;
    restate(e);
    e.parent = el.parentElement;  // its row, should it be taken out of it alone (see rowText)
    if (fresh) shown(e);
    return n;
  }

  // issued and shown at once (a find, a target, a successor named in a message)
  function issueShown(el, tier) {
    const n = issue(el, tier);
    shown(entries.get(n));
    return n;
  }

  // what the capture sees: c* fields; what the user was shown: sig, s* fields (flat: no allocation)
  function restate(e) {
    const el = e.el;
    const own = ownSig(el);
    e.csig = own + itemSig(el, own);
    e.cown = own;
    e.crec = recordState(el);
    if (run && head !== null && !inScope(head, el)) head = headingBefore(el);  // the walk left the heading's part
    e.chead = run ? head : headingBefore(el);
    e.curl = run ? capUrl : location.href;
    e.same = 0;
  }

  function shown(e) {
    e.sig = e.csig;
    e.sown = e.cown;
    e.srec = e.crec;
    e.shead = headText(e.chead);
    e.surl = e.curl;
    e.same = snapNo;  // shown as capture snapNo saw it (until the next restate)
  }

  // The refs `ns` were shown to the user as the last capture saw them (those shown as it saw them
  // already, new to the registry in it, are as they are: their headings are not looked up again).
  function show(ns) {
    for (const n of ns) {
      const e = entries.get(n);
      if (e !== undefined && e.sown !== null && e.same !== snapNo) shown(e);
    }
    return true;
  }

  // The same, in the capture that saw them (refs listed flat, n every 4th entry: text.js): those new
  // to the registry were shown as they were numbered, in this same task.
  function showListed(refs) {
    for (let i = 0; i < refs.length; i += 4) {
      const e = entries.get(refs[i]);
      if (e !== undefined && e.sown !== null && e.same !== snapNo) shown(e);
    }
  }

  // Were the refs (listed as for showListed) all shown as the last capture saw them?
  function allShown(refs) {
    for (let i = 0; i < refs.length; i += 4) {
      const e = entries.get(refs[i]);
      if (e === undefined || e.same !== snapNo) return false;
    }
    return true;
  }

  // Where ref n's element (gone from the document) was when last shown: its record and heading (its
  // box was not measured then: that would cost every snapshot a layout read per ref).
  function lastShown(n) {
    const e = entries.get(n);
    return { record: e.srec === null ? '' : `${e.srec.w} ${recordText(e.srec)}`, heading: e.shead };
  }

  // Ref n was shown to the user as it is now (inspect).
  function showNow(n) {
    const e = entries.get(n);
    if (e === undefined || !e.el.isConnected) return false;
    restate(e);
    shown(e);
    return true;
  }

  function get(n) {
    const e = entries.get(n);
    return e === undefined ? null : e.el;
  }

  // 'live' | 'removed' (gone, or dropped after it had gone) | 'unknown' (never issued, or reset)
  function status(n) {
    const e = entries.get(n);
    if (e !== undefined) return e.el.isConnected ? 'live' : 'removed';
    return n > floor && n <= counter ? 'removed' : 'unknown';
  }

  // ---- identity -----------------------------------------------------------
  function cut(v) { return v.length > CUT ? v.slice(0, CUT) + '...' : v; }

  let keyed = false;  // set by ownSig: the element has a key-like attribute

  // "attr=value" lines of the attributes that say which item an element is
  function ownSig(el) {
    keyed = false;
    if (!el.hasAttributes()) return '';
    let s = '';
    const names = el.getAttributeNames();
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      let kind = KINDS.get(k);
      if (kind === undefined) KINDS.set(k, kind = kindOf(k));
      if (kind === 0) continue;
      if (kind === 3) keyed = true;
      else if (kind === 2 && !(VALUE_TAGS.has(el.localName) || (el.localName === 'input' && VALUE_TYPES.has(el.type)))) continue;
      s += k + '=' + cut(el.getAttribute(k)) + '\n';
    }
    return s;
  }

  // 0: not identity, 1: identity, 2: identity for some elements (value), 3: identity and a list key
  const KINDS = new Map();
  function kindOf(k) {
    if (KEY_SET.has(k)) return 3;
    if (ID_ATTRS.has(k) || (k.startsWith('data-') && !VOLATILE.test(k))) return 1;
    return k === 'value' ? 2 : 0;
  }

  // call right after ownSig(n)
  function isItem(n) {
    if (keyed || ITEM_TAGS.has(n.localName)) return true;
    const role = n.getAttribute('role');
    return role !== null && ITEM_ROLES.has(role);
  }

  function indexOf(el) {
    const tag = el.localName;
    let k = 0;
    let steps = 0;
    for (let c = el.previousElementSibling; c; c = c.previousElementSibling) {
      if (++steps > 24) return bigIndexOf(el);
      if (c.localName === tag) k++;
    }
    return k;
  }

  // in a long list: one pass over the parent's children per snapshot
  function bigIndexOf(el) {
    const parent = el.parentNode;
    let map = run ? run.index.get(parent) : undefined;
    if (map === undefined) {
      map = new Map();
      const counts = new Map();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const k = counts.get(c.localName) || 0;
        map.set(c, k);
        counts.set(c.localName, k + 1);
      }
      if (run) run.index.set(parent, map);
    }
    return map.get(el) || 0;
  }

  // The element around `x`, through a shadow root to its host (a control a component draws inside its
  // shadow root belongs to the row the component is in).
  const up = (x) => x.parentElement || (x.parentNode && x.parentNode.host) || null;

  // The list item an element belongs to (itself, or an ancestor a few levels up): its key
  // attributes, or its index among same-tag siblings when it has none.
  function itemSig(el, own) {
    if (isItem(el)) return own ? '' : 'item index=' + indexOf(el) + '\n';
    let node = up(el);
    for (let d = 1; node && d < ITEM_DEPTH; d++, node = up(node)) {
      if (!node.hasAttributes() && !ITEM_TAGS.has(node.localName)) continue;  // the common wrapper
      let sig = run ? run.item.get(node) : undefined;
      if (sig === undefined) {
        sig = itemNodeSig(node);
        if (run) run.item.set(node, sig);
      }
      if (sig !== null) return sig;
    }
    return '';
  }

  // The identity lines an ancestor contributes when it is a list item, else null.
  function itemNodeSig(node) {
    const attrs = ownSig(node);
    if (!isItem(node)) return null;
    return attrs ? 'item:' + attrs.slice(0, -1).replace(/\n/g, '\nitem:') + '\n' : 'item index=' + indexOf(node) + '\n';
  }

  function identity(el) {
    const own = ownSig(el);
    return own + itemSig(el, own);
  }

  // What differs between what the user was shown and the element now, in words ('' when nothing that
  // says *which* thing it is): its own identity attributes, its record (key attributes, or the label
  // of a record without any), its list item's identity where it has no record, and -- after the
  // document's address changed -- its heading. `kind` (see changeKind) says which.
  function identityChange(n) {
    changeKind = '';
    const e = entries.get(n);
    if (e === undefined || !e.el.isConnected || e.sown === null) return '';
    const el = e.el;
    const own = ownSig(el);
    if (own !== e.sown) return attrChange(e.sown, own, 'attr');
    const rec = recordState(el);
    if (e.srec !== null || rec !== null) {
      if (!sameRecord(e.srec, rec)) { changeKind = 'record:' + (rec || e.srec).w; return recordPhrase(e.srec, rec); }
    } else {
      const now = identity(el);
      if (now !== e.sig) return attrChange(e.sig, now, 'attr');
    }
    const url = location.href;
    if (url !== e.surl && !Aria.isHidden(el)) {  // (inert behind a modal: so are the headings it had)
      const h = headText(headingBefore(el));
      if (h !== e.shead) {
        changeKind = 'route';
        return `the page's address changed from "${urlPart(e.surl, url)}" to "${urlPart(url, e.surl)}" and ` +
          (e.shead ? `its heading from "${e.shead}" to ` + (h ? `"${h}"` : 'none') : `it now has the heading "${h}"`);
      }
    }
    return '';
  }
  let changeKind = '';  // of the last identityChange: 'attr', 'record:<word>', 'route' or ''

  function attrChange(wasSig, nowSig, kind) {
    changeKind = kind;
    const was = lines(wasSig);
    const cur = lines(nowSig);
    for (const [k, v] of was) {
      if (!cur.has(k)) return `its ${k} "${v}" was removed`;
      if (cur.get(k) !== v) return `its ${k} changed from "${v}" to "${cur.get(k)}"`;
    }
    for (const [k, v] of cur) if (!was.has(k)) return `it gained ${k} "${v}"`;
    return 'its identity attributes changed';
  }

  // ---- records and headings ---------------------------------------------------------------
  const REC_TAGS = { li: 'list item', dt: 'list item', dd: 'list item', tr: 'row', option: 'option',
    article: 'card', dialog: 'dialog' };
  const REC_ROLES = { row: 'row', listitem: 'list item', option: 'option', treeitem: 'tree item', article: 'card',
    dialog: 'dialog', alertdialog: 'dialog' };
  // attributes that name a record; all but id and href also make any ancestor a record
  const REC_KEYS = ['data-id', 'data-key', 'data-testid', 'data-row-key', 'row-id', 'key', 'data-index',
    'data-row-index', 'data-rowindex', 'data-item-index', 'aria-rowindex', 'aria-posinset', 'row-index', 'id', 'href'];
  const REC_MAKERS = REC_KEYS.slice(0, -2);
  const REC_KEY_SET = new Set(REC_KEYS);
  const SKIP_TEXT = new Set(['script', 'style', 'template', 'noscript']);
  const NAMED = 'button,a[href],label,h1,h2,h3,h4,h5,h6,[role=button],[role=link],[role=heading]';
  const HEADINGS = 'h1,h2,h3,h4,h5,h6,[role=heading]';

  function recordWord(node) {
    const role = node.getAttribute('role');
    if (role !== null) return REC_ROLES[role] || (REC_MAKERS.some((k) => node.hasAttribute(k)) ? 'item' : null);
    return REC_TAGS[node.localName] || (REC_MAKERS.some((k) => node.hasAttribute(k)) ? 'item' : null);
  }

  // {w: its word, k: its key attributes ("data-id 7"), l: its label, at: the text the label is} of the
  // record around `el` (an ancestor a few levels up), or null
  function recordState(el) {
    const r = recordFrom(up(el), ITEM_DEPTH - 1);
    if (r === null || r.at === null || !holds(r, el)) return r;
    const own = { w: r.w, k: r.k, l: '', at: null, node: r.node };  // its label is the element's own text:
    labelInto(own, el);                                                // the next one
    return own;
  }

  // the record at or above `node`, looking `depth` levels up (node itself: 1). Per capture each node
  // with attributes (or a record's tag) remembers its own record, or null.
  function recordFrom(node, depth) {
    for (; node !== null && depth > 0; node = up(node), depth--) {
      if (!node.hasAttributes() && REC_TAGS[node.localName] === undefined) continue;  // the common wrapper
      let r = run ? run.rec.get(node) : undefined;
      if (r === undefined) {
        const w = recordWord(node);
        r = w === null ? null : { w, k: recordKeys(node), l: '', at: null, node };
        if (r !== null) labelInto(r, null);
        if (run) run.rec.set(node, r);
      }
      if (r !== null) return r;
    }
    return null;
  }

  // Does `el` (inside record r's node) hold the text r's label is? (up from that text to the node: a
  // few steps, where el.contains would walk up to the document)
  function holds(r, el) {
    for (let x = r.at.parentNode; x !== r.node; x = x.parentNode) if (x === el) return true;
    return false;
  }

  function recordKeys(node) {
    let k = '';
    if (!node.hasAttributes()) return k;
    for (const a of node.getAttributeNames()) {
      if (!REC_KEY_SET.has(a)) continue;
      const v = node.getAttribute(a);
      if (v !== '') k += (k ? ', ' : '') + a + ' ' + cut(v);
    }
    return k;
  }

  // its label: its aria-label, else its first text that is not the element's (`el`) own
  function labelInto(r, el) {
    const aria = r.node.getAttribute('aria-label');
    if (aria && aria.trim()) { r.l = cut(aria.replace(/\s+/g, ' ').trim()); return; }
    const root = r.node;
    let n = root.firstChild;
    for (let k = 0; n && k < 200; k++) {
      if (n.nodeType === 3) {
        const v = n.data.trim();
        if (v) {  // in a control or heading (a button's <span>s): its whole text, as its snapshot line names it
          let c = n.parentElement;  // (the closest one inside the record: closest() would look up to the document)
          while (c !== root && !c.matches(NAMED)) c = c.parentElement;
          const named = c !== root && !c.contains(el) ? c : null;
          r.l = cut(named ? (named.getAttribute('aria-label') || named.textContent).replace(/\s+/g, ' ').trim()
            : v.replace(/\s+/g, ' '));
          r.at = n;
          return;
        }
      }
      if (n.firstChild && n.nodeType === 1 && n !== el && !SKIP_TEXT.has(n.localName)) { n = n.firstChild; continue; }
      while (n !== root && !n.nextSibling) n = n.parentNode;
      if (n === root) return;
      n = n.nextSibling;
    }
  }

  // the same record: the same key attributes; without any, the same label
  function sameRecord(a, b) {
    if (a === null || b === null) return a === b;
    if (a.w !== b.w) return false;
    return a.k || b.k ? a.k === b.k : a.l === b.l;
  }

  function recordText(r) {
    const parts = [];
    if (r.l) parts.push(`"${r.l}"`);
    if (r.k) parts.push(parts.length ? `(${r.k})` : r.k);
    return parts.join(' ') || 'without a label';
  }

  function recordPhrase(was, now) {
    if (was === null) return `it is now in a ${now.w} ${recordText(now)}`;
    if (now === null) return `it is no longer in its ${was.w} ${recordText(was)}`;
    if (was.w !== now.w) return `its ${was.w} ${recordText(was)} is now a ${now.w} ${recordText(now)}`;
    return `its ${was.w} changed from ${recordText(was)} to ${recordText(now)}`;
  }

  // Headings: the last one a walk passed (`passHeading`), else the closest before an element in
  // document order (`headingBefore`); the text a capture saw of each.
  let head = null;
  let capUrl = '';     // the document's address at the capture under way
  let lastUrl = null;  // ... and at the last one
  let headNow = new WeakMap();

  function headingText(h) { return cut((h.textContent || '').replace(/\s+/g, ' ').trim()); }

  function passHeading(h) {
    if (Aria.rootOf(h) !== document) return;
    head = h;
    headNow.set(h, headingText(h));
  }

  function seedHeading(el) { head = headingBefore(el); }

  function headText(h) {
    if (h === null) return '';
    const t = headNow.get(h);
    return t === undefined ? headingText(h) : t;
  }

  function headingBefore(el) {
    let x = el;
    for (let r = x.getRootNode(); r !== document && r.host; r = x.getRootNode()) x = r.host;
    const all = document.querySelectorAll(HEADINGS);
    let lo = 0;
    let hi = all.length - 1;
    let at = -1;
    while (lo <= hi) {  // the last heading at or before x (an ancestor counts: it comes first)
      const mid = (lo + hi) >> 1;
      const h = all[mid];
      if (h === x || (h.compareDocumentPosition(x) & Node.DOCUMENT_POSITION_FOLLOWING)) { at = mid; lo = mid + 1; }
      else hi = mid - 1;
    }
    Aria.begin();
    try {
      for (; at >= 0; at--) {
        const h = all[at];
        if (!Aria.isHidden(h) && Aria.role(h) === 'heading' && inScope(h, x)) return h;
      }
    } finally { Aria.end(); }
    return null;
  }

  // A heading inside an article, section, aside, nav or dialog heads that part only: not what follows it
  const SECTIONING = 'article,section,aside,nav,dialog,[role=article],[role=region],[role=dialog]';
  function inScope(h, x) {
    let part = run ? run.part.get(h) : undefined;  // (a capture asks it of the same heading for every ref)
    if (part === undefined) {
      part = h.parentElement && h.parentElement.closest(SECTIONING);
      if (run) run.part.set(h, part);
    }
    if (!part) return true;
    for (let r = x.getRootNode(); r !== document && r.host; r = x.getRootNode()) x = r.host;
    return part.contains(x);
  }

  // the address as a person would compare two: the file and what follows it when the path is the same
  function urlPart(u, other) {
    try {
      const a = new URL(u);
      const b = new URL(other);
      if (a.pathname === b.pathname) return a.pathname.split('/').pop() + a.search + a.hash;
      return a.pathname + a.search + a.hash;
    } catch (err) { return u; }
  }

  // A patch re-walked `el` alone: the refs in its record around it see their record as it is now.
  function around(el) {
    const r = recordState(el);
    if (r === null) return;
    for (const x of r.node.getElementsByTagName('*')) {
      const n = refOf.get(x);
      const e = n === undefined ? undefined : entries.get(n);
      if (e !== undefined && !el.contains(x)) { const h = e.chead; restate(e); e.chead = h; }
    }
  }

  // the document's address changed since the last capture (a patch cannot vouch for the headings)
  function moved() { return lastUrl !== null && lastUrl !== location.href; }

  function lines(sig) {
    const m = new Map();
    for (const line of sig.split('\n')) {
      if (!line) continue;
      const i = line.indexOf('=');
      const k = line.slice(0, i);
      m.set(k.startsWith('item:') ? 'list item\'s ' + k.slice(5) : (k === 'item index' ? 'list item\'s position' : k),
        line.slice(i + 1));
    }
    return m;
  }

  // ---- successors: the same record, rendered anew (a re-render) ------------------------------
  // A successor is named only for the same record: the same key (an attribute that names the record,
  // on the element or its list item -- never a position such as data-index) and the same text in its
  // row (its list item, else its parent). Without a key there is no successor.
  const RECORD_KEY = /^(?:id|key|row-id|data-(?:testid|test-id|test|cy|qa|key|id|row-key|[\w-]+-(?:id|key)))$/;
  const POSITIONAL = new Set(['item index', 'data-index', 'aria-posinset', 'aria-rowindex', 'row-index',
    'data-row-index', 'data-rowindex', 'data-item-index']);

  // (record key lines, identity lines without positions) of an identity signature
  function recordOf(sig) {
    let key = '';
    let stable = '';
    for (const line of sig.split('\n')) {
      if (!line) continue;
      const k = line.slice(line.startsWith('item:') ? 5 : 0, line.indexOf('='));
      if (POSITIONAL.has(k)) continue;
      stable += line + '\n';
      if (RECORD_KEY.test(k)) key += line + '\n';
    }
    return { key, stable };
  }

  // a list item by tag or role; above the element also anything with a key attribute
  function isRow(n, above) {
    if (ITEM_TAGS.has(n.localName)) return true;
    const role = n.getAttribute('role');
    if (role !== null && ITEM_ROLES.has(role)) return true;
    if (above) for (const k of n.getAttributeNames()) if (KEY_SET.has(k)) return true;
    return false;
  }

  // The text of an element's row: the list item it is or sits in (a few levels up), else its parent's.
  // (A key on the element itself does not make it its own row: its row says which record it is.)
  // `parent`: where the last snapshot saw it, for an element since taken out of its parent alone.
  function rowText(el, parent) {
    const up = el.parentElement || parent || null;
    let row = isRow(el, false) ? el : null;
    for (let node = up, d = 1; !row && node && d < ITEM_DEPTH; node = node.parentElement, d++) {
      if (isRow(node, true)) row = node;
    }
    return ((row || up || el).textContent || '').replace(/\s+/g, ' ').trim();
  }

  function collect(tag, deep) {
    const out = [...document.getElementsByTagName(tag)];
    if (!deep) return out;
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
    const roots = [];
    for (let n = walker.currentNode; n; n = walker.nextNode()) if (Aria.shadowOf(n)) roots.push(Aria.shadowOf(n));
    while (roots.length) {
      const root = roots.pop();
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === tag) out.push(el);
        if (Aria.shadowOf(el)) roots.push(Aria.shadowOf(el));
      }
    }
    return out;
  }

  // Elements that are the same record as removed ref n: same role and name (given, as the snapshot
  // showed them), same record key and identity (positions aside), same row text. Each gets a ref
  // (issued here, nothing is acted on); returns [{n, role, name, tier}].
  function successors(n, role, name, tierOf, norm, max) {
    const e = entries.get(n);
    if (e === undefined || e.el.isConnected) return [];
    const was = recordOf(e.sig);
    if (!was.key) return [];
    const text = rowText(e.el, e.parent);
    const out = [];
    for (const el of collect(e.tag, e.inShadow)) {
      if (el === e.el || !el.isConnected) continue;
      if (recordOf(identity(el)).stable !== was.stable || rowText(el) !== text) continue;
      const cur = Aria.role(el);
      if (cur !== role || Aria.isHidden(el)) continue;
      const nm = norm(Aria.name(el, cur).name);
      if (nm !== norm(name)) continue;
      const tier = tierOf(el, cur);
      if (!tier) continue;
      const m = issueShown(el);
      out.push({ n: m, role: cur, name: nm, tier });
      if (out.length >= max) break;
    }
    return out;
  }

  // Forget every ref of this document (reset-refs); numbering restarts unless kept.
  function reset(keepCounter) {
    entries = new Map();
    headNow = new WeakMap();
    refOf = new WeakMap();
    if (keepCounter) floor = counter; else { counter = 0; floor = 0; }
  }

  return { init, begin, end, tiers, issue, issueShown, show, showListed, allShown, showNow, lastShown, get, status, identityChange, successors, reset,
    passHeading, seedHeading, around, moved, get changeKind() { return changeKind; },
    get counter() { return counter; }, get size() { return entries.size; } };
