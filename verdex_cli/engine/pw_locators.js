// Which stable-locator candidates a Playwright test can use, judged the way Playwright's own locators
// match (its public behaviour, as of 1.65): `get_by_test_id` (the attribute, exactly), `get_by_label`
// (aria-labelledby's elements, else aria-label, else the <label>s of a labelable control: their whole
// text, descendants' included), `get_by_role` (only roles Playwright gives the element), `get_by_text`
// (the element whose whole text equals, none of its children's doing so too) and `locator("#id")`. Each must
// find this element alone in its own document (a frame's document: the test reaches it through
// frame_locator). Open shadow roots count, as Playwright pierces them; in a closed one nothing holds
// (Playwright cannot reach into it).
// Module PwLocators (used by Targets' locate).
  const norm = (t) => (t || '').replace(/[\u200b\u00ad]/g, '').trim().replace(/\s+/g, ' ');
  const LABELABLE = new Set(['button', 'meter', 'output', 'progress', 'select', 'textarea']);
  const NO_ROLE = new Set(['generic', 'iframe', 'document', 'none', 'presentation']);

  // Every element of the document, open shadow roots included, in document order.
  function all(root, out) {
    for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
      out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, out);
      all(el, out);
    }
    return out;
  }

  // Playwright skips these (and the <head>, which the walks below never enter).
  function skipped(el) {
    const n = el.localName;
    return n === 'script' || n === 'noscript' || n === 'style';
  }

  // Playwright's text of an element: every descendant text node, no separator between elements.
  function text(el, cache) {
    let t = cache.get(el);
    if (t !== undefined) return t;
    t = '';
    if (el.nodeType === 1 && skipped(el)) t = '';
    else if (el.localName === 'input' && ['submit', 'button', 'reset'].includes(el.type)) t = el.value;
    else {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) t += c.nodeValue || '';
        else if (c.nodeType === 1) t += text(c, cache);
      }
      if (el.shadowRoot) t += text(el.shadowRoot, cache);
    }
    cache.set(el, t);
    return t;
  }

  const labelable = (el) => LABELABLE.has(el.localName) || (el.localName === 'input' && el.type !== 'hidden');
  const mayHaveLabel = (el) => labelable(el) || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');

  function labels(el, cache) {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      const refs = ids.split(/\s+/).map((id) => (id && root.getElementById ? root.getElementById(id) : null))
        .filter((x) => x);
      if (refs.length) return refs.map((r) => norm(text(r, cache)));
    }
    const al = el.getAttribute('aria-label');
    if (al !== null && al.trim()) return [norm(al)];
    return labelable(el) && el.labels ? [...el.labels].map((l) => norm(text(l, cache))) : [];
  }

  // Playwright finds this element by this role (its role engine gives no role to a <summary>, a color
  // input, and has none of the generic ones).
  function knowsRole(el, role) {
    if (NO_ROLE.has(role)) return false;
    if (el.hasAttribute('role')) return true;
    return !(el.localName === 'summary' || (el.localName === 'input' && el.type === 'color'));
  }

  // The text element Playwright's get_by_text(exact) finds for `want`: its whole text equals, and no
  // child's (or shadow root's) does.
  function textSelf(el, want, cache) {
    if (skipped(el) || norm(text(el, cache)) !== want) return false;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (norm(text(c, cache)) === want) return false;
    return !(el.shadowRoot && norm(text(el.shadowRoot, cache)) === want);
  }

  // Sets `pw` on the candidates of element `self` (locate's list: testid, labels, role, scoped role, id;
  // `within` gives a scoped candidate's container element, or null) up to the first that holds (only
  // that one is used), and else appends the text one only a Playwright test uses.
  function judge(self, cands, within) {
    for (let r = self.getRootNode(); r.host; r = r.host.getRootNode()) {
      if (r.mode === 'closed') { for (const c of cands) c.pw = false; return cands; }
    }
    const cache = new Map();
    let els = null;
    const alone = (test) => {
      els = els || all(document.body || document.documentElement, []);
      const hits = els.filter(test);
      return hits.length === 1 && hits[0] === self;
    };
    for (const c of cands) {
      if (c.kind === 'testid') {
        const raw = self.getAttribute('data-testid');
        c.pw = raw === c.value && alone((el) => el.getAttribute('data-testid') === raw);
      } else if (c.kind === 'label') {
        c.pw = labels(self, cache).includes(c.value) && alone((el) => mayHaveLabel(el) && labels(el, cache).includes(c.value));
      } else if (c.kind === 'role') {
        const box = c.scope ? within(c) : null;
        c.pw = !!c.ok && knowsRole(self, c.role) && (!c.scope || (!!box && knowsRole(box, c.scope.role)));
      } else if (c.kind === 'id') {
        c.pw = alone((el) => el.id === c.value);
      }
      if (c.pw) return cands;
    }
    const own = norm(text(self, cache));
    if (own && own.length <= 80 && textSelf(self, own, cache) && alone((el) => textSelf(el, own, cache))) {
      cands.push({ kind: 'text', value: own, ok: false, pw: true });
    }
    return cands;
  }

  return { judge };
