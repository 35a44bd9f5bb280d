  // ---------------------------------------------------------------------
  // Roles
  // ---------------------------------------------------------------------

  function hasGlobalAria(el) {
    for (let i = 0; i < GLOBAL_ARIA.length; i++) {
      if (el.hasAttribute(GLOBAL_ARIA[i])) return true;
    }
    return false;
  }

  function tabindexValue(el) {
    const t = el.getAttribute('tabindex');
    if (t === null) return null;
    const m = /^\s*([-+]?\d+)/.exec(t);
    return m ? parseInt(m[1], 10) : null;
  }

  function isFocusable(el) {
    if (tabindexValue(el) !== null) return true;
    const tag = el.localName;
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href');
      case 'button':
      case 'select':
      case 'textarea':
        return !el.disabled;
      case 'input':
        return el.type !== 'hidden' && !el.disabled;
      case 'iframe':
      case 'frame':
        return true;
      case 'summary': {
        const p = el.parentElement;
        return !!p && p.localName === 'details' && firstSummaryChild(p) === el;
      }
      case 'audio':
      case 'video':
        return el.hasAttribute('controls');
    }
    return el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable);
  }

  function explicitRole(el) {
    const attr = el.getAttribute('role');
    if (!attr) return null;
    const tokens = attr.trim().toLowerCase().split(/\s+/);
    for (const t of tokens) {
      if (VALID_ROLES.has(t)) return t === 'image' ? 'img' : t;
    }
    return null;
  }

  // aria-labelledby, or the common misspelling aria-labeledby when the
  // standard attribute is absent (browsers honour both).
  function labelledbyAttr(el) {
    const v = el.getAttribute('aria-labelledby');
    if (v !== null || !scanRoot(rootOf(el)).labeledby) return v;
    return el.getAttribute('aria-labeledby');
  }

  // Can `el` carry an author name although its role is generic or prohibits
  // naming?  (aria-label / aria-labelledby; title on text-level elements.)
  function hasNameAttr(el) {
    return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ||
      (TEXT_LEVEL_TAGS.has(el.localName) && el.hasAttribute('title')) ||
      (scanRoot(rootOf(el)).labeledby && el.hasAttribute('aria-labeledby'));
  }

  function hasAccessibleNameAttr(el) {
    const l = el.getAttribute('aria-label');
    if (l && l.trim()) return true;
    // aria-labelledby names only through a referenced element with some text (accname 2B)
    const lb = labelledbyAttr(el);
    if (lb && lb.trim().split(/\s+/).some((id) => {
      const ref = getById(el, id);
      return !!ref && !!((ref.textContent || '').trim() || (ref.getAttribute('aria-label') || '').trim());
    })) return true;
    const t = el.getAttribute('title');
    return !!(t && t.trim());
  }

  function closestAcrossShadow(el, pred) {
    let n = flatParent(el);
    while (n) {
      if (pred(n)) return n;
      n = flatParent(n);
    }
    return null;
  }

  function roleImpl(el) {
    if (!el || el.nodeType !== 1) return null;
    const f = facts(el);
    let r = f.role;
    if (r === undefined) f.role = r = computeRole(el);
    return r;
  }

  function computeRole(el) {
    const tag = el.localName;
    if (tag === 'html' || tag === 'body') return null;
    if (isModalAncestor(el)) return 'none';
    const explicit = explicitRole(el);
    if (explicit) {
      if (explicit === 'none' || explicit === 'presentation') {
        if (!isFocusable(el) && !hasGlobalAria(el)) return minimumRole(el, 'none');
        // Presentational role conflict: fall back to the implicit role.
      } else if (explicit === 'region' || explicit === 'form') {
        // Unnamed regions and forms are not landmarks (Chrome: generic); the next
        // role token applies instead, if any (wai-aria 1.3 8.1, role fallback).
        if (hasAccessibleNameAttr(el)) return explicit;
        const later = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/);
        const alt = later.slice(later.indexOf(explicit) + 1).find((t) => VALID_ROLES.has(t) &&
          t !== 'region' && t !== 'form' && t !== 'none' && t !== 'presentation' &&
          !REQUIRED_CONTEXT[t] && !NATIVE_FALLBACK_CONTEXT[t]);
        if (alt) return alt === 'image' ? 'img' : alt;
      } else if (REQUIRED_CONTEXT[explicit]) {
        // Chrome drops option/treeitem/listitem outside their container.
        if (REQUIRED_CONTEXT[explicit].has(contextRole(el))) return explicit;
      } else if (NATIVE_FALLBACK_CONTEXT[explicit]) {
        // Outside its required context the role token is ignored (core-aam
        // computed role): <button role=tab> stays a button, <span role=cell>
        // is generic.  Chrome keeps the ARIA role here.
        if (NATIVE_FALLBACK_CONTEXT[explicit].has(contextRole(el, true))) return explicit;
        // (a caption keeps its role on a generic element: wpt wai-aria/role roles)
        if (explicit === 'caption' && implicitRole(el, tag) === 'generic') return explicit;
      } else if (explicit === 'generic') {
        return minimumRole(el, explicit);
      } else {
        return explicit;
      }
    }
    return implicitRole(el, tag);
  }

  // Role of the nearest flat-tree ancestor that is not generic/none.  An
  // ancestor that lost its own context role (an orphan rowgroup or row) still
  // gives its children their context.  `overLists`: a native list wrapper
  // (<div role=tablist><ul><li><button role=tab>) is passed over, as Chrome does.
  function contextRole(el, overLists) {
    for (let n = flatParent(el); n; n = flatParent(n)) {
      const r = roleImpl(n);
      if (overLists && (r === 'list' || r === 'listitem') && !n.hasAttribute('role')) continue;
      if (r !== 'generic' && r !== 'none' && r !== null) return r;
      if (r === 'generic' && n.hasAttribute('role')) {
        const x = explicitRole(n);
        if (x && NATIVE_FALLBACK_CONTEXT[x]) return x;
      }
      if (n.localName === 'body') return null;
    }
    return null;
  }

  function hasDatalist(input) {
    const id = input.getAttribute('list');
    if (!id) return false;
    const dl = getById(input, id);
    return !!dl && dl.localName === 'datalist';
  }

  function implicitRole(el, tag) {
    if (el.namespaceURI !== HTML_NS) {
      if (tag === 'svg' && el.namespaceURI === 'http://www.w3.org/2000/svg') {
        return svgTitle(el) || hasAccessibleNameAttr(el) || isFocusable(el) ? 'img' : 'generic';
      }
      if (tag === 'math') return 'math';
      if (tag === 'a' && (el.hasAttribute('href') || el.hasAttribute('xlink:href'))) return 'link';
      return 'generic';
    }
    // Owned elements of a presentational list/table become presentational.
    if (TABLE_PART_TAGS.has(tag)) {
      // Parts of a table that is not exposed as a table (presentational, or
      // given another role) lose their table semantics.
      const table = tableOf(el);
      const tr = table ? roleImpl(table) : 'table';
      if (tr !== 'table' && tr !== 'grid' && tr !== 'treegrid') {
        return tag === 'td' || tag === 'th' || isFocusable(el) ? 'generic' : 'none';
      }
    } else if (tag === 'li' || tag === 'dt' || tag === 'dd') {
      const p = el.parentElement;
      if (p && (p.localName === 'ul' || p.localName === 'ol' || p.localName === 'menu' ||
                p.localName === 'dir' || p.localName === 'dl') && roleImpl(p) === 'none') return 'none';
      // html-aam: an <li> outside a list (ul/ol/menu, or a list role) is generic;
      // a list element given another role (<ul role=tablist>) is no list either.
      if (tag === 'li' && p && !shadowOf(p) && !REQUIRED_CONTEXT.listitem.has(contextRole(el)) &&
          !ownedByList(el)) return 'generic';
    }
    const r = nativeRole(el, tag);
    return r === 'generic' ? minimumRole(el, r) : r;
  }

  // html-aam minimum role: a generic (or role=none) element that is draggable,
  // autofocus or a popover is exposed as a group (Chrome: for implicit generics).
  function minimumRole(el, r) {
    if ((r === 'generic' || r === 'none') && scanRoot(rootOf(el)).minGroup &&
        (((el.getAttribute('draggable') ?? 'false').toLowerCase() !== 'false') ||
         el.hasAttribute('autofocus') || el.hasAttribute('popover'))) return 'group';
    return r;
  }

  // (asked only for an <li> outside a list, which is rare)
  function ownedByList(el) {
    if (!el.id) return false;
    const owner = rootOf(el).querySelector('[aria-owns~="' + CSS.escape(el.id) + '"]');
    return !!owner && REQUIRED_CONTEXT.listitem.has(roleImpl(owner));
  }

  // An <a> without href that the page made clickable: Chrome exposes it as a link when it has a
  // click listener. An isolated world sees an onclick attribute but not addEventListener; for
  // those, the anchor's own pointer cursor (set on it, not inherited from a clickable ancestor) is
  // the sign scripts give such toggles (mdBook's chapter chevrons, "read more" anchors). Without
  // either, an <a name> target stays generic (html-aam). (An <area> without href stays out, as in
  // Chrome; wpt's area-role-tentative would make one with onclick a link.)
  function clickableAnchor(el) {
    if (el.hasAttribute('onclick')) return true;
    if (style(el).cs.cursor !== 'pointer') return false;
    const p = flatParent(el);
    return !p || style(p).cs.cursor !== 'pointer';
  }

  function nativeRole(el, tag) {
    switch (tag) {
      case 'a':
        return el.hasAttribute('href') || clickableAnchor(el) ? 'link' : 'generic';
      case 'area':
        return el.hasAttribute('href') ? 'link' : 'generic';
      case 'input': {
        const type = (el.getAttribute('type') || 'text').trim().toLowerCase();
        if (Object.prototype.hasOwnProperty.call(INPUT_ROLES, type)) {
          const r = INPUT_ROLES[type];
          if (type === 'search' && hasDatalist(el)) return 'combobox';
          // html-aam: <input type=checkbox switch> is a switch
          if (type === 'checkbox' && el.hasAttribute('switch')) return 'switch';
          return r;
        }
        // text, email, tel, url and unknown types
        return hasDatalist(el) ? 'combobox' : 'textbox';
      }
      case 'select':
        return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'img': {
        const alt = el.getAttribute('alt');
        if (alt !== null && alt === '' && !isFocusable(el) && !hasGlobalAria(el) &&
            !el.hasAttribute('title')) return 'none';
        return 'img';
      }
      case 'header':
      case 'footer': {
        const scoped = closestAcrossShadow(el, (n) => SECTIONING_TAGS.has(n.localName) ||
          SECTIONING_ROLES.has(explicitRole(n)));
        // Scoped to sectioning content: ARIA 1.3 sectionheader/sectionfooter.
        if (scoped) return tag === 'header' ? 'sectionheader' : 'sectionfooter';
        return tag === 'header' ? 'banner' : 'contentinfo';
      }
      case 'aside': {
        const scoped = closestAcrossShadow(el, (n) => SECTIONING_TAGS.has(n.localName) &&
          n.localName !== 'main');
        if (scoped && !hasAccessibleNameAttr(el)) return 'generic';
        return 'complementary';
      }
      case 'section':
        return hasAccessibleNameAttr(el) ? 'region' : 'generic';
      case 'form':
        return hasAccessibleNameAttr(el) ? 'form' : 'generic';
      case 'td': {
        const table = tableOf(el);
        const tr = table ? roleImpl(table) : null;
        return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : 'cell';
      }
      case 'th':
        return headerCellRole(el);
      case 'summary': {
        const p = el.parentElement;
        return p && p.localName === 'details' && firstSummaryChild(p) === el ? 'button' : 'generic';
      }
    }
    const r = SIMPLE_TAG_ROLES[tag];
    return r === undefined ? 'generic' : r;
  }

  function headerCellRole(el) {
    const scope = (el.getAttribute('scope') || '').trim().toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    const row = el.parentElement;
    if (!row) return 'columnheader';
    const section = row.parentElement;
    if (section && section.localName === 'thead') return 'columnheader';
    for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'td') return 'rowheader';
    }
    return 'columnheader';
  }

  function svgTitle(el) {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'title') return c.textContent || '';
    }
    return '';
  }

