  // ---------------------------------------------------------------------
  // Embedded content: image maps, native media controls
  // ---------------------------------------------------------------------

  // The one <tbody> of a table: collapsed in snapshots (it says nothing its
  // rows do not); <thead>, <tfoot>, role=rowgroup and several bodies show.
  function soleBody(el) {
    if (el.localName !== 'tbody' || el.hasAttribute('role')) return false;
    for (let s = el.previousElementSibling; s; s = s.previousElementSibling) {
      if (s.localName === 'tbody') return false;
    }
    for (let s = el.nextElementSibling; s; s = s.nextElementSibling) {
      if (s.localName === 'tbody') return false;
    }
    return true;
  }

  // The <area href> links of an image's map (<img usemap="#name">), in tree
  // order.  Areas have no box of their own (display: none): they are exposed
  // under their image, as Chrome does.
  function mapAreasImpl(img) {
    const want = (img.getAttribute('usemap') || '').trim().replace(/^#/, '');
    if (!want || img.localName !== 'img') return [];
    const root = img.getRootNode();
    if (typeof root.querySelectorAll !== 'function') return [];
    for (const m of root.querySelectorAll('map')) {
      if (m.getAttribute('name') !== want && m.id !== want) continue;
      if ((m.getAttribute('aria-hidden') || '').trim().toLowerCase() === 'true') return [];
      return Array.from(m.querySelectorAll('area[href]'));
    }
    return [];
  }

  // <video controls> / <audio controls>: Chrome draws the controls in a
  // user-agent shadow tree that page scripts (and verdex) cannot reach, but
  // exposes them in its accessibility tree.  This describes them as plain
  // nodes (role, name, states, value) so a snapshot can list them; they carry
  // no element and so never get refs.  Names follow Chrome's.
  function hasMediaControls(el) {
    const tag = el.localName;
    return (tag === 'video' || tag === 'audio') && el.namespaceURI === HTML_NS &&
      el.hasAttribute('controls');
  }

  function clock(seconds) {
    if (!isFinite(seconds) || seconds < 0) return '';
    const s = Math.floor(seconds);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, '0');
    return h ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
  }

  function mediaControlsImpl(el) {
    if (!hasMediaControls(el)) return [];
    const kind = el.localName;
    // Nothing loaded (no source, or it failed): Chrome disables the controls.
    const dead = el.readyState === 0 || !!el.error;
    const off = dead ? { disabled: true } : null;
    const node = (r, n, v) => {
      const o = { r, n };
      if (off) o.s = off;
      if (v) o.v = v;
      return o;
    };
    const list = (el.getAttribute('controlslist') || '').toLowerCase();
    const out = [node('button', el.paused ? 'play' : 'pause')];
    const now = clock(el.currentTime);
    const total = clock(el.duration);
    out.push(node('slider', kind + ' time scrubber', total ? now + ' / ' + total : now));
    out.push(node('button', el.muted ? 'unmute' : 'mute'));
    if (kind === 'video' && list.indexOf('nofullscreen') < 0) {
      out.push(node('button', document.fullscreenElement === el ? 'exit full screen' : 'enter full screen'));
    }
    out.push({ r: 'button', n: 'show more media controls' });
    return out;
  }
