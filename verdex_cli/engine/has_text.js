// `wait text`: is the text in the document's visible text, through open shadow roots? (a light
// world of its own in every frame: no engine needed)
function (text) {
  const want = text.replace(/\s+/g, ' ').trim();
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        for (const c of el.shadowRoot.children) parts.push(c.innerText || c.textContent || '');
        walk(el.shadowRoot);
      }
    }
  };
  parts.push(document.body ? document.body.innerText : (document.documentElement || {}).textContent || '');
  walk(document);
  return parts.join(' ').replace(/\s+/g, ' ').includes(want);
}
