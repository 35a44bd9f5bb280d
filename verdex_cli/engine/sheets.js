// What a document's style sheets can do to a snapshot (module Sheets, see engine.py). Only rules
// that set a property the snapshot reads (display, visibility, content, content-visibility,
// text-transform, `all`, or a custom property that another rule may read) count. For those rules it
// answers per kind of selector:
//   hover   :hover / :active     (the pointer alone can show or hide something)
//   focus   :focus*              (moving focus alone can)
//   state   :checked, :invalid, :placeholder-shown, :open, ... (typing or clicking alone can)
//   has     :has(...)            (a change inside an element can restyle its ancestors)
//   sibling `+` / `~`            (a change to an element can restyle its later siblings)
// A sheet the isolated world cannot read (cross-origin) and nested rules (`&`) count as all kinds.
// Answers are kept per sheet object and its rule count (a sheet edited through the CSSOM alone,
// keeping its rule count, is not seen: the README says so).
  const TREE_PROPS = /(^|[;{\s])(display|visibility|content|content-visibility|text-transform|all|--[\w-]+)\s*:/;
  const KINDS = {
    hover: /:(hover|active)\b/,
    focus: /:focus/,
    state: /:(checked|indeterminate|valid|invalid|user-valid|user-invalid|placeholder-shown|in-range|out-of-range|autofill|open|closed|popover-open|modal|target|blank|default|state\()/,
    has: /:has\(/,
    sibling: /[+~]/,
  };
  const ALL = { hover: true, focus: true, state: true, has: true, sibling: true };
  const known = new WeakMap();  // sheet -> {n: rule count, f: flags}

  function scan(rules, f) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.styleSheet) {  // @import
        let inner;
        try { inner = r.styleSheet.cssRules; } catch (e) { return ALL; }
        if (scan(inner, f) === ALL) return ALL;
        continue;
      }
      const sel = r.selectorText;
      if (typeof sel === 'string' && TREE_PROPS.test(r.cssText)) {
        if (sel.indexOf('&') >= 0) return ALL;
        for (const k in KINDS) if (!f[k] && KINDS[k].test(sel)) f[k] = true;
      }
      if (r.cssRules && r.cssRules.length && scan(r.cssRules, f) === ALL) return ALL;  // @media, @supports
    }
    return f;
  }

  function flags(sheet) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { return ALL; }
    if (!rules) return ALL;
    const k = known.get(sheet);
    if (k && k.n === rules.length) return k.f;
    const f = scan(rules, { hover: false, focus: false, state: false, has: false, sibling: false });
    known.set(sheet, { n: rules.length, f });
    return f;
  }

  // Does any sheet of this tree scope (a document or a shadow root; default the document) have
  // rules of that kind?
  function any(kind, scope) {
    const root = scope || document;
    const lists = [root.styleSheets, root.adoptedStyleSheets];
    for (const list of lists) {
      if (!list) continue;
      for (let i = 0; i < list.length; i++) if (flags(list[i])[kind]) return true;
    }
    return false;
  }

  const TREE_KEYS = new Set(['display', 'visibility', 'content', 'contentVisibility', 'textTransform', 'all']);

  // Is a running animation or transition changing a property the snapshot reads?
  function animatesTree() {
    if (!document.getAnimations) return true;
    const all = document.getAnimations();
    for (let i = 0; i < all.length; i++) {
      const a = all[i];
      if (a.playState !== 'running') continue;
      if (typeof a.transitionProperty === 'string' && TREE_KEYS.has(camel(a.transitionProperty))) return true;
      let frames;
      try { frames = a.effect ? a.effect.getKeyframes() : []; } catch (e) { return true; }
      for (const fr of frames) for (const key in fr) if (TREE_KEYS.has(key) || key.startsWith('--')) return true;
    }
    return false;
  }

  function camel(p) { return p.replace(/-([a-z])/g, (m, c) => c.toUpperCase()); }

  return { any, animatesTree };
