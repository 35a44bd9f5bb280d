// `wait text`: is the text in the document's visible text, through its shadow roots? Run in a light
// world of its own in every frame (no engine), which sees open roots only: there, when the text is not
// found and the main world's watcher (KEY) says closed roots were attached, its answer is 'closed', and
// it is asked again in verdex's world, whose engine holds the closed roots (browser/closed_roots.py;
// a `wantClosed` answer: roots to resolve first).
function (text, key) {
  const engine = globalThis.__verdex && globalThis.__verdex.bridge.aria;
  const wanted = engine && engine.closedWanted();
  if (wanted) return { wantClosed: wanted };
  const shadowOf = engine ? engine.shadowOf : (el) => el.shadowRoot;
  const want = text.replace(/\s+/g, ' ').trim();
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const sr = shadowOf(el);
      if (sr) {
        for (const c of sr.children) parts.push(c.innerText || c.textContent || '');
        walk(sr);
      }
    }
  };
  parts.push(document.body ? document.body.innerText : (document.documentElement || {}).textContent || '');
  walk(document);
  if (parts.join(' ').replace(/\s+/g, ' ').includes(want)) return true;
  const closed = new Event(key + 'C', { cancelable: true });
  if (!engine && key) window.dispatchEvent(closed);
  return closed.defaultPrevented ? 'closed' : false;
}
