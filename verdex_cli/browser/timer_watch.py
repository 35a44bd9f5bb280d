"""Know when the work an action's input started is done, without a fixed quiet period.

A page reacts to a click from its handlers at once, and often a moment later: a timer
(``setTimeout(..., 30)`` that clears a field), an animation frame, a chain of them. Nothing in the
protocol lists a document's pending timers, so a small watcher runs in each document's main world
(installed before the page's own scripts, and in documents already open): it counts the timers and
animation frames *caused by trusted input* -- set while a trusted event is dispatched, or from the
callback of one so caused (a chain) -- until they have run or were cleared. Timers the page sets on
its own (a poll, a clock) are not counted, nor any due more than HORIZON_MS after the input that
started their chain, nor string timers; it also tells whether the document made an
IntersectionObserver or ResizeObserver (their callbacks run in an animation frame). The page's functions are wrapped in proxies, so they keep
their names and their native source text.

The isolated world (act.js ``settle``) asks it through a DOM event with a name secret to this
process: the watcher cancels ``KEY + "?"`` (it is here) and ``KEY`` while work is pending. A page
cannot see the name; one that forged or hid an answer could only make verdex wait (bounded) or
not wait, as it always could with a longer timer. Nothing here prints.
"""

from __future__ import annotations

import secrets

from ..errors import CDPError, CDPTimeout, ConnectionLost

KEY = "verdex-pending-" + secrets.token_hex(8)
HORIZON_MS = 1000

SOURCE = r"""(() => {
  const KEY = %(key)s, HORIZON = %(horizon)d;
  const probe = new CustomEvent(KEY + '?', { cancelable: true });
  window.dispatchEvent(probe);
  if (probe.defaultPrevented) return;  // installed already
  const evGet = (Object.getOwnPropertyDescriptor(window, 'event') || {}).get;
  const now = () => performance.now();
  const live = new Map();  // timer id -> due; 'f' + frame id -> 1
  let origin = null;       // the input time of the chain whose callback is running
  let inFrame = false;     // a counted animation-frame callback is running
  function cause() {
    if (origin !== null) return origin;
    let e;
    try { e = evGet ? evGet.call(window) : undefined; } catch (x) { e = undefined; }
    return e && e.isTrusted ? now() : null;
  }
  const wrap = (fn, make) => new Proxy(fn, { apply: make });
  const st = window.setTimeout, ct = window.clearTimeout, raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  window.setTimeout = wrap(st, (target, self, args) => {
    const org = cause(), cb = args[0];
    const delay = Math.max(0, Number(args[1]) || 0);
    if (org === null || typeof cb !== 'function' || now() + delay - org > HORIZON) return Reflect.apply(target, self, args);
    let id;
    const extra = args.slice(2);
    const run = function () {
      live.delete(id);
      const prev = origin; origin = org;
      try { return Reflect.apply(cb, this, extra); } finally { origin = prev; }
    };
    id = Reflect.apply(target, self, [run, args[1]]);
    live.set(id, now() + delay);
    return id;
  });
  window.clearTimeout = wrap(ct, (target, self, args) => { live.delete(args[0]); return Reflect.apply(target, self, args); });
  if (raf) {
    window.requestAnimationFrame = wrap(raf, (target, self, args) => {
      const cb = args[0];
      // a frame asked from a frame callback is an animation loop: not waited for
      if (inFrame || typeof cb !== 'function') return Reflect.apply(target, self, args);
      const org = cause();
      if (org === null) return Reflect.apply(target, self, args);
      let id;
      const run = function (t) {
        live.delete('f' + id);
        const prev = origin; origin = org; inFrame = true;
        try { return Reflect.apply(cb, this, [t]); } finally { origin = prev; inFrame = false; }
      };
      id = Reflect.apply(target, self, [run]);
      live.set('f' + id, 1);
      return id;
    });
    window.cancelAnimationFrame = wrap(caf, (target, self, args) => { live.delete('f' + args[0]); return Reflect.apply(target, self, args); });
  }
  // observers called in a frame's rendering step (lazy loading, layout reactions): once a document
  // made one, a change is followed by one animation frame before it counts as settled
  let observers = 0;
  for (const name of ['IntersectionObserver', 'ResizeObserver']) {
    const C = window[name];
    if (typeof C === 'function') window[name] = new Proxy(C, { construct(t, a, nt) { observers++; return Reflect.construct(t, a, nt); } });
  }
  window.addEventListener(KEY + 'o', (e) => { if (observers) e.preventDefault(); }, true);
  window.addEventListener(KEY + '?', (e) => e.preventDefault(), true);
  window.addEventListener(KEY, (e) => { if (live.size) e.preventDefault(); }, true);
  window.addEventListener(KEY + 't', (e) => {  // timers only (a document that draws no frames)
    for (const k of live.keys()) if (typeof k === 'number') { e.preventDefault(); return; }
  }, true);
})();"""


def source() -> str:
    import json
    return SOURCE % {"key": json.dumps(KEY), "horizon": HORIZON_MS}


def install(target) -> None:
    """Install the watcher in the target's documents, present and future (its same-process frames
    included); once per target. A browser that refuses leaves settling to the quiet period."""
    if getattr(target, "timer_watch", False):
        return
    target.timer_watch = True
    try:
        target.call("Page.addScriptToEvaluateOnNewDocument", source=source(), runImmediately=True)
    except (CDPError, CDPTimeout, ConnectionLost):
        pass
