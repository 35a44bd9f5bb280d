// The generated sites' own behaviour (a plain page script, like a real site's bundle): lists that
// re-render, recycle and reorder rows; fields whose handlers filter, reformat or revert values; a
// checkbox that undoes itself; a select that reverts; modals, popups, late content, replaced
// buttons, smooth scrolling, frames that navigate themselves. `window.__site.poke(k)` changes the
// page as its own timers would (the fuzzer calls it between commands), in this document and, by
// postMessage, in every frame below it. Deferred work goes through __oracle.later/frame so the
// oracle knows when the page has settled.
(() => {
  const O = window.__oracle;
  const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
  const status = (text) => { const s = document.querySelector('[data-status]'); if (s) s.textContent = text; };

  // ---- lists ----
  function renderList(sec, mode) {
    const ul = sec.querySelector('ul');
    const items = JSON.parse(sec.dataset.items);
    const keyed = sec.dataset.keyed === '1';
    const rows = $$(':scope > li', ul);
    const fill = (li, item) => {
      if (keyed) li.dataset.key = item;
      li.innerHTML = '';
      const span = document.createElement('span');
      span.textContent = item;
      const open = document.createElement('button');
      open.textContent = 'Open ' + item;
      open.dataset.do = 'open';
      const rm = document.createElement('button');
      rm.textContent = 'Remove ' + item;
      rm.dataset.do = 'remove';
      li.append(span, ' ', open, ' ', rm);
    };
    if (mode === 'new' || rows.length === 0) {
      ul.replaceChildren(...items.map((it) => { const li = document.createElement('li'); fill(li, it); return li; }));
      return;
    }
    if (keyed && mode !== 'recycle') { // keyed: keep each item's node, move it into place
      const byKey = new Map(rows.map((li) => [li.dataset.key, li]));
      const out = items.map((it) => byKey.get(it) || (() => { const li = document.createElement('li'); fill(li, it); return li; })());
      rows.forEach((li) => { if (!items.includes(li.dataset.key)) li.remove(); });
      out.forEach((li) => ul.appendChild(li));
      return;
    }
    // recycle: the same <li> nodes take other items (the oracle is told: another element)
    items.forEach((it, i) => {
      let li = rows[i];
      if (!li) { li = document.createElement('li'); fill(li, it); ul.appendChild(li); return; }
      const was = li.firstElementChild ? li.firstElementChild.textContent : null;
      if (was !== it) {
        // reuse the very nodes: rename the controls in place, no new buttons
        const [span, open, rm] = [li.querySelector('span'), li.querySelector('[data-do=open]'), li.querySelector('[data-do=remove]')];
        if (span && open && rm) {
          span.textContent = it; open.textContent = 'Open ' + it; rm.textContent = 'Remove ' + it;
          if (keyed) li.dataset.key = it;
        } else fill(li, it);
        O.renew(li, it);
      }
    });
    rows.slice(items.length).forEach((li) => li.remove());
  }
  function listAct(sec, what, item) {
    let items = JSON.parse(sec.dataset.items);
    const mode = sec.dataset.mode;
    if (what === 'remove') items = items.filter((x) => x !== item);
    if (what === 'shuffle') items = items.slice(1).concat(items.slice(0, 1)).reverse();
    if (what === 'add') items.push(sec.dataset.more.split(',')[items.length % 5] + ' ' + (items.length + 1));
    if (what === 'open') { status('Opened ' + item); return; }
    sec.dataset.items = JSON.stringify(items);
    renderList(sec, what === 'rerender' ? 'new' : mode);
  }

  // ---- fields ----
  const filters = {
    digits: (el) => { el.value = el.value.replace(/\D/g, ''); },
    upper: (el) => O.frame(() => { el.value = el.value.toUpperCase(); }),
    clear: (el) => O.later(() => { if (!/^[A-Z0-9]{4,}$/.test(el.value)) el.value = ''; }, 30),
    phone: (el) => O.later(() => { const d = el.value.replace(/\D/g, ''); el.value = d.length > 3 ? d.slice(0, 3) + '-' + d.slice(3) : d; }, 40),
  };
  document.addEventListener('input', (e) => {
    const f = e.target.dataset && filters[e.target.dataset.filter];
    if (f) f(e.target);
  });
  let selWas = new WeakMap();
  document.addEventListener('focusin', (e) => { if (e.target.localName === 'select') selWas.set(e.target, e.target.value); });
  document.addEventListener('change', (e) => {
    const el = e.target;
    if (el.dataset && el.dataset.revert === '1' && el.value === 'out') {
      el.value = selWas.get(el) || el.options[0].value;
      status('Out of stock');
    } else if (el.localName === 'select') selWas.set(el, el.value);
    if (el.dataset && el.dataset.gate) {
      const b = document.getElementById(el.dataset.gate);
      if (b) b.disabled = !el.checked;
    }
  });

  // ---- clicks ----
  document.addEventListener('click', (e) => {
    const t = e.target.closest ? e.target.closest('[data-do],[data-undo],input[type=checkbox]') : null;
    if (!t) return;
    if (t.dataset.undo === 'sync') { e.preventDefault(); return; }
    if (t.dataset.undo === 'later') { const want = !t.checked; O.later(() => { t.checked = want; }, 20); return; }
    const sec = t.closest('[data-list]');
    const d = t.dataset.do;
    if (sec && d) { const li = t.closest('li'); listAct(sec, d, li && li.querySelector('span') ? li.querySelector('span').textContent : null); return; }
    if (d === 'popup') window.open(t.dataset.url, '_blank');
    else if (d === 'dialog') document.querySelector('dialog').showModal();
    else if (d === 'close') t.closest('dialog').close();
    else if (d === 'accept') t.closest('[data-cover]').remove();
    else if (d === 'toggle') { const r = document.getElementById(t.getAttribute('aria-controls')); r.hidden = !r.hidden; }
    else if (d === 'top') window.scrollTo({ top: 0, behavior: 'smooth' });
    else if (d === 'more') O.later(() => lateRows(t.closest('section')), 50);
    else if (d === 'replace') { // a framework re-render: a new node with the same text
      const b = t.cloneNode(true); t.replaceWith(b); status('Saved');
    } else if (d === 'next') O.later(() => location.replace(t.dataset.url), 10);
    else if (d === 'status') status(t.textContent + ' done');
  });

  function lateRows(sec) {
    const n = $$('p[data-late]', sec).length + 1;
    const p = document.createElement('p');
    p.dataset.late = String(n);
    const b = document.createElement('button');
    b.textContent = 'Late offer ' + n;
    b.dataset.do = 'status';
    p.append('Offer ' + n + ': ', b);
    sec.appendChild(p);
  }

  // ---- changes the page makes on its own (timers; the fuzzer's eval pokes) ----
  const pokes = [
    () => $$('[data-list]').forEach((s) => listAct(s, 'shuffle')),
    () => $$('[data-list]').forEach((s) => listAct(s, 'rerender')),
    () => $$('[data-list]').forEach((s) => { s.dataset.mode = 'recycle'; listAct(s, 'shuffle'); }),
    () => $$('[data-late-sec]').forEach(lateRows),
    () => $$('[data-do=toggle]').forEach((b) => b.click()),
    () => $$('[data-do=replace]').forEach((b) => b.replaceWith(b.cloneNode(true))),
    () => { const b = document.querySelector('[data-next]'); if (b) location.replace(b.dataset.next); },
    () => { const d = document.querySelector('dialog'); if (d && !d.open) d.showModal(); else if (d) d.close(); },
    () => $$('button[data-flip]').forEach((b) => { b.disabled = !b.disabled; }),
  ];
  function poke(k) {
    pokes[k % pokes.length]();
    for (let i = 0; i < window.length; i++) window[i].postMessage({ sitePoke: k + i + 1 }, '*');
  }
  window.addEventListener('message', (e) => {
    if (e.data && typeof e.data === 'object' && typeof e.data.sitePoke === 'number') poke(e.data.sitePoke);
  });

  $$('[data-list]').forEach((s) => renderList(s, 'new'));
  const auto = document.querySelector('[data-auto-next]');
  if (auto) O.later(() => location.replace(auto.dataset.autoNext), Number(auto.dataset.after));
  $$('[data-late-sec]').forEach((s) => O.later(() => lateRows(s), Number(s.dataset.after || 120)));
  $$('iframe[data-ad]').forEach((f) => O.later(() => { f.style.height = f.dataset.h + 'px'; f.style.border = ''; sweep(f); },
    Number(f.dataset.after)));
  // ... then a carousel: for 200 ms of every second it jumps down over what follows it and back, every
  // 4 ms (a transform: nothing else moves, so a point checked while it is away can meet it on arrival).
  // Plain timers: the oracle does not wait for them (they never end)
  function sweep(f) {
    let t0 = 0;
    const burst = () => {
      if (!f.isConnected) return;
      const t = performance.now();
      if (!t0) t0 = t;
      if (t - t0 < 200) {
        f.style.transform = f.style.transform ? '' : 'translateY(' + f.dataset.h + 'px)';
        setTimeout(burst, 4);
      } else {
        f.style.transform = '';
        t0 = 0;
        setTimeout(burst, 800);
      }
    };
    setTimeout(burst, 800);
  }
  window.__site = { poke };
})();
