// aria.js -- role, accessible name, state and visibility computation for
// verdex-cli snapshots.
//
// This file is concatenated (by Python) into a single IIFE together with the
// DOM walker and evaluated in a Chrome isolated world of every frame.  It must
// declare exactly one top-level binding (`Aria`) and have no side effects at
// load time.
//
// The rules follow WAI-ARIA 1.2, HTML-AAM and accname 1.2, tuned to agree with
// what Chromium's own accessibility engine reports (see
// tests/test_ax_agreement.py, which compares against Accessibility.getFullAXTree).
//
// All caches live for one snapshot run: Aria.begin() ... Aria.end().  Calls made
// outside a run work too, they just do not share caches between calls.  Do not
// mutate the DOM between begin() and end().
//
// API
//   Aria.begin() / Aria.end()       start / finish one snapshot run (caches)
//   Aria.children(node)             flat-tree children (open shadow roots,
//                                   slot assignment/fallback), elements and
//                                   text nodes only
//   Aria.isHidden(node)             excluded from the accessibility tree
//                                   (elements and text nodes)
//   Aria.hidesSubtree(el)           isHidden(el) and all descendants hidden too
//                                   (false for visibility:hidden, whose
//                                   descendants may be visible again).  Inert
//                                   ancestors of an open modal <dialog> are
//                                   not hidden but get role 'none'.
//   Aria.role(el)                   ARIA role string, or null (html, body,
//                                   <input type=hidden>)
//   Aria.name(el, role?)            {name, fromContent}
//   Aria.states(el, role?)          {checked, disabled, expanded, selected,
//                                   pressed, level, required} (applicable keys)
//   Aria.value(el, role?)           current value string, or undefined
//   Aria.isFocusableByTabindex(el)  tabindex attribute parses to an int >= 0
//   Aria.label(el)                  debug label: <tag id="x">, <tag class="y">
const Aria = (() => {
  'use strict';

  // ---------------------------------------------------------------------
  // Static tables
  // ---------------------------------------------------------------------

  const VALID_ROLES = new Set((
    'alert alertdialog application article banner blockquote button caption cell ' +
    'checkbox code columnheader combobox comment complementary contentinfo definition ' +
    'deletion dialog directory document emphasis feed figure form generic grid gridcell ' +
    'group heading img image insertion link list listbox listitem log main mark marquee ' +
    'math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note ' +
    'option paragraph presentation progressbar radio radiogroup region row rowgroup ' +
    'rowheader scrollbar search searchbox sectionfooter sectionheader separator slider ' +
    'spinbutton status strong subscript suggestion superscript switch tab table tablist ' +
    'tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem ' +
    'graphics-document graphics-object graphics-symbol ' +
    'doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink ' +
    'doc-biblioentry doc-bibliography doc-biblioref doc-chapter doc-colophon ' +
    'doc-conclusion doc-cover doc-credit doc-credits doc-dedication doc-endnote ' +
    'doc-endnotes doc-epigraph doc-epilogue doc-errata doc-example doc-footnote ' +
    'doc-foreword doc-glossary doc-glossref doc-index doc-introduction doc-noteref ' +
    'doc-notice doc-pagebreak doc-pagefooter doc-pageheader doc-pagelist doc-part ' +
    'doc-preface doc-prologue doc-pullquote doc-qna doc-subtitle doc-tip doc-toc'
  ).split(' '));

  // Global states/properties: an element carrying any of these keeps its role
  // even when it says role="presentation"/"none" (ARIA presentational conflict).
  const GLOBAL_ARIA = [
    'aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby',
    'aria-details', 'aria-dropeffect', 'aria-flowto', 'aria-grabbed', 'aria-keyshortcuts',
    'aria-label', 'aria-labelledby', 'aria-live', 'aria-owns', 'aria-relevant',
    'aria-roledescription', 'aria-disabled', 'aria-errormessage', 'aria-haspopup',
    'aria-invalid', 'aria-braillelabel', 'aria-brailleroledescription', 'aria-description',
  ];

  // Elements that never render content.
  const NEVER_RENDERED = new Set([
    'script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link', 'base',
    'datalist', 'param', 'source', 'track',
  ]);

  // Roles whose accessible name may come from their content (for the element
  // being named itself; during recursion every element contributes content).
  const NAME_FROM_CONTENT = new Set([
    'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row',
    'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'term', 'comment',
    'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref', 'sectionheader',
    'sectionfooter', 'math',
  ]);

  // Roles for which author naming is prohibited by ARIA; Chrome still honours
  // aria-label/aria-labelledby on them, but no native/content/tooltip name.
  const NAME_PROHIBITED = new Set([
    'caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion', 'none',
    'paragraph', 'presentation', 'strong', 'subscript', 'superscript', 'mark',
    'suggestion', 'time',
  ]);

  // Replaced elements: their text is always separated by spaces.
  const REPLACED_TAGS = new Set([
    'img', 'input', 'select', 'textarea', 'svg', 'video', 'audio', 'canvas', 'iframe',
    'object', 'embed', 'meter', 'progress',
  ]);
  const PLACEHOLDER_TYPES = new Set([
    'text', 'search', 'url', 'tel', 'email', 'password', 'number',
  ]);
  const TEXTBOX_ROLES = new Set(['textbox', 'searchbox']);
  const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);
  const CHECKABLE_ROLES = new Set([
    'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem',
  ]);
  const SELECTABLE_ROLES = new Set(['option', 'tab', 'gridcell', 'row', 'treeitem',
    'columnheader', 'rowheader']);
  const LEVEL_ROLES = new Set(['heading', 'treeitem', 'row', 'listitem', 'comment']);
  const FORM_CONTROL_TAGS = new Set([
    'button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset',
  ]);
  const REQUIRED_CONTEXT = {
    option: new Set(['listbox', 'group']),
    treeitem: new Set(['tree', 'group']),
    listitem: new Set(['list', 'group', 'directory']),
  };
  // In name-from-content recursion Chrome does not descend into these roles
  // (their aria-label etc. still count).
  const NO_RECURSE_ROLES = new Set([
    'alert', 'alertdialog', 'application', 'article', 'banner', 'complementary',
    'contentinfo', 'dialog', 'document', 'feed', 'figure', 'grid', 'group', 'img', 'listbox',
    'log', 'main', 'marquee', 'menu', 'menubar', 'navigation', 'note', 'radiogroup', 'row',
    'rowgroup', 'search', 'separator', 'status', 'tablist', 'tabpanel', 'timer', 'toolbar',
    'tree', 'treegrid', 'table', 'progressbar', 'combobox',
  ]);
  const SECTIONING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);
  const SECTIONING_ROLES = new Set(['article', 'complementary', 'main', 'navigation', 'region']);
  const TABLE_PART_TAGS = new Set(['tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'caption']);

  const SIMPLE_TAG_ROLES = {
    article: 'article', aside: 'complementary', blockquote: 'blockquote', button: 'button',
    caption: 'caption', code: 'code', datalist: 'listbox', dd: 'definition', del: 'deletion',
    details: 'group', dfn: 'term', dialog: 'dialog', dl: 'list', dt: 'term', em: 'emphasis',
    fieldset: 'group', figcaption: 'caption', figure: 'figure', frame: 'iframe', h1: 'heading',
    h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', hgroup: 'group',
    hr: 'separator', iframe: 'iframe', ins: 'insertion', label: 'label', legend: 'legend',
    li: 'listitem', main: 'main', mark: 'mark', math: 'math', menu: 'list', meter: 'meter',
    nav: 'navigation', ol: 'list', optgroup: 'group', option: 'option', output: 'status',
    p: 'paragraph', progress: 'progressbar', search: 'search', strong: 'strong',
    sub: 'subscript', sup: 'superscript', table: 'table', tbody: 'rowgroup',
    textarea: 'textbox', tfoot: 'rowgroup', thead: 'rowgroup', time: 'time', tr: 'row',
    ul: 'list', address: 'group',
  };

  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
    color: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider',
    number: 'spinbutton', search: 'searchbox', password: 'textbox',
    date: 'textbox', time: 'textbox', 'datetime-local': 'textbox', month: 'textbox',
    week: 'textbox', hidden: null,
  };

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

  function hasAccessibleNameAttr(el) {
    const l = el.getAttribute('aria-label');
    if (l && l.trim()) return true;
    const lb = el.getAttribute('aria-labelledby');
    if (lb && lb.trim()) return true;
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
    let r = run.role.get(el);
    if (r !== undefined) return r;
    r = computeRole(el);
    run.role.set(el, r);
    return r;
  }

  function computeRole(el) {
    const tag = el.localName;
    if (tag === 'html' || tag === 'body') return null;
    if (isModalAncestor(el)) return 'none';
    const explicit = explicitRole(el);
    if (explicit) {
      if (explicit === 'none' || explicit === 'presentation') {
        if (!isFocusable(el) && !hasGlobalAria(el)) return 'none';
        // Presentational role conflict: fall back to the implicit role.
      } else if (explicit === 'region' || explicit === 'form') {
        // Unnamed regions and forms are not landmarks (Chrome: generic).
        if (hasAccessibleNameAttr(el)) return explicit;
      } else if (REQUIRED_CONTEXT[explicit]) {
        // Chrome drops option/treeitem/listitem outside their container.
        if (REQUIRED_CONTEXT[explicit].has(contextRole(el))) return explicit;
      } else {
        return explicit;
      }
    }
    return implicitRole(el, tag);
  }

  // Role of the nearest flat-tree ancestor that is not generic/none.
  function contextRole(el) {
    for (let n = flatParent(el); n; n = flatParent(n)) {
      const r = roleImpl(n);
      if (r !== 'generic' && r !== 'none' && r !== null) return r;
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
      const table = el.closest('table');
      const tr = table ? roleImpl(table) : 'table';
      if (tr !== 'table' && tr !== 'grid' && tr !== 'treegrid') {
        return tag === 'td' || tag === 'th' || isFocusable(el) ? 'generic' : 'none';
      }
    } else if (tag === 'li' || tag === 'dt' || tag === 'dd') {
      const p = el.parentElement;
      if (p && (p.localName === 'ul' || p.localName === 'ol' || p.localName === 'menu' ||
                p.localName === 'dl') && roleImpl(p) === 'none') return 'none';
    }
    switch (tag) {
      case 'a':
        return el.hasAttribute('href') ? 'link' : 'generic';
      case 'area':
        return el.hasAttribute('href') ? 'link' : 'generic';
      case 'input': {
        const type = (el.getAttribute('type') || 'text').trim().toLowerCase();
        if (Object.prototype.hasOwnProperty.call(INPUT_ROLES, type)) {
          const r = INPUT_ROLES[type];
          if (type === 'search' && hasDatalist(el)) return 'combobox';
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
        if (scoped) return 'generic';
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
        const table = el.closest('table');
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
    const q = (sel) => typeof root.querySelector === 'function' && !!root.querySelector(sel);
    f = {
      pseudo,
      tt: unknown || tt || q('[style*="text-transform" i]'),
      cv: unknown || cv || q('[style*="content-visibility" i], [hidden="until-found" i]'),
      disabled: q('[aria-disabled]'),
    };
    run.scan.set(root, f);
    return f;
  }

  function mayHavePseudo(el) {
    let m = run.pseudoEl.get(el);
    if (m !== undefined) return m;
    const f = scanRoot(rootOf(el)).pseudo;
    m = f.any && (f.selector === null || el.matches(f.selector));
    // :host::before rules of the element's own shadow tree style the element.
    if (!m && el.shadowRoot) m = scanRoot(el.shadowRoot).pseudo.any;
    run.pseudoEl.set(el, m);
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
      } else if (s.startsWith('attr(', i)) {
        const j = s.indexOf(')', i);
        const attrName = s.slice(i + 5, j < 0 ? s.length : j).trim();
        parts.push(el.getAttribute(attrName) || '');
        i = j < 0 ? s.length : j + 1;
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
    if (out && cs.display !== 'inline') out = ' ' + out + ' ';
    return out;
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
      const m = run.text.get(el);
      if (m !== undefined) {
        st.attr = m.attr;
        return m.text;
      }
    }
    const r = roleImpl(el);
    const skips = st.skips;
    let text = textAlternativeSteps(el, st, isRoot, r);
    if (!isRoot && REPLACED_TAGS.has(el.localName)) st.attr = true;
    if (text.length > MAX_NAME_CHARS) text = text.slice(0, MAX_NAME_CHARS);
    if (plain && st.skips === skips) run.text.set(el, { text, attr: st.attr });
    return text;
  }

  function textAlternativeSteps(el, st, isRoot, r) {
    // 2C: embedded control (only when naming something else).  Chrome lets a
    // non-empty value win even over aria-labelledby; an empty one falls
    // through to the control's own name (aria-label, title, placeholder).
    if (!isRoot) {
      let v = null;
      if (TEXTBOX_ROLES.has(r)) {
        v = el.localName === 'input' || el.localName === 'textarea' ? el.value
          : el.textContent || '';
      } else if (r === 'combobox' || r === 'listbox') {
        v = el.localName === 'input' ? el.value : selectedOptionsText(el);
      } else if (RANGE_ROLES.has(r)) {
        v = rangeText(el, r);
      }
      if (v !== null && hasText(v)) {
        st.attr = true;
        return v;
      }
    }

    // 2B: aria-labelledby
    if (!st.inLabelledBy) {
      const ids = el.getAttribute('aria-labelledby');
      if (ids && ids.trim()) {
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
        const joined = collapse(parts.join(' '));
        if (joined) {
          st.attr = true;
          return joined;
        }
      }
    }

    // 2D: aria-label
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) {
      st.attr = true;
      return al;
    }

    const prohibited = NAME_PROHIBITED.has(r);
    // Chrome still names focusable elements whose role prohibits naming from
    // native attributes and title (never from content).
    const focusable = isRoot && isFocusable(el);
    if (isRoot && prohibited && !focusable) return '';

    // 2E: host language label.  For an image an empty alt is final.
    if (el.localName === 'img' && el.namespaceURI === HTML_NS && el.hasAttribute('alt')) {
      const alt = el.getAttribute('alt');
      if (alt || r === 'img' || r === 'none') {
        st.attr = true;
        return alt;
      }
    }
    st.labelFinal = false;
    const nat = nativeName(el, r, st);
    if (nat || st.labelFinal) {
      st.labelFinal = false;
      st.attr = true;
      return nat;
    }

    // 2F: name from content.  (Inside an aria-labelledby traversal every
    // descendant counts; a <select>'s options or a <textarea>'s text are
    // never content.)
    if (el.localName !== 'select' && el.localName !== 'textarea' && el.localName !== 'input' &&
        (isRoot ? rootNameFromContent(el, r) : st.inLabelledBy || !noRecurse(el, r))) {
      const text = contentText(el, st);
      if (hasText(text)) {
        if (isRoot) st.fromContent = true;
        st.attr = false;
        return text;
      }
    }

    // 2I: tooltip (not for descendants whose role prohibits naming; Chrome
    // names landmarks region/form from title only when they are focusable)
    if ((isRoot || !prohibited) && ((r !== 'region' && r !== 'form') || focusable)) {
      const title = el.getAttribute('title');
      if (title && title.trim()) {
        st.attr = true;
        return title;
      }
    }

    let ph = null;
    if (el.localName === 'textarea' ||
        (el.localName === 'input' && PLACEHOLDER_TYPES.has(el.type))) {
      ph = el.getAttribute('placeholder');
    }
    if (!ph && (TEXTBOX_ROLES.has(r) || r === 'combobox')) ph = el.getAttribute('aria-placeholder');
    if (ph && ph.trim()) {
      st.attr = true;
      return ph;
    }
    st.attr = false;
    return '';
  }

  function rootNameFromContent(el, r) {
    if (!NAME_FROM_CONTENT.has(r)) return false;
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
      const t = el.closest('table');
      return !(t && isLayoutTable(t));
    }
    return true;
  }

  function labelText(el, st) {
    const labs = labelsFor(el);
    if (!labs) return '';
    const parts = [];
    for (const lab of labs) {
      const sub = {
        root: st.root, inLabelledBy: st.inLabelledBy, includeHidden: st.includeHidden,
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
    const ownTextHidden = !st.includeHidden && el !== st.root && isHiddenImpl(el);
    let out = ownTextHidden ? '' : pseudoText(el, '::before');
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
    return out;
  }

  function nameImpl(el, r) {
    if (!el || el.nodeType !== 1) return { name: '', fromContent: false };
    let res = run.name.get(el);
    if (res !== undefined) return res;
    if (r === undefined) r = roleImpl(el);
    // Fast path: most elements (generic, paragraph...) cannot have a name.
    if (NAME_PROHIBITED.has(r) && !el.hasAttribute('aria-label') &&
        !el.hasAttribute('aria-labelledby') && !isFocusable(el)) {
      res = { name: '', fromContent: false };
      run.name.set(el, res);
      return res;
    }
    const st = {
      root: el, inLabelledBy: false, includeHidden: false, visited: new Set(), fromContent: false,
      attr: false, skips: 0,
    };
    const n = collapse(textAlternative(el, st, true) || '');
    res = { name: n, fromContent: st.fromContent && n !== '' };
    run.name.set(el, res);
    return res;
  }

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

    return s;
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
    begin() { run = newRun(); },
    end() { run = null; },
    children,
    isHidden: inRun(isHiddenImpl),
    hidesSubtree: inRun((el) => !!el && el.nodeType === 1 && hiddenSubtree(el)),
    role: inRun(roleImpl),
    name: inRun(nameImpl),
    states: inRun(statesImpl),
    value: inRun(valueImpl),
    isFocusableByTabindex,
    label,
  };
})();
