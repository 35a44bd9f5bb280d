// aria/ (tables.js, tree.js, roles.js, name_sources.js, name_compute.js, states.js) -- role, accessible name, state and visibility computation for
// verdex-cli snapshots.
//
// These files are the body of one function, module Aria of the in-page engine
// (see engine/loader.py): they share its closure, need no other module and
// return the API below (states.js).  Evaluated in a Chrome isolated world of
// every frame; no side effects at load time.
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
//   Aria.begin() / Aria.end()       start / finish one snapshot run (caches);
//                                   they nest: an inner pair shares the outer
//                                   run, the outermost end() clears it
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
    'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref', 'math',
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
    ul: 'list', address: 'group', s: 'deletion', dir: 'list',
  };

  // html-aam "text-level element accessible name computation": these name
  // themselves from aria-labelledby, aria-label and title (even when their
  // role is generic or prohibits naming).
  const TEXT_LEVEL_TAGS = new Set([
    'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'dfn', 'em', 'i', 'kbd', 'mark', 'q',
    'rp', 'rt', 'ruby', 's', 'samp', 'small', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
  ]);

  // Roles that need a parent of a given role; an element that states one of
  // these outside that context keeps its own (implicit) role.
  // (a cell inside a native cell, <td><button role=gridcell>, is in a row)
  // (a cell straight inside a grid or table, as Chrome and wpt grid-roles keep it)
  const CELL_CONTEXT = new Set(['row', 'cell', 'gridcell', 'columnheader', 'rowheader',
    'grid', 'treegrid', 'table']);
  const MENU_CONTEXT = new Set(['menu', 'menubar', 'group']);
  const NATIVE_FALLBACK_CONTEXT = {
    row: new Set(['table', 'grid', 'treegrid', 'rowgroup']),
    cell: CELL_CONTEXT,
    gridcell: CELL_CONTEXT,
    columnheader: CELL_CONTEXT,
    rowheader: CELL_CONTEXT,
    rowgroup: new Set(['table', 'grid', 'treegrid']),
    caption: new Set(['figure', 'table', 'grid', 'treegrid']),
    // (Chrome keeps all of these roles outside their context; core-aam and
    // WPT drop the token, see tests/fixtures/aria/spec.html)
    menuitem: MENU_CONTEXT,
    menuitemcheckbox: MENU_CONTEXT,
    menuitemradio: MENU_CONTEXT,
    tab: new Set(['tablist']),
  };

  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
    color: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider',
    number: 'spinbutton', search: 'searchbox', password: 'textbox',
    date: 'textbox', time: 'textbox', 'datetime-local': 'textbox', month: 'textbox',
    week: 'textbox', hidden: null,
  };

