// The main-world watcher of the work an action's input started (browser/timer_watch.py says what it
// counts and why). Runs in every document of a tab before the page's own scripts; a function of
// the values it is given: the event name secret to this process, HORIZON_MS, CHAIN_MS, LOAD_GRACE_MS.
(KEY, HORIZON, CHAIN, GRACE_MS) => {
  const probe = new CustomEvent(KEY + '?', { cancelable: true });
  window.dispatchEvent(probe);
  if (probe.defaultPrevented) return;  // installed already
  const evGet = (Object.getOwnPropertyDescriptor(window, 'event') || {}).get;
  const now = () => performance.now();
  const live = new Map();  // timer id -> due; 'f' + frame id -> 1
  let origin = null;       // the input time of the chain whose callback is running
  let inFrame = false;     // a counted animation-frame callback is running
  let acting = 0;          // verdex's own script-made input events are running (a picker's value)
  // a request the input started has just been answered: its handlers (promise continuations, which
  // no timer wrapper sees running) belong to the same chain for the grace that follows (see request)
  let answeredOrigin = null, answeredUntil = 0;
  function cause(event = true) {
    if (origin !== null) return origin;
    if (answeredOrigin !== null && now() < answeredUntil) return answeredOrigin;
    if (flightOrigin !== null) return flightOrigin;
    return event && here(0) ? now() : null;
  }
  // Is trusted input being dispatched here (window.event; or, for an event in a shadow tree, where
  // window.event stays empty, the last trusted event a capture listener saw, while its dispatch lasts),
  // verdex's own input events, or the same in a same-origin frame below (a handler made in this
  // document may run for an element of a child frame, and then calls this window's timers)?
  const SYM = Symbol.for(KEY);
  let current = null;
  function here(depth) {
    if (acting || (current && current.eventPhase !== 0)) return true;
    let e;
    try { e = evGet ? evGet.call(window) : undefined; } catch (x) { e = undefined; }
    if (e && e.isTrusted) return true;
    if (depth >= 2) return false;
    for (let i = 0; i < window.length && i < 20; i++) {
      try { const f = window[i][SYM]; if (typeof f === 'function' && f(depth + 1)) return true; } catch (x) { /* cross-origin */ }
    }
    return false;
  }
  Object.defineProperty(window, SYM, { value: here });
  const TYPES = ['pointerdown', 'pointerup', 'pointerover', 'pointerout', 'mousedown', 'mouseup', 'mouseover', 'mouseout',
    'mousemove', 'click', 'dblclick', 'auxclick', 'contextmenu', 'keydown', 'keyup', 'keypress', 'beforeinput', 'input',
    'change', 'focus', 'blur', 'focusin', 'focusout', 'submit', 'wheel', 'select'];
  const see = (e) => { if (e.isTrusted) current = e; };
  const listen = (t) => { for (const type of TYPES) t.addEventListener(type, see, { capture: true, passive: true }); };
  listen(window);
  const wrap = (fn, make) => new Proxy(fn, { apply: make });
  // a timer, interval or animation frame the page set on its own (no input behind it), a message that
  // came with none (below), an answer to a request the page made on its own: from its callback's start
  // to a few microtask hops after it (its promise continuations; a promise adopting another takes two
  // hops), the change watcher (snapshot/observer.js) takes what changes as the page's own doing
  const ownEvent = new Event(KEY + 'o'), ownBegin = new Event(KEY + 'o(');
  const micro = window.queueMicrotask;
  let turns = 0;  // own turns under way
  function ownTurn() {
    window.dispatchEvent(ownBegin);
    turns++;
    let hops = 6;
    const end = () => { if (--hops > 0) micro.call(window, end); else { turns--; window.dispatchEvent(ownEvent); } };
    micro.call(window, end);
  }
  const owned = (cb) => function (...a) { ownTurn(); return Reflect.apply(cb, this, a); };
  const NativePromise = Promise, settleAlso = Promise.prototype.finally;
  const st = window.setTimeout, ct = window.clearTimeout, raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  // Quiescence (KEY + 'q', and part of KEY + 'f'): is anything of the page's own -- caused by input or
  // not -- about to run and able to change it? A timeout due within SOON ms (or GRACE ms past due: it may not have run
  // yet), an interval until cleared, an animation frame asked and not yet run, a message posted in
  // the last GRACE ms.
  const dues = new Map(), ticking = new Set(), frames = new Set();
  const GRACE = 50, SOON = 100;
  let prunedAt = 0;
  function prune() {
    const t = prunedAt = now();
    for (const [id, due] of dues) if (due + GRACE <= t) dues.delete(id);
  }
  function quiescent() {
    if (ticking.size || frames.size || now() - postedAt < GRACE) return false;
    prune();
    const t = now();
    for (const due of dues.values()) if (due < t + SOON) return false;
    return true;
  }
  window.setTimeout = wrap(st, (target, self, args) => {
    const org = cause(), cb = args[0];
    const delay = Math.max(0, Number(args[1]) || 0);
    if (org === null || typeof cb !== 'function' || delay > HORIZON || now() + delay - org > CHAIN) {
      const tid = Reflect.apply(target, self, org === null && typeof cb === 'function' ? [owned(cb), ...args.slice(1)] : args);
      if (dues.size > 500 && now() - prunedAt > 100) prune();  // a page that sets timers all the time
      dues.set(tid, now() + delay);
      return tid;
    }
    let id;
    const extra = args.slice(2);
    const run = function () {
      live.delete(id);
      const prev = origin; origin = org;
      try { return Reflect.apply(cb, this, extra); } finally { origin = prev; }
    };
    id = Reflect.apply(target, self, [run, args[1]]);
    live.set(id, now() + delay);
    dues.set(id, now() + delay);
    return id;
  });
  const forget = (id) => { live.delete(id); intervals.delete(id); dues.delete(id); ticking.delete(id); };
  window.clearTimeout = wrap(ct, (target, self, args) => { forget(args[0]); return Reflect.apply(target, self, args); });
  // an interval the input started counts until it is cleared, for HORIZON_MS at most
  const si = window.setInterval, ci = window.clearInterval;
  const intervals = new Map();  // interval id -> end of counting
  window.setInterval = wrap(si, (target, self, args) => {
    const org = cause(), cb = args[0];
    if (org === null || typeof cb !== 'function') {
      const tid = Reflect.apply(target, self, typeof cb === 'function' ? [owned(cb), ...args.slice(1)] : args);
      ticking.add(tid);
      return tid;
    }
    const extra = args.slice(2);
    const run = function () {
      const prev = origin; origin = org;
      try { return Reflect.apply(cb, this, extra); } finally { origin = prev; }
    };
    const id = Reflect.apply(target, self, [run, args[1]]);
    intervals.set(id, org + HORIZON);
    ticking.add(id);
    return id;
  });
  window.clearInterval = wrap(ci, (target, self, args) => { forget(args[0]); return Reflect.apply(target, self, args); });
  function busy(timersOnly) {
    const t = now();
    for (const [id, end] of intervals) { if (end > t) return true; intervals.delete(id); }
    for (const k of live.keys()) if (!timersOnly || typeof k === 'number') return true;
    return false;
  }
  if (raf) {
    const asked = (target, self, cb) => {
      let id;
      id = Reflect.apply(target, self, [function (t) { frames.delete(id); return Reflect.apply(cb, this, [t]); }]);
      frames.add(id);
      return id;
    };
    window.requestAnimationFrame = wrap(raf, (target, self, args) => {
      const cb = args[0];
      if (typeof cb !== 'function') return Reflect.apply(target, self, args);
      // a frame asked from a frame callback is an animation loop: not waited for (the page's own when
      // nothing of an input's chain asked it)
      const c = cause(), org = inFrame ? null : c;
      if (org === null) return asked(target, self, c === null ? owned(cb) : cb);
      let id;
      const run = function (t) {
        live.delete('f' + id);
        frames.delete(id);
        const prev = origin; origin = org; inFrame = true;
        try { return Reflect.apply(cb, this, [t]); } finally { origin = prev; inFrame = false; }
      };
      id = Reflect.apply(target, self, [run]);
      live.set('f' + id, 1);
      frames.add(id);
      return id;
    });
    window.cancelAnimationFrame = wrap(caf, (target, self, args) => { live.delete('f' + args[0]); frames.delete(args[0]); return Reflect.apply(target, self, args); });
  }
  // a scroll asked by a handler (smooth or not) and the browser's own key and wheel scrolling begin in
  // a later animation frame: two frames count as pending work
  let holds = 0;
  function hold() {
    const id = 'h' + (++holds);
    live.set(id, 1);
    if (raf) raf.call(window, () => raf.call(window, () => live.delete(id)));
  }
  for (const type of ['keydown', 'wheel']) window.addEventListener(type, (e) => { if (e.isTrusted) hold(); }, { capture: true, passive: true });
  for (const [proto, names] of [[Element.prototype, ['scroll', 'scrollTo', 'scrollBy', 'scrollIntoView']], [window, ['scroll', 'scrollTo', 'scrollBy']]]) {
    for (const name of names) {
      const fn = proto[name];
      if (typeof fn === 'function') proto[name] = wrap(fn, (target, self, args) => { if (cause() !== null) hold(); return Reflect.apply(target, self, args); });
    }
  }
  // a request the input started (fetch, XMLHttpRequest) counts until it is answered and LOAD_GRACE_MS
  // more (its handlers read the body and change the page), until CHAIN_MS after the input at most
  function request(org) {
    const id = 'n' + (++holds);
    live.set(id, 1);
    const end = () => {
      if (!live.has(id)) return;
      answeredOrigin = org; answeredUntil = now() + GRACE_MS;
      st.call(window, () => live.delete(id), GRACE_MS);
    };
    st.call(window, () => live.delete(id), Math.max(0, org + CHAIN - now()));
    return end;
  }
  // (a request made in such a turn, a poll: its answer and its body are read in the page's own turn)
  const ownAnswers = new WeakSet(), nativeThen = NativePromise.prototype.then;
  const ownAnswer = (p) => { Reflect.apply(nativeThen, p, [ownTurn, () => {}]); return p; };
  if (typeof window.fetch === 'function') {
    window.fetch = wrap(window.fetch, (target, self, args) => {
      const org = cause();
      const p = Reflect.apply(target, self, args);
      if (!(p instanceof NativePromise)) return p;
      // the page gets p's own outcome through a promise of its own (finally: p's rejection, if any,
      // stays the page's to handle; an uncaught one still reaches 'unhandledrejection')
      if (org !== null) return Reflect.apply(settleAlso, p, [request(org)]);
      if (!turns) return p;
      Reflect.apply(nativeThen, p, [(r) => ownAnswers.add(r), () => {}]);
      return ownAnswer(p);
    });
    for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const read = window.Response && Response.prototype[name];
      if (typeof read === 'function') {
        Response.prototype[name] = wrap(read, (target, self, args) => {
          const p = Reflect.apply(target, self, args);
          return ownAnswers.has(self) && p instanceof NativePromise ? ownAnswer(p) : p;
        });
      }
    }
  }
  // when the input's chain sent a message or a request (to a worker, a socket, a port, a server), no
  // message or answer for CHAIN_MS after is taken as the page's own
  let chainSent = -1e9;
  const sent = () => { const org = cause(); if (org !== null) chainSent = now(); return org; };
  if (window.XMLHttpRequest) {
    const XP = XMLHttpRequest.prototype;
    XP.send = wrap(XP.send, (target, self, args) => {
      const org = sent();
      if (org !== null) { const end = request(org); self.addEventListener('loadend', end); }
      return Reflect.apply(target, self, args);
    });
  }
  // shadow roots: events that do not leave them (change, select) are seen there
  const attach = Element.prototype.attachShadow;
  if (typeof attach === 'function') {
    // ... and the snapshot cache is told (a shadow root attached to an element already in the document,
    // a custom element upgraded late: no mutation says so; engine/observer.js)
    Element.prototype.attachShadow = wrap(attach, (target, self, args) => {
      const root = Reflect.apply(target, self, args);
      listen(root);
      if (root.mode === 'closed') closedHost(self);
      if (self.isConnected) self.dispatchEvent(new Event(KEY + 's'));
      return root;
    });
  }
  // Closed shadow roots: their hosts are handed to the isolated world, which cannot see the roots (the
  // protocol resolves them there: browser/closed_roots.py). Asked (KEY + 'c' on the window), each
  // connected host not yet taken gets KEY + 'h' (composed: the isolated world listens on the window and
  // on the closed roots it holds); the listener that sees it asks, with KEY + 'i' on what it sees,
  // whether that is the host itself (a host inside a closed root it lacks shows only that root's host)
  // and takes it by cancelling. Hosts are held weakly. KEY + 'L': this watcher came after the document's
  // own scripts had run (roots attached before it are not known here). KEY + 'C': closed roots may be
  // in this document (`wait text` then looks in verdex's world: engine/has_text.js).
  const late = document.readyState !== 'loading' || !!document.body;
  const addL = EventTarget.prototype.addEventListener, removeL = EventTarget.prototype.removeEventListener;
  const send = EventTarget.prototype.dispatchEvent;
  let closed = [];
  const told = new WeakSet();
  let closedSeen = late;
  function closedHost(el) {
    closedSeen = true;
    if (told.has(el)) return;
    told.add(el);
    closed.push(new WeakRef(el));
  }
  const yes = (e) => e.preventDefault();
  function handOver(el) {
    const ev = new Event(KEY + 'h', { bubbles: true, composed: true, cancelable: true });
    Reflect.apply(addL, el, [KEY + 'i', yes]);
    try { Reflect.apply(send, el, [ev]); } finally { Reflect.apply(removeL, el, [KEY + 'i', yes]); }
    return ev.defaultPrevented;
  }
  const EI = window.ElementInternals && Object.getOwnPropertyDescriptor(ElementInternals.prototype, 'shadowRoot');
  if (EI && EI.get) {  // a declarative closed root, taken over by its custom element (no attachShadow)
    Object.defineProperty(ElementInternals.prototype, 'shadowRoot', { ...EI, get: wrap(EI.get, (target, self, args) => {
      const root = Reflect.apply(target, self, args);
      if (root && root.mode === 'closed') closedHost(root.host);
      return root;
    }) });
  }
  window.addEventListener(KEY + 'c', () => {
    closed = closed.filter((ref) => { const el = ref.deref(); return !!el && !(el.isConnected && handOver(el)); });
  }, true);
  window.addEventListener(KEY + 'L', (e) => { if (late) e.preventDefault(); }, true);
  window.addEventListener(KEY + 'C', (e) => { if (closedSeen) e.preventDefault(); }, true);
  // work a task cannot be seen to outlast: observers the browser calls in an animation frame's rendering
  // steps (ResizeObserver, IntersectionObserver: a page that has ever asked for one), and messages
  // (a scheduler's tasks, posted in the last second). Without either, quiescent (above) and with no
  // child frame (whose documents and messages arrive on their own time), the settle after a change
  // needs no hop (act.js settle, KEY + 'f')
  let observing = false, postedAt = -1e9;
  for (const C of [window.ResizeObserver, window.IntersectionObserver]) {
    if (C && typeof C.prototype.observe === 'function') {
      C.prototype.observe = wrap(C.prototype.observe, (target, self, args) => { observing = true; return Reflect.apply(target, self, args); });
    }
  }
  // A message the input's chain posts (a scheduler yielding between slices of its work) counts until a
  // marker message posted right after it has come (messages are delivered in order), and what runs
  // meanwhile -- the message's handler, and the messages, timers and frames it asks -- belongs to the chain.
  const MC = window.MessageChannel, nativePost = MC && MessagePort.prototype.postMessage;
  let inFlight = 0, flightOrigin = null;
  const posted = (target, self, args) => {
    postedAt = now();
    const org = sent();
    const out = Reflect.apply(target, self, args);
    if (org !== null && nativePost && (self === window || self instanceof MessagePort)) {
      const id = 'm' + (++holds), marker = new MC();
      live.set(id, 1); inFlight++; flightOrigin = org;
      marker.port1.onmessage = () => { marker.port1.close(); live.delete(id); if (--inFlight === 0) flightOrigin = null; };
      nativePost.call(marker.port2, 0);
    }
    return out;
  };
  if (nativePost) MessagePort.prototype.postMessage = wrap(nativePost, posted);
  if (typeof window.postMessage === 'function') window.postMessage = wrap(window.postMessage, posted);
  for (const [C, name] of [[window.Worker, 'postMessage'], [window.WebSocket, 'send']]) {
    const fn = C && C.prototype[name];
    if (typeof fn === 'function') C.prototype[name] = wrap(fn, (target, self, args) => { sent(); return Reflect.apply(target, self, args); });
  }
  // A message (a worker's, a socket's, a server's event stream, another tab's, the page's own posts; not
  // another window's) whose handler runs with no input behind it, when the input's chain sent nothing
  // lately, is the page's own
  const handlers = new WeakMap();  // the page's handler -> the one registered
  const TAKES = new Set(['message', 'load', 'readystatechange']);
  function handlerOf(cb) {
    let h = handlers.get(cb);
    if (h === undefined) {
      h = function (...a) {
        const e = a[0], away = this === window && e && e.source !== window;
        if (!away && cause(false) === null && now() - chainSent >= CHAIN) ownTurn();  // (the event is trusted)
        return Reflect.apply(cb, this, a);
      };
      handlers.set(cb, h);
    }
    return h;
  }
  const takes = (self, type, cb) => typeof cb === 'function' && TAKES.has(type) && (type === 'message' || self instanceof XMLHttpRequest);
  EventTarget.prototype.addEventListener = wrap(addL, (target, self, args) =>
    Reflect.apply(target, self, takes(self, args[0], args[1]) ? [args[0], handlerOf(args[1]), ...args.slice(2)] : args));
  EventTarget.prototype.removeEventListener = wrap(removeL, (target, self, args) =>
    Reflect.apply(target, self, takes(self, args[0], args[1]) ? [args[0], handlerOf(args[1]), ...args.slice(2)] : args));
  for (const [o, names] of [[window, ['onmessage']], [window.Worker, ['onmessage']], [window.WebSocket, ['onmessage']],
    [window.EventSource, ['onmessage']], [window.BroadcastChannel, ['onmessage']], [window.MessagePort, ['onmessage']],
    [window.XMLHttpRequest, ['onload', 'onreadystatechange']]]) {
    const at = o === window ? window : o && o.prototype;
    for (const name of at ? names : []) {
      const d = Object.getOwnPropertyDescriptor(at, name) || Object.getOwnPropertyDescriptor(Object.getPrototypeOf(at), name);
      if (!d || !d.set) continue;
      const pages = new WeakMap();  // the object -> the page's handler
      Object.defineProperty(at, name, { ...d,
        get: wrap(d.get, (target, self) => (pages.has(self) ? pages.get(self) : Reflect.apply(target, self, []))),
        set: wrap(d.set, (target, self, args) => {
          pages.set(self, args[0]);
          return Reflect.apply(target, self, [typeof args[0] === 'function' ? handlerOf(args[0]) : args[0]]);
        }) });
    }
  }
  window.addEventListener(KEY + 'q', (e) => { if (!quiescent()) e.preventDefault(); }, true);
  window.addEventListener(KEY + 'f', (e) => { if (observing || window.length > 0 || now() - postedAt < 1000 || !quiescent()) e.preventDefault(); }, true);
  window.addEventListener(KEY + '+', () => { acting++; }, true);
  window.addEventListener(KEY + '-', () => { acting = Math.max(0, acting - 1); }, true);
  window.addEventListener(KEY + '?', (e) => e.preventDefault(), true);
  window.addEventListener(KEY, (e) => { if (busy(false)) e.preventDefault(); }, true);
  window.addEventListener(KEY + 't', (e) => { if (busy(true)) e.preventDefault(); }, true);  // no frames drawn
}
