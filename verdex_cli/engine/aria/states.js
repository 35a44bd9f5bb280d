  // ---------------------------------------------------------------------
  // States and values
  // ---------------------------------------------------------------------

  function ariaBool(el, attr) {
    const v = el.getAttribute(attr);
    return v === null ? null : v.trim().toLowerCase();
  }

  function isNativeDisabled(el) {
    return FORM_CONTROL_TAGS.has(el.localName) && el.namespaceURI === HTML_NS &&
      el.matches(':disabled');
  }

  function statesImpl(el, r) {
    if (!el || el.nodeType !== 1) return {};
    if (r === undefined) r = roleImpl(el);
    const s = {};
    const tag = el.localName;
    const isInput = tag === 'input' && el.namespaceURI === HTML_NS;
    const type = isInput ? el.type : '';

    // checked
    if (isInput && (type === 'checkbox' || type === 'radio') && CHECKABLE_ROLES.has(r)) {
      if (type === 'checkbox' && el.indeterminate) s.checked = 'mixed';
      else if (el.checked) s.checked = true;
    } else if (CHECKABLE_ROLES.has(r)) {
      const v = ariaBool(el, 'aria-checked');
      if (v === 'true') s.checked = true;
      else if (v === 'mixed' && (r === 'checkbox' || r === 'menuitemcheckbox')) s.checked = 'mixed';
    }

    // disabled
    if (isNativeDisabled(el)) {
      s.disabled = true;
    } else {
      if (scanRoot(rootOf(el)).disabled) {
        const d = el.closest('[aria-disabled]');
        if (d && ariaBool(d, 'aria-disabled') === 'true') s.disabled = true;
      }
    }

    // expanded
    const ex = ariaBool(el, 'aria-expanded');
    if (ex === 'true') s.expanded = true;
    else if (ex === 'false') s.expanded = false;
    else if (tag === 'summary' && r === 'button') s.expanded = !!(el.parentElement && el.parentElement.open);
    else if (r === 'combobox' && tag === 'select') s.expanded = false;

    // selected
    if (tag === 'option' && r === 'option') {
      if (el.selected) s.selected = true;
    } else if (SELECTABLE_ROLES.has(r) && ariaBool(el, 'aria-selected') === 'true') {
      s.selected = true;
    }

    // pressed
    if (r === 'button') {
      const p = ariaBool(el, 'aria-pressed');
      if (p === 'true') s.pressed = true;
      else if (p === 'mixed') s.pressed = 'mixed';
    }

    // level
    if (LEVEL_ROLES.has(r)) {
      const al = parseInt(el.getAttribute('aria-level') || '', 10);
      if (al > 0) s.level = al;
      else if (r === 'heading') {
        const m = /^h([1-6])$/.exec(tag);
        s.level = m ? parseInt(m[1], 10) : 2;
      } else if (r === 'treeitem') {
        // Implied level: one more per group between the item and its tree.
        let level = 1;
        for (let n = flatParent(el); n; n = flatParent(n)) {
          const pr = roleImpl(n);
          if (pr === 'tree' || pr === 'treegrid') break;
          if (pr === 'group') level++;
        }
        s.level = level;
      }
    }

    // required
    if ((isInput || tag === 'select' || tag === 'textarea') && el.required) s.required = true;
    else if (ariaBool(el, 'aria-required') === 'true') s.required = true;

    // editable: a contenteditable editing host (or a <textarea> given another role) that is not a
    // text field already (Chrome: focusable, editable)
    if (!TEXTBOX_ROLES.has(r) && r !== 'combobox' && r !== 'spinbutton' &&
        (editingHost(el) || (tag === 'textarea' && el.namespaceURI === HTML_NS))) s.editable = true;

    return s;
  }

  // The element a contenteditable makes an editable, focusable text field (its descendants are part
  // of that field, not fields of their own).
  function editingHost(el) {
    if (!el.hasAttribute('contenteditable') || !el.isContentEditable) return false;
    const p = flatParent(el);
    return !p || !p.isContentEditable;
  }

  function valueImpl(el, r) {
    if (!el || el.nodeType !== 1) return undefined;
    if (r === undefined) r = roleImpl(el);
    const tag = el.localName;
    if (TEXTBOX_ROLES.has(r)) {
      if (tag === 'input' || tag === 'textarea') return el.value;
      if (el.isContentEditable) return el.textContent || '';
      return undefined;
    }
    if (r === 'combobox') {
      if (tag === 'input') return el.value;
      if (tag === 'select') {
        const o = el.selectedOptions[0];
        return o ? collapse(o.text) : '';
      }
      return undefined;
    }
    if (RANGE_ROLES.has(r)) {
      const vt = el.getAttribute('aria-valuetext');
      if (vt !== null) return vt;
      const vn = el.getAttribute('aria-valuenow');
      if (vn !== null) return vn;
      if (tag === 'input' || tag === 'meter') return String(el.value);
      if (tag === 'progress') return el.hasAttribute('value') ? String(el.value) : undefined;
      return undefined;
    }
    return undefined;
  }

  function isFocusableByTabindex(el) {
    if (!el || el.nodeType !== 1) return false;
    const v = tabindexValue(el);
    return v !== null && v >= 0;
  }

  function label(el) {
    if (!el || el.nodeType !== 1) return '<?>';
    const tag = el.localName;
    if (el.id) return '<' + tag + ' id="' + el.id + '">';
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0]
      : (el.getAttribute('class') || '').trim().split(/\s+/)[0];
    if (cls) return '<' + tag + ' class="' + cls + '">';
    return '<' + tag + '>';
  }

  return {
    begin() { if (runDepth++ === 0) run = newRun(); },
    end() { if (runDepth > 0 && --runDepth === 0) run = null; },
    children,
    flatParent,
    shadowOf,
    deepActive,
    closedListen,
    closedWanted,
    closedHost,
    closedLater,
    adoptClosed,
    closedUnread,
    realTarget,
    composedContains,
    // (each checks for a run itself: a shared wrapper would make one call site for all of them)
    isHidden: (n) => (run !== null ? isHiddenImpl(n) : once(isHiddenImpl, n)),
    hidesSubtree: (el) => !!el && el.nodeType === 1 && (run !== null ? hiddenSubtree(el) : once(hiddenSubtree, el)),
    role: (el) => (run !== null ? roleImpl(el) : once(roleImpl, el)),
    name: (el, r) => (run !== null ? nameImpl(el, r) : once(nameImpl, el, r)),
    states: (el, r) => (run !== null ? statesImpl(el, r) : once(statesImpl, el, r)),
    value: (el, r) => (run !== null ? valueImpl(el, r) : once(valueImpl, el, r)),
    isFocusableByTabindex,
    editingHost: (el) => !!el && el.nodeType === 1 && editingHost(el),
    rootOf: (el) => (run !== null ? rootOf(el) : el.getRootNode()),
    hasNameAttr,
    hasMediaControls: (el) => !!el && el.nodeType === 1 && hasMediaControls(el),
    mediaControls: inRun(mediaControlsImpl),
    mapAreas: inRun(mapAreasImpl),
    soleBody,
    label,
    MASK,
    textBox,
  };
