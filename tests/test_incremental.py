"""Incremental capture (engine/incremental.js): after a change, a frame's bridge re-walks only what the
change can reach and the tree is patched. The suite runs with VERDEX_CHECK_PATCHES (conftest), so every
patched snapshot here is also compared with a whole capture of the same page, and a difference fails
the command; these tests add that patches are really used, and drive many kinds of change."""

from __future__ import annotations

import json
import random

import pytest

from verdex_cli.snapshot import capture, take

PAGE = r"""
<style>
  .off { display: none }
  .caps { text-transform: uppercase }
  .tag::before { content: "new " }
</style>
<header><nav><a href="#a" id="l1">Home</a> <a href="#b"><span id="ls">Shop</span> <b>now</b></a></nav></header>
<main>
  <h1 id="title">Store</h1>
  <p id="status" role="status">Ready</p>
  <button id="b1"><span id="bs">Add</span> to cart</button>
  <span id="lab">Quantity label</span>
  <input id="q" aria-labelledby="lab" value="1">
  <label for="email" id="el">Email</label> <input id="email">
  <label><input type="checkbox" id="all"> All toppings</label>
  <label><input type="checkbox" class="top" value="a"> Cheese</label>
  <label><input type="checkbox" class="top" value="b"> Olives</label>
  <fieldset><legend>Size</legend>
    <label><input type="radio" name="size" id="s1" checked> Small</label>
    <label><input type="radio" name="size" id="s2"> Large</label></fieldset>
  <select id="sel"><option>Red</option><option>Green</option><option>Blue</option></select>
  <ul id="list"><li>One</li><li>Two <a href="#t">link</a></li><li class="caps">three</li></ul>
  <table><thead><tr><th>Name</th><th>Buy</th></tr></thead>
    <tbody id="rows"><tr><td>Mug</td><td><button>Buy mug</button></td></tr>
    <tr><td>Cup</td><td><button>Buy cup</button></td></tr></tbody></table>
  <details id="det"><summary>More</summary><p>Hidden text <a href="#h">inner link</a></p></details>
  <div id="host"></div>
  <section aria-label="Cards"><div class="card"><h2>Card A</h2><button>Open A</button></div>
    <div class="card off"><h2>Card B</h2><button>Open B</button></div></section>
</main>
<script>
  document.getElementById('all').addEventListener('change', (e) => {
    for (const c of document.querySelectorAll('.top')) c.checked = e.target.checked;  // no event, no mutation
  });
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<button id="sb">Shadow button</button><p>Shadow text</p>';
</script>
"""

CHANGES = [
    # (what, page script)
    ("text of a status", "document.getElementById('status').textContent = 'Saved'"),
    ("text inside a link named from content", "document.getElementById('ls').textContent = 'Store'"),
    ("text inside a button", "document.getElementById('bs').textContent = 'Added'"),
    ("text of an aria-labelledby source", "document.getElementById('lab').textContent = 'How many'"),
    ("text of a label for another control", "document.getElementById('el').textContent = 'E-mail address'"),
    ("a field value set by script", "document.getElementById('q').value = '7'"),
    ("checked set by script on another box", "document.querySelector('.top').checked = true"),
    ("a radio group by script", "document.getElementById('s2').checked = true"),
    ("a select option by script", "document.getElementById('sel').selectedIndex = 2"),
    ("a list item added", "document.getElementById('list').append(Object.assign(document.createElement('li'), {textContent: 'Four'}))"),
    ("a list item removed", "document.querySelector('#list li').remove()"),
    ("a class that hides", "document.querySelector('.card').classList.add('off')"),
    ("a class that shows", "document.querySelector('.card.off').classList.remove('off')"),
    ("a class with generated content", "document.getElementById('title').classList.add('tag')"),
    ("text-transform by class", "document.querySelector('#list li').classList.add('caps')"),
    ("a row added", "document.getElementById('rows').insertAdjacentHTML('beforeend', '<tr><td>Bowl</td><td><button>Buy bowl</button></td></tr>')"),
    ("aria-label on a heading", "document.getElementById('title').setAttribute('aria-label', 'Our store')"),
    ("hidden attribute", "document.getElementById('b1').hidden = true"),
    ("details opened", "document.getElementById('det').open = true"),
    ("shadow text", "document.getElementById('host').shadowRoot.querySelector('button').textContent = 'Shadow go'"),
    ("title", "document.title = 'New title'"),
    ("an id that aria-labelledby names appears", "document.getElementById('lab').id = 'gone'; document.getElementById('q').setAttribute('aria-labelledby', 'x2'); document.body.append(Object.assign(document.createElement('span'), {id: 'x2', textContent: 'Late label'}))"),
]


@pytest.fixture
def patched(monkeypatch):
    """How many frames were patched (not captured whole) since the fixture started: trees spliced, or
    texts the page rendered again after patching its tree."""
    count = [0]
    real = capture.splice

    def counting(*a, **kw):
        count[0] += 1
        return real(*a, **kw)

    monkeypatch.setattr(capture, "splice", counting)
    real_view = capture._frame_view

    def counting_view(ctx, fr, depth, data, old):  # a frame that answered its text: patched when it says its title
        if "title" in data:
            count[0] += 1
        return real_view(ctx, fr, depth, data, old)

    monkeypatch.setattr(capture, "_frame_view", counting_view)
    return count


def _page(driver, demo):
    assert take.CHECK_PATCHES, "the suite compares patched snapshots with whole ones (conftest)"
    driver.ok("open " + demo.url("blank.html"))
    driver.js(f"document.open(); document.write({PAGE!r}); document.close(); 1")
    driver.ok("snapshot")


@pytest.mark.parametrize("what, script", CHANGES, ids=[c[0] for c in CHANGES])
def test_each_kind_of_change_is_patched_as_a_whole_capture_would_show_it(driver, demo, patched, what, script):
    _page(driver, demo)
    driver.js(script + "; 1")
    out = driver.ok("snapshot").data  # fails here if the patched tree differs from a whole capture
    assert out["cached"] is False
    fresh = driver.ok("snapshot --fresh").data
    assert out["text"] == fresh["text"]
    assert out["refs"] == fresh["refs"]


def test_small_changes_are_patches_not_whole_captures(driver, demo, patched):
    _page(driver, demo)
    for script in ("document.getElementById('status').textContent = 'One'",
                   "document.getElementById('bs').textContent = 'Two'",
                   "document.getElementById('q').value = '3'"):
        before = patched[0]
        driver.js(script + "; 1")
        driver.ok("snapshot")
        assert patched[0] == before + 1, script


def test_an_action_with_a_side_effect_elsewhere_shows_it(driver, demo, patched):
    """'All toppings' checks the other boxes from a script: no event, no mutation on them."""
    _page(driver, demo)
    text = driver.ok("snapshot").data["text"]
    ref = next(line.split("[ref=")[1].rstrip("]") for line in text.splitlines() if "All toppings" in line)
    changes = driver.ok("check " + ref).data["changes"]
    names = sorted(c["name"] for c in changes["changed"])
    assert names == ["All toppings", "Cheese", "Olives"]
    assert patched[0] >= 1


def _restyled(driver, demo, body: str, change: str) -> tuple[str, str]:
    """Snapshot texts before and after `change` (JS) on a blank page whose body is `body`."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("document.body.innerHTML = " + json.dumps(body) + "; 1")
    before = driver.ok("snapshot").data["text"]
    driver.js(change + "; 1")
    return before, driver.ok("snapshot").data["text"]


def test_has_rules_make_the_whole_frame_captured(driver, demo, patched):
    """A :has() rule that hides can restyle an ancestor of the change: no patch is trusted."""
    count = patched[0]
    before, after = _restyled(driver, demo, '<style>.box:has(.on) .tip {display:none}</style>'
                              '<div class="box"><p class="tip">Tip</p><div><span id="s">x</span></div></div>',
                              "document.getElementById('s').className = 'on'")
    assert "Tip" in before and "Tip" not in after and patched[0] == count


def test_sibling_rules_reach_the_later_siblings(driver, demo, patched):
    before, after = _restyled(driver, demo, '<style>.a.on + .b {display:none}</style>'
                              '<main><button class="a">First</button><button class="b">Second</button></main>',
                              "document.querySelector('.a').classList.add('on')")
    assert "Second" in before and "Second" not in after


OPS = [
    "el.textContent = 'T' + n",
    "el.classList.toggle('off')",
    "el.hidden = !el.hidden",
    "el.setAttribute('aria-label', 'L' + n)",
    "el.removeAttribute('aria-label')",
    "el.remove()",
    "el.parentNode && el.parentNode.insertBefore(el.cloneNode(true), el)",
    "el.append(Object.assign(document.createElement('button'), {textContent: 'New ' + n}))",
    "if ('value' in el && el.localName !== 'li') el.value = 'v' + n",
    "if ('checked' in el) el.checked = !el.checked",
    "el.setAttribute('role', ['button', 'link', 'heading', 'none', 'listitem'][n % 5])",
    "document.querySelector('main').appendChild(el)",
    "el.innerHTML = '<b>bold ' + n + '</b><input value=x' + n + '><label>lab' + n + '</label>'",
    "el.style.display = el.style.display ? '' : 'none'",
    "el.style.visibility = el.style.visibility ? '' : 'hidden'",
    "el.setAttribute('aria-hidden', 'true')",
    "el.setAttribute('tabindex', '0')",
    "el.setAttribute('aria-checked', 'true')",
    "el.setAttribute('aria-expanded', n % 2 ? 'true' : 'false')",
    "el.setAttribute('title', 'tt' + n)",
    "el.setAttribute('aria-disabled', 'true')",
    "if (el.firstChild && el.firstChild.nodeType === 3) el.firstChild.data = 'd' + n",
    "el.insertAdjacentText('beforeend', ' more' + n)",
    "el.id = 'lab'",
    "el.setAttribute('for', 'email')",
    "document.getElementById('all') && document.getElementById('all').click()",
    "el.click()",
    "el.focus()",
    "el.setAttribute('class', 'tag')",
    "el.setAttribute('class', 'caps')",
    "el.replaceWith(document.createTextNode('replaced ' + n))",
    "el.before(document.createElement('hr'))",
    "el.setAttribute('aria-labelledby', 'title ls')",
    "el.setAttribute('alt', 'alt' + n)",
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_changes_match_whole_captures(driver, demo, patched, seed):
    """Random mutations of random elements, a snapshot after each pair (each compared with a whole
    capture by VERDEX_CHECK_PATCHES); most of them are patches."""
    _page(driver, demo)
    rng = random.Random(seed)
    for n in range(40):
        for _ in range(2):
            op = rng.choice(OPS)
            pick = rng.random()
            driver.js(f"""(() => {{ const all = [...document.querySelectorAll('main *, nav *')]
                .filter(e => e.localName !== 'script' && e.localName !== 'style');
              if (!all.length) return 1;
              const el = all[Math.floor({pick} * all.length)]; const n = {n};
              try {{ {op}; }} catch (e) {{}}
              return 1; }})()""")
        driver.ok("snapshot")
    assert patched[0] >= 10


def test_patches_that_cross_the_compact_limit(driver, demo, patched):
    """Ref counts are kept through patches: crossing 100 interactive elements turns compact mode on
    and off exactly as a whole capture would."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<main>' + Array.from({length: 96}, (_, i) => '<button>B' + i + '</button>')
      .join('') + '<div role="listbox" aria-label="Pick"><div id="opts"></div></div></main>'; 1""")
    assert "note" not in driver.ok("snapshot").data["text"]
    driver.js("""document.getElementById('opts').innerHTML = Array.from({length: 8},
      (_, i) => '<div role="option">O' + i + '</div>').join(''); 1""")
    out = driver.ok("snapshot").data
    assert any("refs shown for the 96 controls only" in n for n in out["notes"]), out["notes"]
    driver.js("document.getElementById('opts').innerHTML = ''; 1")
    out = driver.ok("snapshot").data
    assert not any("controls only" in n for n in out["notes"])
    assert patched[0] >= 2
