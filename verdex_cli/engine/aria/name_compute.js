  // What a password field's value shows everywhere (snapshot value, a name it is embedded in): one
  // fixed mask, whatever the length (the README's six dots; fields.py MASK says the same).
  const MASK = '\u2022\u2022\u2022\u2022\u2022\u2022';

  function textAlternative(el, st, isRoot) {
    st.attr = false;
    if (st.visited.has(el)) {
      st.skips++;  // the result now depends on the traversal: don't memoise
      return '';
    }
    st.visited.add(el);
    if (!isRoot && !st.includeHidden && isHiddenImpl(el)) return '';
    // Text of a descendant in a plain content traversal does not depend on
    // which element is being named: memoise it so nested structures (layout
    // tables, rows of cells) are traversed once per run.
    // (Not inside a <label>: there the labelled control itself is skipped.)
    const plain = !isRoot && !st.inLabelledBy && !st.includeHidden && !st.inLabel;
    if (plain) {
      const m = facts(el);
      if (m.text !== null) {
        st.attr = m.textAttr;
        return m.text;
      }
    }
    const r = roleImpl(el);
    const skips = st.skips;
    let text = textAlternativeSteps(el, st, isRoot, r);
    if (!isRoot && REPLACED_TAGS.has(el.localName)) st.attr = true;
    if (text.length > MAX_NAME_CHARS) text = text.slice(0, MAX_NAME_CHARS);
    if (plain && st.skips === skips) {
      const m = facts(el);
      m.text = text;
      m.textAttr = st.attr;
    }
    return text;
  }

  // accname 2B-2I for one element (2A, hidden, is textAlternative's): each step answers a name, or
  // null to let the next one try. A step that answers sets st.attr (the name came from an attribute).
  function textAlternativeSteps(el, st, isRoot, r) {
    let t;
    if (!isRoot && (t = embeddedControl(el, r)) !== null) return attrName(st, t);
    if (!st.inLabelledBy && (t = labelledBy(el, st, isRoot)) !== null) return attrName(st, t);
    if ((t = ariaLabel(el)) !== null) return attrName(st, t);
    const prohibited = NAME_PROHIBITED.has(r);
    // Chrome still names focusable elements whose role prohibits naming from
    // native attributes and title (never from content).
    if (isRoot && prohibited && !isFocusable(el)) return prohibitedName(el, st);
    if ((t = hostLanguageName(el, r, st)) !== null) return attrName(st, t);
    const content = nameFromContent(el, st, isRoot, r);
    if (content !== null && hasText(content)) {
      if (isRoot) st.fromContent = true;
      st.attr = false;
      return content;
    }
    if ((isRoot || !prohibited) && (t = tooltip(el)) !== null) return attrName(st, t);
    const dialog = isRoot && (r === 'dialog' || r === 'alertdialog');
    if (dialog && (t = dialogHeading(el, st)) !== null) return attrName(st, t);
    if ((t = placeholder(el, r)) !== null) return attrName(st, t);
    st.attr = false;
    // white space only (<span> </span> between two words): still a word boundary, as in Chrome
    return !isRoot && content ? ' ' : '';
  }

  function attrName(st, text) {
    st.attr = true;
    return text;
  }

  // 2C: embedded control (only when naming something else).  Chrome lets a
  // non-empty value win even over aria-labelledby; an empty one falls
  // through to the control's own name (aria-label, title, placeholder).
  function embeddedControl(el, r) {
    let v = null;
    if (TEXTBOX_ROLES.has(r)) {
      v = el.localName === 'input' || el.localName === 'textarea' ? el.value
        : el.textContent || '';
      if (v && el.localName === 'input' && el.type === 'password') v = MASK;  // never the length
    } else if (r === 'combobox' || r === 'listbox') {
      v = el.localName === 'input' ? el.value : selectedOptionsText(el);
    } else if (RANGE_ROLES.has(r)) {
      v = rangeText(el, r);
    }
    return v !== null && hasText(v) ? v : null;
  }

  // 2B: aria-labelledby (not followed again inside a labelledby traversal)
  function labelledBy(el, st, isRoot) {
    const ids = labelledbyAttr(el);
    if (!ids || !ids.trim()) return null;
    const parts = [];
    for (const id of ids.trim().split(/\s+/)) {
      const ref = getById(el, id);
      if (!ref) continue;
      const sub = {
        root: st.root,
        inLabelledBy: true,
        includeHidden: st.includeHidden || isHiddenImpl(ref),
        visited: new Set(isRoot ? [] : st.visited),
        fromContent: false,
        attr: false,
        skips: 0,
      };
      if (!isRoot) sub.visited.delete(el);
      parts.push(textAlternative(ref, sub, false));
      st.skips += sub.skips;
    }
    return collapse(parts.join(' ')) || null;
  }

  // 2D: aria-label
  // (a <slot> is never rendered itself, so its aria-label names nothing: html-aam maps no role)
  function ariaLabel(el) {
    const al = el.localName === 'slot' ? null : el.getAttribute('aria-label');
    return al && al.trim() ? al : null;
  }

  // A root whose role prohibits naming: text-level elements (abbr, s, sub...) still take their tooltip.
  function prohibitedName(el, st) {
    const title = TEXT_LEVEL_TAGS.has(el.localName) ? el.getAttribute('title') : null;
    return title && title.trim() ? attrName(st, title) : '';
  }

  // 2E: host language label.  For an image an empty alt is final.
  function hostLanguageName(el, r, st) {
    if (el.localName === 'img' && el.namespaceURI === HTML_NS && el.hasAttribute('alt')) {
      const alt = el.getAttribute('alt');
      if (alt || r === 'img' || r === 'none') return alt;
    }
    st.labelFinal = false;
    const nat = nativeName(el, r, st);
    if (nat || st.labelFinal) {
      st.labelFinal = false;
      return nat;
    }
    return null;
  }

  // 2F: name from content: its text (maybe blank), or null when the element is not named from
  // content.  (Inside an aria-labelledby traversal every descendant counts; a <select>'s options
  // or a <textarea>'s text are never content.)
  function nameFromContent(el, st, isRoot, r) {
    if (el.localName === 'select' || el.localName === 'textarea' || el.localName === 'input') return null;
    if (!(isRoot ? rootNameFromContent(el, r) : st.inLabelledBy || !noRecurse(el, r))) return null;
    return contentText(el, st);
  }

  // 2I: tooltip (not for descendants whose role prohibits naming)
  function tooltip(el) {
    const title = el.getAttribute('title');
    return title && title.trim() ? title : null;
  }

  // Dialogs without a name take the name of their first heading.
  function dialogHeading(el, st) {
    const h = firstHeading(el);
    if (!h) return null;
    return collapse(contentText(h, st)) || null;
  }

  function placeholder(el, r) {
    let ph = null;
    if (el.localName === 'textarea' ||
        (el.localName === 'input' && PLACEHOLDER_TYPES.has(el.type))) {
      ph = el.getAttribute('placeholder');
    }
    if (!ph && (TEXTBOX_ROLES.has(r) || r === 'combobox')) ph = el.getAttribute('aria-placeholder');
    return ph && ph.trim() ? ph : null;
  }

  function firstHeading(el) {
    const hs = el.querySelectorAll('h1, h2, h3, h4, h5, h6, [role~="heading"]');
    for (let i = 0; i < hs.length && i < 20; i++) {
      if (roleImpl(hs[i]) === 'heading' && !isHiddenImpl(hs[i])) return hs[i];
    }
    return null;
  }

  function rootNameFromContent(el, r) {
    if (!NAME_FROM_CONTENT.has(r)) return false;
    // html-aam: text-level elements (<dfn>) are named by author attributes
    // and title only, never by their content.
    if (TEXT_LEVEL_TAGS.has(el.localName) && !el.hasAttribute('role')) return false;
    if (r !== 'row') return true;
    // Chrome names rows from content only inside grids and treegrids.
    for (let n = flatParent(el); n; n = flatParent(n)) {
      const pr = roleImpl(n);
      if (pr === 'grid' || pr === 'treegrid') return true;
      if (pr === 'table') return false;
    }
    return false;
  }

  function noRecurse(el, r) {
    if (!NO_RECURSE_ROLES.has(r)) return false;
    if (el.namespaceURI !== HTML_NS || el.hasAttribute('role')) return true;
    const tag = el.localName;
    if (tag === 'table') return !isLayoutTable(el);
    if (tag === 'tr' || tag === 'tbody' || tag === 'thead' || tag === 'tfoot') {
      const t = tableOf(el);
      return !(t && isLayoutTable(t));
    }
    return true;
  }

  function labelText(el, st) {
    const labs = labelsFor(el);
    if (!labs) return '';
    const parts = [];
    // A hidden label still names its control (accname 2A: content a host-language label refers
    // to directly counts even when hidden), but only when no label is shown: a form repeated in
    // hidden tab panels with the same ids points all its labels at the first copy's controls,
    // and Chrome, like a reader, names each by the label one can see.
    const hidden = labs.map((lab) => isHiddenImpl(lab));
    const anyShown = hidden.includes(false);
    for (let i = 0; i < labs.length; i++) {
      if (anyShown && hidden[i]) continue;
      const lab = labs[i];
      const sub = {
        root: st.root, inLabelledBy: st.inLabelledBy,
        includeHidden: st.includeHidden || hidden[i],
        visited: st.visited, fromContent: false, attr: false, skips: 0, inLabel: true,
      };
      parts.push(textAlternative(lab, sub, false));
      st.skips += sub.skips;
    }
    return collapse(parts.join(' '));
  }

  // Text-entry controls: once a <label> is associated, its text is the name,
  // even when empty (Chrome then ignores title and placeholder).
  function finalLabelText(el, st) {
    if (!labelsFor(el)) return '';
    st.labelFinal = true;
    return labelText(el, st);
  }

  function nativeName(el, r, st) {
    if (el.namespaceURI !== HTML_NS) {
      if (el.localName === 'svg') return svgTitle(el);
      return '';
    }
    const tag = el.localName;
    switch (tag) {
      case 'input': {
        const type = (el.getAttribute('type') || 'text').trim().toLowerCase();
        if (type === 'button' || type === 'submit' || type === 'reset') {
          const lt = labelText(el, st);
          if (lt) return lt;
          const v = el.getAttribute('value');
          if (v) return v;
          if (type === 'submit') return 'Submit';
          if (type === 'reset') return 'Reset';
          return '';
        }
        if (type === 'image') {
          const lt = labelText(el, st);
          if (lt) return lt;
          const alt = el.getAttribute('alt');
          if (alt) return alt;
          const v = el.getAttribute('value');
          if (v) return v;
          const t = el.getAttribute('title');
          if (t) return t;
          return 'Submit';
        }
        return finalLabelText(el, st);
      }
      case 'select':
      case 'textarea':
        return finalLabelText(el, st);
      case 'button':
      case 'meter':
      case 'output':
      case 'progress':
        return labelText(el, st);
      case 'img':
      case 'area':
        return el.getAttribute('alt') || '';
      case 'fieldset':
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          if (c.localName === 'legend') return collapse(contentText(c, st));
        }
        return '';
      case 'table':
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          if (c.localName === 'caption') return collapse(contentText(c, st));
        }
        return '';
      case 'figure': {
        const first = el.firstElementChild;
        const last = el.lastElementChild;
        const cap = first && first.localName === 'figcaption' ? first
          : last && last.localName === 'figcaption' ? last : null;
        return cap ? collapse(contentText(cap, st)) : '';
      }
      case 'optgroup':
        return el.getAttribute('label') || '';
      case 'option': {
        const l = el.getAttribute('label');
        return l || '';
      }
    }
    return '';
  }

  function transformText(text, tt) {
    if (tt === 'uppercase') return text.toUpperCase();
    if (tt === 'lowercase') return text.toLowerCase();
    if (tt === 'capitalize') return text.replace(/(^|\s)(\S)/g, (m, a, b) => a + b.toUpperCase());
    return text;
  }

  function contentText(el, st) {
    // An element hidden only by visibility contributes no text of its own, but
    // its visible descendants still count.
    // guard (verdex identity): below 250 nested levels the subtree's text is read flat, not recursed
    if ((st.depth = (st.depth || 0) + 1) > 250) { st.depth--; return el.textContent; }
    const ownTextHidden = !st.includeHidden && el !== st.root && isHiddenImpl(el);
    let out = ownTextHidden ? '' : pseudoText(el, '::before');
    // A list item's marker joins names only through aria-labelledby (accname
    // ::marker, tentative; Chrome leaves markers out of names).
    if (st.inLabelledBy && !ownTextHidden && el.localName === 'li') out = markerText(el) + out;
    const kids = children(el);
    const tt = isSelectOption(el) ? 'none' : textTransformOf(el);
    for (let i = 0; i < kids.length && out.length <= MAX_NAME_CHARS; i++) {
      const c = kids[i];
      if (c.nodeType === 3) {
        if (!ownTextHidden) out += tt === 'none' ? c.data : transformText(c.data, tt);
        continue;
      }
      if (NEVER_RENDERED.has(c.localName)) continue;
      if (!st.includeHidden && isHiddenImpl(c)) {
        if (!hiddenSubtree(c)) {
          const t = contentText(c, st);
          out += isBlockish(c) ? ' ' + t + ' ' : t;
        }
        continue;
      }
      if (c.localName === 'br') {
        out += ' ';
        continue;
      }
      const t = textAlternative(c, st, false);
      if (st.attr || isBlockish(c)) out += ' ' + t + ' ';
      else out += t;
    }
    if (!ownTextHidden) out += pseudoText(el, '::after');
    st.depth--;
    return out;
  }

  function nameImpl(el, r) {
    if (!el || el.nodeType !== 1) return { name: '', fromContent: false };
    const f = facts(el);
    let res = f.name;
    if (res !== null) return res;
    if (r === undefined) r = roleImpl(el);
    // Fast path: most elements (generic, paragraph...) cannot have a name.
    if (NAME_PROHIBITED.has(r) && !hasNameAttr(el) && !isFocusable(el)) {
      res = { name: '', fromContent: false };
      f.name = res;
      return res;
    }
    res = quickName(el);
    if (res === null) {
      const st = {
        root: el, inLabelledBy: false, includeHidden: false, visited: new Set(), fromContent: false,
        attr: false, skips: 0,
      };
      const n = collapse(textAlternative(el, st, true) || '');
      res = { name: n, fromContent: st.fromContent && n !== '' };
    }
    f.name = res;
    return res;
  }

  // Tags whose name textAlternativeSteps may take from elsewhere than aria-label or content (2C-2E,
  // nativeName, a <slot>'s aria-label): quickName leaves them to it (a <button>: when it has no label).
  const QUICK_NOT = new Set(['input', 'select', 'textarea', 'meter', 'output', 'progress', 'img', 'area',
    'fieldset', 'table', 'figure', 'optgroup', 'option', 'slot']);

  // The root name of the common cases, exactly as textAlternative(el, st, true) then nameImpl would
  // give it, without their set-up: an aria-label (no aria-labelledby), or the content of an element
  // whose role takes its name from content and that has no other source of a name. null: not one of
  // those (or no text found): the whole computation answers.
  function quickName(el) {
    const ids = labelledbyAttr(el);
    if (ids && ids.trim()) return null;
    const tag = el.localName;
    if (tag === 'slot') return null;
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) {
      return { name: collapse(al.length > MAX_NAME_CHARS ? al.slice(0, MAX_NAME_CHARS) : al), fromContent: false };
    }
    if (el.namespaceURI !== HTML_NS || QUICK_NOT.has(tag)) return null;
    const r = roleImpl(el);
    if (NAME_PROHIBITED.has(r) || !rootNameFromContent(el, r)) return null;
    if (tag === 'button' && labelsFor(el)) return null;
    let text;
    if (el.firstElementChild === null && shadowOf(el) === null) {  // text only (contentText's loop)
      text = pseudoText(el, '::before');
      const tt = isSelectOption(el) ? 'none' : textTransformOf(el);
      for (let c = el.firstChild; c !== null && text.length <= MAX_NAME_CHARS; c = c.nextSibling) {
        if (c.nodeType === 3) text += tt === 'none' ? c.data : transformText(c.data, tt);
      }
      text += pseudoText(el, '::after');
    } else {
      const st = {
        root: el, inLabelledBy: false, includeHidden: false, visited: new Set(), fromContent: false,
        attr: false, skips: 0,
      };
      st.visited.add(el);
      text = contentText(el, st);
    }
    if (!hasText(text)) return null;
    if (text.length > MAX_NAME_CHARS) text = text.slice(0, MAX_NAME_CHARS);
    const n = collapse(text);
    return { name: n, fromContent: n !== '' };
  }

