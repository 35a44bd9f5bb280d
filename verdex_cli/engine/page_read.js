// Reads of the page's own (main) world, by name: nothing here changes the page.
(what, was) => {
  if (what === 'title') return document.title;
  if (what === 'readyState') return document.readyState;
  if (what === 'alive') return 0;  // a document that answers at all is not busy
  // what a wheel at the middle of the viewport may scroll: the window, the element there and its ancestors
  const chain = () => {
    const out = [document.scrollingElement || document.documentElement];
    for (let el = document.elementFromPoint(innerWidth / 2, innerHeight / 2); el;
      el = el.assignedSlot || el.parentElement || el.getRootNode().host) out.push(el);
    return out;
  };
  const key = () => [scrollX, scrollY, ...chain().map((el) => el.scrollLeft + ',' + el.scrollTop)].join(' ');
  if (what === 'scrolls') return [key(), innerWidth, innerHeight];  // and where the wheel goes: the middle
  if (what === 'scrolled') {  // after a wheel: whether anything moved once drawn (two frames; ten if not)
    return new Promise((r) => {
      let frames = 0;
      const look = () => {
        const moved = key() !== was;
        if (++frames < 10 && !(moved && frames > 1)) return requestAnimationFrame(look);
        const c = chain();
        const room = c.some((el, i) => el.scrollHeight > el.clientHeight + 1
          && (i === 0 || /auto|scroll|overlay/.test(getComputedStyle(el).overflowY)));
        r({ y: scrollY, moved, room, frame: /^(IFRAME|FRAME|EMBED|OBJECT)$/.test(c[1] && c[1].tagName) });
      };
      requestAnimationFrame(look);
    });
  }
  throw new Error('no such read: ' + what);
}
