  // ---------------------------------------------------------------------
  // Accessible name (accname 1.2)
  // ---------------------------------------------------------------------

  // Names longer than this are cut (bounds the work for huge subtrees).
  const MAX_NAME_CHARS = 4000;
  const NON_SPACE = /[^ \t\n\r\f\u200b]/;
  function hasText(s) {
    return NON_SPACE.test(s);
  }

  const NEEDS_COLLAPSE = /[\t\n\r\f\u200b]|  |^ | $/;
  function collapse(s) {
    if (!NEEDS_COLLAPSE.test(s)) return s;
    return s.replace(/[ \t\n\r\f\u200b]+/g, ' ').trim();
  }

  function getById(el, id) {
    const root = el.getRootNode();
    if (root && typeof root.getElementById === 'function') return root.getElementById(id);
    return el.ownerDocument ? el.ownerDocument.getElementById(id) : null;
  }

  // Lazily index label -> control for the tree scope of `el`.
  function labelsFor(el) {
    if (!run.labels) {
      run.labels = new Map();
      run.labelRoots = new Set();
    }
    const root = el.getRootNode();
    if (!run.labelRoots.has(root)) {
      run.labelRoots.add(root);
      if (typeof root.querySelectorAll === 'function') {
        const all = root.querySelectorAll('label');
        for (let i = 0; i < all.length; i++) {
          const lab = all[i];
          const control = lab.control;
          if (!control) continue;
          let arr = run.labels.get(control);
          if (!arr) run.labels.set(control, (arr = []));
          arr.push(lab);
        }
      }
    }
    return run.labels.get(el) || null;
  }

  // Reading a pseudo-element's computed style is expensive, and so is reading
  // rarely set properties for every element.  So each tree scope's style
  // sheets are scanned once per run:
  //   pseudo: {any: false} (no rule gives ::before/::after content),
  //           {any: true, selector: 'a,b'} (only elements matching the
  //           selector list can have generated content), or
  //           {any: true, selector: null} (unknown, e.g. a cross-origin sheet)
  //   tt, cv: text-transform / content-visibility may be set somewhere
  //   disabled: the scope has elements with aria-disabled
  const PSEUDO_RE = /::?(before|after)\b/gi;
  // every attribute selector of the queries in scanRoot
  const RARE_ATTRS = '[style*="text-transform" i], [style*="content-visibility" i], [hidden="until-found" i], ' +
    '[aria-disabled], [aria-labeledby], [draggable="true" i], [autofocus], [popover]';

  function scanRoot(root) {
    let f = run.scan.get(root);
    if (f !== undefined) return f;
    const selectors = [];
    let unknown = false;
    let tt = false;
    let cv = false;
    const visit = (rules) => {
      for (let i = 0; i < rules.length && !unknown; i++) {
        const rule = rules[i];
        const sel = rule.selectorText;
        const st = rule.style;
        if (typeof sel === 'string' && st) {
          if (!tt && st.getPropertyValue('text-transform')) tt = true;
          if (!cv && st.getPropertyValue('content-visibility')) cv = true;
          PSEUDO_RE.lastIndex = 0;
          if (PSEUDO_RE.test(sel)) {
            const c = st.getPropertyValue('content');
            if (c && c !== 'none' && c !== 'normal') {
              if (sel.indexOf('&') >= 0 || sel.indexOf(':host') >= 0 ||
                  sel.indexOf('::slotted') >= 0 || sel.indexOf('::part') >= 0) {
                unknown = true;
              } else {
                selectors.push(sel.replace(PSEUDO_RE, '').split(',')
                  .map((x) => x.trim() || '*').join(','));
              }
            }
          }
        }
        if (rule.cssRules && rule.cssRules.length) visit(rule.cssRules);
        else if (rule.styleSheet) {
          try {
            visit(rule.styleSheet.cssRules);
          } catch (e) {
            unknown = true;
          }
        }
      }
    };
    const sheets = [];
    if (root.styleSheets) {
      for (let i = 0; i < root.styleSheets.length; i++) sheets.push(root.styleSheets[i]);
    }
    if (root.adoptedStyleSheets) for (const sh of root.adoptedStyleSheets) sheets.push(sh);
    for (const sh of sheets) {
      if (unknown) break;
      let rules;
      try {
        rules = sh.cssRules;
      } catch (e) {
        unknown = true;
        break;
      }
      if (rules) visit(rules);
    }
    let pseudo;
    if (unknown) pseudo = { any: true, selector: null };
    else if (!selectors.length) pseudo = { any: false, selector: null };
    else {
      const selector = selectors.join(',');
      try {
        document.createDocumentFragment().querySelector(selector);
        pseudo = { any: true, selector };
      } catch (e) {
        pseudo = { any: true, selector: null };
      }
    }
    // each query below looks at every element of the scope: one look first for any of them (the
    // common answer on a big page is "none", then the others are not asked)
    const anyRare = typeof root.querySelector === 'function' && !!root.querySelector(RARE_ATTRS);
    const q = (sel) => anyRare && !!root.querySelector(sel);
    f = {
      pseudo,
      tt: unknown || tt || q('[style*="text-transform" i]'),
      cv: unknown || cv || q('[style*="content-visibility" i], [hidden="until-found" i]'),
      disabled: q('[aria-disabled]'),
      // rarely used attributes, so most elements need not be asked for them
      labeledby: q('[aria-labeledby]'),
      minGroup: q('[draggable]:not([draggable="false" i]), [autofocus], [popover]'),
    };
    run.scan.set(root, f);
    return f;
  }

  function mayHavePseudo(el) {
    const pf = facts(el);
    if (pf.pseudo !== 0) return pf.pseudo === 2;
    let m;
    const f = scanRoot(rootOf(el)).pseudo;
    m = f.any && (f.selector === null || el.matches(f.selector));
    // :host::before rules of the element's own shadow tree style the element.
    if (!m && shadowOf(el)) m = scanRoot(shadowOf(el)).pseudo.any;
    pf.pseudo = m ? 2 : 1;
    return m;
  }

  function pseudoText(el, which) {
    if (!mayHavePseudo(el)) return '';
    const cs = getComputedStyle(el, which);
    const content = cs.content;
    if (!content || content === 'none' || content === 'normal') return '';
    if (cs.display === 'none') return '';
    let s = content;
    // "alternative text" form: content: "x" / "alt"
    let out = '';
    let i = 0;
    let alt = null;
    const parts = [];
    while (i < s.length) {
      const ch = s[i];
      if (ch === '"' || ch === "'") {
        let j = i + 1;
        let buf = '';
        while (j < s.length && s[j] !== ch) {
          if (s[j] === '\\' && j + 1 < s.length) {
            buf += s[j + 1];
            j += 2;
          } else {
            buf += s[j++];
          }
        }
        parts.push(buf);
        i = j + 1;
      } else if (ch === '/') {
        alt = [];
        parts.push(alt);
        i++;
      } else if (s.startsWith('open-quote', i) || s.startsWith('close-quote', i)) {
        const open = s[i] === 'o';
        parts.push(quoteMark(el, open));
        i += open ? 10 : 11;
      } else if (s.startsWith('attr(', i)) {
        const j = s.indexOf(')', i);
        const attrName = s.slice(i + 5, j < 0 ? s.length : j).trim();
        parts.push(el.getAttribute(attrName) || '');
        i = j < 0 ? s.length : j + 1;
      } else if (FUNC_START.test(s.slice(i, i + 40)) && (i === 0 || !/[\w-]/.test(s[i - 1]))) {
        // url(), image-set(), gradients, counter(): an image or a number, no text of its own
        // (its quoted arguments are not text either)
        i = afterCall(s, s.indexOf('(', i));
      } else {
        i++;
      }
    }
    const altIdx = parts.indexOf(alt);
    if (alt !== null) {
      out = parts.slice(altIdx + 1).join('');
      if (out) out = ' ' + out + ' ';
    } else {
      out = parts.join('');
    }
    if (out && cs.textTransform !== 'none') out = transformText(out, cs.textTransform);
    // Generated words are set apart from the element's content by a space
    // (wpt accname comp_name_from_content: "before label"; Chrome joins inline
    // text directly).  Inline marks without letters or digits (quotes, icons,
    // arrows, "*") attach to the text they decorate; block ones never do.
    if (out && (cs.display !== 'inline' || WORDISH.test(out))) out = ' ' + out + ' ';
    return out;
  }

  const FUNC_START = /^[a-z][\w-]*\(/i;

  // The index just past the ")" that closes the call whose "(" is at `open` (quoted strings skipped).
  function afterCall(s, open) {
    let depth = 0;
    for (let i = open; i < s.length; i++) {
      const ch = s[i];
      if (ch === '"' || ch === "'") {
        for (i++; i < s.length && s[i] !== ch; i++) if (s[i] === '\\') i++;
      } else if (ch === '(') {
        depth++;
      } else if (ch === ')' && --depth === 0) {
        return i + 1;
      }
    }
    return s.length;
  }

  // The quotation mark open-quote/close-quote generate (first nesting level).
  function quoteMark(el, open) {
    const q = style(el).cs.quotes;
    const m = q && q !== 'auto' && q !== 'none' ? q.match(/"((?:[^"\\]|\\.)*)"/g) : null;
    if (q === 'none') return '';
    if (m && m.length >= 2) return m[open ? 0 : 1].slice(1, -1);
    return open ? '\u201c' : '\u201d';
  }

  const WORDISH = /[\p{L}\p{N}]/u;

  // ::marker text of a list item (only when the item is part of another
  // element's name, e.g. referenced by aria-labelledby).
  const BULLETS = { disc: '\u2022', circle: '\u25e6', square: '\u25aa' };

  function markerText(li) {
    if (style(li).display !== 'list-item') return '';
    const ms = getComputedStyle(li, '::marker');
    const c = ms.content;
    if (c && c !== 'normal' && c !== 'none') {
      const m = /^"((?:[^"\\]|\\.)*)"/.exec(c);
      return m ? ' ' + m[1].replace(/\\(.)/g, '$1') + ' ' : '';
    }
    if (c === 'none') return '';
    const type = style(li).cs.listStyleType;
    if (BULLETS[type]) return BULLETS[type] + ' ';
    if (type === 'decimal') {
      const list = li.parentElement;
      let n = 1;
      if (list && list.localName === 'ol') {
        const start = parseInt(list.getAttribute('start'), 10);
        if (!isNaN(start)) n = start;
        for (let c2 = list.firstElementChild; c2 && c2 !== li; c2 = c2.nextElementSibling) {
          if (c2.localName === 'li') n++;
        }
      }
      const v = parseInt(li.getAttribute('value'), 10);
      return (isNaN(v) ? n : v) + '. ';
    }
    return '';
  }

  // Chrome separates the text of children that are not inline boxes
  // (including display:contents) with spaces.
  function isBlockish(el) {
    return style(el).display !== 'inline';
  }

  function selectedOptionsText(sel) {
    const out = [];
    if (sel.localName === 'select') {
      const opts = sel.selectedOptions;
      for (let i = 0; i < opts.length; i++) out.push(opts[i].text);
    } else {
      const opts = sel.querySelectorAll('[role="option"][aria-selected="true"]');
      for (let i = 0; i < opts.length; i++) out.push(opts[i].textContent);
    }
    return out.join(' ');
  }

  // Value text of a range widget embedded in another element's name.
  function rangeText(el, r) {
    const vt = el.getAttribute('aria-valuetext');
    if (vt) return vt;
    const vn = el.getAttribute('aria-valuenow');
    if (vn) return vn;
    const tag = el.localName;
    if (tag === 'input' || tag === 'meter') return String(el.value);
    if (tag === 'progress') return el.hasAttribute('value') ? String(el.value) : '';
    if (r === 'slider' || r === 'scrollbar') {
      const min = parseFloat(el.getAttribute('aria-valuemin'));
      const max = parseFloat(el.getAttribute('aria-valuemax'));
      const lo = isNaN(min) ? 0 : min;
      const hi = isNaN(max) ? 100 : max;
      return String(lo + (hi - lo) / 2);
    }
    if (r === 'spinbutton' || r === 'meter') return '0';
    return '';
  }

  // Chrome's layout-table heuristic, simplified: tables without any header or
  // caption markup are presentational and their text joins names.
  function isLayoutTable(table) {
    let v = run.layoutTable.get(table);
    if (v === undefined) {
      v = !table.hasAttribute('role') && !table.hasAttribute('summary') &&
        !table.querySelector('th, caption, thead, tfoot, col, colgroup, [scope], [headers]');
      run.layoutTable.set(table, v);
    }
    return v;
  }

  // Text alternative of `el` (accname 1.2 step 2).
  //   st.root           element whose name is being computed
  //   st.inLabelledBy   inside an aria-labelledby traversal
  //   st.includeHidden  hidden nodes participate (hidden labelledby referent)
  //   st.visited        cycle protection
  //   st.attr           out: the returned text did not come from content
  //                     (Chrome separates such text with spaces)
  //   st.skips          count of cycle cut-offs (results that depend on the
  //                     traversal path and so must not be memoised)
