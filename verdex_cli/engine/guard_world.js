// The click guard of a world of its own in every document (browser/guard_world.py): first in line
// for trusted presses, releases and clicks; told to deny (for a bounded time), it stops them and
// remembers what they would have reached.
() => {
  if (globalThis.__verdexGuard) return;
  const TYPES = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  let until = 0;
  let blocked = [];
  const label = (n) => {
    if (!n || n.nodeType !== 1) return '<document>';
    const id = n.getAttribute('id');
    return '<' + n.localName + (id ? ' id="' + id.slice(0, 40) + '"' : '') + '>';
  };
  const stop = (ev) => {
    if (!until || !ev.isTrusted) return;
    if (performance.now() > until) { until = 0; return; }
    ev.stopImmediatePropagation();
    ev.preventDefault();
    if (blocked.length < 16) blocked.push(ev.type + ' on ' + label(ev.composedPath()[0]));
  };
  for (const t of TYPES) window.addEventListener(t, stop, true);
  globalThis.__verdexGuard = {
    deny(ms) { until = performance.now() + ms; blocked = []; return true; },
    read() { const out = blocked; until = 0; blocked = []; return out; },
  };
}
