// The generated sites' own behaviour (a plain page script, like a real site's bundle): lists that
// re-render, recycle and reorder rows; fields whose handlers filter, reformat or revert values; a
// checkbox that undoes itself; a select that reverts; modals, popups, late content, replaced
// buttons, smooth scrolling, frames that navigate themselves. `window.__site.poke(k)` changes the
// page as its own timers would (the fuzzer calls it between commands), in this document and, by
// postMessage, in every frame below it. Deferred work goes through __oracle.later/frame/fetch so the
// oracle knows when the page has settled.
// The page's model: every record it renders (a list item, a grid row, a route's article) has a model
// id the page keeps itself (`model`, rewritten when a node is recycled for another record) and shows
// in its text as `#ID`; `recordOf(el)` is the record an element belongs to now (the oracle logs it with
// every event, so the judge sees whose row a click reached).
(() => {
  const O = window.__oracle;
  const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
  const status = (text) => { const s = document.querySelector('[data-status]'); if (s) s.textContent = text; };
  const model = new WeakMap();
  const setRec = (el, id) => { model.set(el, id); };
  function recordOf(el) {
    for (let x = el; x; x = x.parentElement || (x.getRootNode && x.getRootNode().host) || null) {
      if (model.has(x)) return model.get(x);
    }
    return null;
  }
  const recId = (item) => 'l' + item.replace(/[^A-Za-z0-9]/g, '');

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
      setRec(li, recId(item));
      const tok = document.createElement('small');
      tok.textContent = ' #' + recId(item);
      const open = document.createElement('button');
      open.textContent = 'Open ' + item;
      open.dataset.do = 'open';
      const rm = document.createElement('button');
      rm.textContent = 'Remove ' + item;
      rm.dataset.do = 'remove';
      li.append(span, tok, ' ', open, ' ', rm);
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
        const tok = li.querySelector('small');
        if (span && open && rm && tok) {
          span.textContent = it; open.textContent = 'Open ' + it; rm.textContent = 'Remove ' + it;
          tok.textContent = ' #' + recId(it); setRec(li, recId(it));
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


  // ---- a grid of people, sorted, filtered and scrolled by its own controls; its rows are recycled ----
  // (the same <tr> and <button>Delete</button> nodes show another person: data-id and the name cell
  // are rewritten in place, as a virtualised grid does). Filtering waits for a debounce timer and a
  // fetch, then renders.
  const PEOPLE = ['Zoe', 'Adam', 'Ben', 'Cleo', 'Dina', 'Eve', 'Finn', 'Gus'];
  function gridState(sec) {
    if (!sec.__grid) sec.__grid = { people: PEOPLE.map((n, i) => ({ id: i + 1, name: n })), by: 'id', q: '', top: 0 };
    return sec.__grid;
  }
  function renderGrid(sec) {
    const g = gridState(sec);
    const body = sec.querySelector('tbody');
    let rows = g.people.filter((p) => p.name.toLowerCase().includes(g.q.toLowerCase()));
    rows.sort((a, b) => (g.by === 'name' ? a.name.localeCompare(b.name) : a.id - b.id));
    g.top = Math.min(g.top, Math.max(0, rows.length - 4));
    rows = rows.slice(g.top, g.top + 4);
    const trs = $$(':scope > tr', body);
    rows.forEach((p, i) => {
      let tr = trs[i];
      if (!tr) {
        tr = document.createElement('tr');
        tr.innerHTML = '<td></td><td><button data-do="grid-del">Delete</button> <button data-do="grid-edit">Edit</button> <span></span></td>';
        const host = tr.querySelector('span');
        const root = host.attachShadow({ mode: 'closed' }); // a star the page draws in a closed shadow root
        root.innerHTML = '<button data-do="grid-star">Star</button>';
        O.closed(root);  // the oracle sees into it; verdex resolves it through the protocol
        root.firstChild.addEventListener('click', () => status('Starred ' + recordOf(host)));
        body.appendChild(tr);
      }
      tr.dataset.id = String(p.id);
      tr.firstElementChild.textContent = p.name + ' #g' + p.id;
      setRec(tr, 'g' + p.id);
    });
    trs.slice(rows.length).forEach((tr) => tr.remove());
  }
  function gridAct(sec, d, t) {
    const g = gridState(sec);
    const rec = recordOf(t);
    if (d === 'grid-del') { g.people = g.people.filter((p) => 'g' + p.id !== rec); status('Deleted ' + rec); }
    else if (d === 'grid-edit') { status('Editing ' + rec); return; }
    else if (d === 'grid-sort-name') g.by = 'name';
    else if (d === 'grid-sort-id') g.by = 'id';
    else if (d === 'grid-down') g.top += 2;
    else if (d === 'grid-up') g.top = Math.max(0, g.top - 2);
    renderGrid(sec);
  }
  document.addEventListener('input', (e) => {
    const sec = e.target.closest && e.target.closest('[data-grid]');
    if (!sec || !e.target.matches('input')) return;
    const q = e.target.value;
    clearTimeout(sec.__debounce);
    O.later(() => {}, 200); // the debounce, for the oracle's settle
    sec.__debounce = setTimeout(() => O.fetch('/data/filter?q=' + encodeURIComponent(q)).then(() => {
      gridState(sec).q = q; gridState(sec).top = 0; renderGrid(sec);
    }), 200);
  });

  // ---- routes: pushState, the same article, heading and buttons show another user ----
  const USERS = ['Alice', 'Bob', 'Cleo', 'Dan'];
  function renderRoute() {
    const art = document.querySelector('[data-route-view]');
    if (!art) return;
    const u = Number(new URLSearchParams(location.search).get('u') || 1);
    art.querySelector('h2').textContent = 'User ' + USERS[u - 1] + ' #u' + u;
    art.querySelector('p').textContent = USERS[u - 1].toLowerCase() + '@example.com';
    setRec(art, 'u' + u);
  }
  window.addEventListener('popstate', renderRoute);

  // ---- a timer, then a fetch, then a render ----
  function chain(sec) {
    O.later(() => O.fetch('/data/stock').then((n) => {
      sec.querySelector('p').textContent = 'Stock: ' + n + ' left';
      if (!sec.querySelector('[data-reserve]')) {
        const b = document.createElement('button');
        b.dataset.do = 'status'; b.dataset.reserve = '1'; b.textContent = 'Reserve one';
        sec.appendChild(b);
      }
    }), 150);
  }

  // ---- a form rendered by a function on every input and click (innerHTML: new controls each time) ----
  function renderForm(sec, focus) {
    const st = sec.__form || (sec.__form = { nick: '', alerts: false });
    const esc = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    sec.querySelector('div').innerHTML = '<label>Nickname <input data-field="nick" value="' + esc(st.nick) + '"></label> '
      + '<label><input type="checkbox" data-field="alerts"' + (st.alerts ? ' checked' : '') + '> Alerts</label>';
    if (focus) { const el = sec.querySelector('[data-field="' + focus + '"]'); el.focus(); if (el.type !== 'checkbox') el.setSelectionRange(el.value.length, el.value.length); }
  }
  document.addEventListener('input', (e) => {
    const sec = e.target.closest && e.target.closest('[data-rebuild]');
    if (!sec || e.target.dataset.field !== 'nick') return;
    sec.__form.nick = e.target.value.toUpperCase();
    renderForm(sec, 'nick');
  });
  document.addEventListener('change', (e) => {
    const sec = e.target.closest && e.target.closest('[data-rebuild]');
    if (!sec || e.target.dataset.field !== 'alerts') return;
    sec.__form.alerts = e.target.checked;
    renderForm(sec, 'alerts');
  });

  // ---- a text that changes after its 100th character ----
  const LONG = 'Your order of three items ships from our warehouse in two to four working days; tracking follows by email. Status: ';
  function longText(sec, flip) {
    const p = sec.querySelector('p');
    const st = flip ? (p.textContent.endsWith('pending') ? 'confirmed' : 'pending') : 'pending';
    p.textContent = LONG + st;
    if (flip) O.note('long');  // two flips in one command (a double click) change nothing
  }

  // ---- a frame written with document.write (no doctype: quirks mode) ----
  function writeFrame(f, i) {
    const d = f.contentDocument;
    if (!d) return;
    d.open();
    d.write('<html><head><script src="/oracle.js" data-doc="' + O.doc + 'w' + i + '"><\/script></head><body>'
      + '<p>Written frame</p><button data-do="status">Written ' + i + '</button> <a href="#" data-do="status">More</a>'
      + '<p data-status role="status"></p><script src="/site.js"><\/script></body></html>');
    d.close();
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
    const grid = t.closest('[data-grid]');
    if (grid && d && d.startsWith('grid-')) { gridAct(grid, d, t); return; }
    if (d === 'route') { e.preventDefault(); history.pushState({}, '', t.getAttribute('href')); renderRoute(); return; }
    if (d === 'chain') { chain(t.closest('section')); return; }
    if (d === 'long') { longText(t.closest('section'), true); return; }
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
    () => $$('[data-grid]').forEach((g) => gridAct(g, 'grid-sort-name', g)),
    () => $$('[data-grid]').forEach((g) => gridAct(g, 'grid-down', g)),
    () => { const a = document.querySelector('[data-do=route]:not([href$="u=1"])'); if (a) { history.pushState({}, '', a.getAttribute('href')); renderRoute(); } },
    () => $$('[data-long]').forEach((s) => longText(s, true)),
  ];
  function poke(k) {
    pokes[k % pokes.length]();
    for (let i = 0; i < window.length; i++) window[i].postMessage({ sitePoke: k + i + 1 }, '*');
  }
  window.addEventListener('message', (e) => {
    if (e.data && typeof e.data === 'object' && typeof e.data.sitePoke === 'number') poke(e.data.sitePoke);
  });

  $$('[data-list]').forEach((s) => renderList(s, 'new'));
  $$('[data-grid]').forEach(renderGrid);
  $$('[data-rebuild]').forEach((s) => renderForm(s));
  $$('[data-long]').forEach((s) => longText(s, false));
  renderRoute();
  $$('iframe[data-write]').forEach(writeFrame);
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
  window.__site = { poke, recordOf };
})();
