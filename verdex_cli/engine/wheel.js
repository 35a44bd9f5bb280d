// The page scrolled with the wheel (module Wheel, in the isolated world; `scroll up|down`): a wheel at
// the middle of the viewport may move the window, the element there or an ancestor (a pane), or what
// the page itself draws there (a virtual list re-rendering its rows, a carousel's transform: pages that
// take the wheel and move their content without scrolling). `start` reads all of it before the wheel,
// `moved` says after it whether, and what, moved; no longer than the wheel's own work takes.
  let wheel = null;
  // what a user would see move: the element at the middle (and its text, unless it is the body), its
  // ancestors' offsets and boxes
  const offset = (el) => el.scrollLeft + ',' + el.scrollTop;
  const box = (el) => { const r = el.getBoundingClientRect(); return r.x + ',' + r.y; };
  function look() {
    const els = [];
    for (let el = Act.deepHit(innerWidth / 2, innerHeight / 2); el; el = el.assignedSlot || el.parentElement || el.getRootNode().host) els.push(el);
    return { els, y: scrollY, x: scrollX, off: els.map(offset), box: els.map(box), text: els.length > 2 ? els[0].textContent : '' };
  }
  const running = (el) => el.getAnimations().some((a) => a.playState === 'running');

  function start(down) {
    const ends = new AbortController();
    const w = wheel = Object.assign(look(), { down, ends, event: null });
    w.anims = new Set(animations(w.els));
    // an element that moves by itself (a spinner, a marquee) and what is in it are not compared: the
    // chain from the root down to it, `still` elements
    w.still = w.els.length - 1 - w.els.findLastIndex(running);
    w.arrived = new Promise((r) => addEventListener('wheel', (e) => {
      if (e.isTrusted) { w.event = e; ends.abort(); setTimeout(r, 0); }  // (a task later: the page's handlers ran)
    }, { capture: true, passive: true, signal: ends.signal }));
    return [innerWidth, innerHeight];
  }

  // what the wheel may scroll: a pane, or the root unless the page turned the window's scrolling off
  const scroller = (el, i, els) => (i === els.length - 1
    ? !/hidden|clip/.test(getComputedStyle(el).overflowY + getComputedStyle(document.body || el).overflowY)
    : /auto|scroll|overlay/.test(getComputedStyle(el).overflowY));
  const animations = (els) => els.flatMap((el) => el.getAnimations());
  const room = (el) => el.scrollHeight > el.clientHeight + 1;
  const CONTAINERS = new Set(['list', 'listbox', 'grid', 'table', 'treegrid', 'tree', 'feed', 'log', 'region', 'main',
    'tabpanel', 'dialog', 'complementary', 'navigation', 'article', 'document']);

  // what moved since `w`: the window, a pane (the innermost scroller whose offset changed) or the page's
  // own content there (other elements, boxes or text at the middle); null: nothing
  function what(w) {
    const now = look();
    if (now.y !== w.y || now.x !== w.x) return { what: 'window' };
    const i = w.els.findIndex((el, k) => offset(el) !== w.off[k]);
    if (i >= 0) return Object.assign({ what: 'pane', scroll_top: Math.round(w.els[i].scrollTop) }, named(w.els, i));
    const d = now.els.length - w.els.length, tip = w.els.length - w.still;
    const same = d >= -tip && w.els.every((el, k) => k < tip || (el === now.els[k + d] && w.box[k] === now.box[k + d]));
    return same && (tip > 0 || (d === 0 && now.text === w.text)) ? null : Object.assign({ what: 'content' }, named(now.els, 1));
  }

  // the scrolled pane or the moving content told by the first container around it (role and name), if any
  function named(els, from) {
    for (const el of els.slice(from, -1)) {
      const c = Act.current(el);
      if (CONTAINERS.has(c.role)) return { role: c.role, name: c.name };
    }
    return {};
  }

  // After the wheel: once its event came and its handlers ran, wait while the work they started is pending
  // (`key`: the main world's watcher, act.js settle), an animation they started runs there, or the
  // browser is about to scroll (the event not cancelled, a scroller with room that way); two frames at
  // most for a wheel whose event never came (a frame at the middle takes it). What moved is told once
  // it came to rest (its offset then), the wait bounded by MAX_FRAMES.
  const MAX_FRAMES = 60;
  async function moved(key) {
    const w = wheel;
    const frame = /^(IFRAME|FRAME|EMBED|OBJECT)$/.test(w.els[0] && w.els[0].tagName);
    const hooked = !!key && Act.asks(key + '?');
    if (!frame) await Promise.race([w.arrived, Act.nextFrame().then(Act.nextFrame)]);
    const scrollers = w.els.filter(scroller);
    const way = scrollers.some((el) => room(el) && (w.down ? el.scrollTop + el.clientHeight < el.scrollHeight - 1 : el.scrollTop > 0));
    // (an event not come yet: it may still scroll)
    const going = () => !frame && (!w.event || (!w.event.defaultPrevented && way));
    const busy = () => (hooked && Act.asks(key)) || animations(w.els).some((a) => !w.anims.has(a) && a.playState === 'running');
    let m = null;
    for (let frames = 0; frames < MAX_FRAMES; frames++) {
      m = what(w) || m;
      if (!busy() && (m || frames >= 10 || (hooked && !going()))) break;
      await Act.nextFrame();
    }
    w.ends.abort();
    m = m || (frame && { what: 'frame' });  // (its own scroll is not read from here)
    return Object.assign({ y: scrollY, room: scrollers.some(room), took: !!w.event && w.event.defaultPrevented }, m && { moved: m });
  }

  return { start, moved };
