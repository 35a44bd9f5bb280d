"""Snapshot text keeps the word boundaries a reader sees (README, "Snapshot text format").

Seeded random mixes of inline and block elements, `<br>`, `<wbr>` and white space are compared with
the element's rendered text (`innerText`, whitespace-normalised), read by a plain page script: the
texts of the snapshot lines under each case, in order, must spell that rendered text, word for word.
Where two lines meet (a text run and an element node) the rendered text may or may not have a space,
inside one line the words and spaces must be exactly the rendered ones ("Hello world", never
"Helloworld", never "Hel lo"). The page is then mutated at random and captured again: the capture is
a patch (engine/incremental.js), checked against a whole capture by VERDEX_CHECK_PATCHES=1
(tests/conftest.py), and compared with the rendered text again.
"""

from __future__ import annotations

import json
import random
import re

import pytest

WORDS = ["alpha", "beta", "gamma", "delta", "async", "function", "one", "two", "Hello", "world", "x", "y7"]
SPACES = [" ", "  ", "\n  ", "\t", " \n"]
INLINE = ["span", "b", "i", "u", "small", "span style=\"display:inline-block\"", "span style=\"display:contents\"",
          "a"]  # (an <a> without href is generic)
# (no CSS tables: a lone cell or row gets an anonymous table around it, a block a reader sees, which
# innerText does not count; and whether Chrome renders white space between inline content in a table
# box depends on how its anonymous cells were built)
BLOCK = ["div", "span style=\"display:block\"", "div style=\"display:flex\"", "section",
         "div style=\"display:grid\"", "span style=\"float:left\"", "li"]
NODES = ["p", "em", "strong", "code", "mark"]  # elements that are nodes of their own (their own lines)


def fragment(rng: random.Random, depth: int) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        pick = rng.random()
        if pick < 0.35 or depth > 3:
            parts.append(rng.choice(WORDS))
        elif pick < 0.5:
            parts.append(rng.choice(SPACES))
        elif pick < 0.58:
            parts.append(rng.choice(["<br>", "<wbr>"]))
        else:
            tag = rng.choice(INLINE * 3 + BLOCK * 2 + NODES)
            name = tag.split(" ")[0]
            parts.append(f"<{tag}>{fragment(rng, depth + 1)}</{name}>")
    return "".join(parts)


def short_fragment(rng: random.Random) -> str:
    """A fragment whose text stays under the 100 characters at which a snapshot line is cut."""
    while True:
        html = fragment(rng, 0)
        if len(re.sub(r"<[^>]*>|\s", "", html)) < 70:
            return html


def page(rng: random.Random, cases: int) -> str:
    body = "".join(f'<article aria-label="case {i}">{short_fragment(rng)}</article>\n' for i in range(cases))
    return f"<!doctype html><meta charset=utf-8><title>words</title><body>{body}</body>"


# (each case is laid out anew first: after some of the random mutations Chrome leaves an inserted text
# node without a layout box, unrendered, until its container is laid out again)
RENDERED = """JSON.stringify([...document.querySelectorAll('article')].map((a) => {
  a.style.display = 'none'; a.offsetHeight; a.style.display = '';
  return a.innerText.replace(/\\s+/g, ' ').trim();
}))"""


def pieces_by_case(text: str) -> dict[int, list[str]]:
    """The texts of the lines under each `article "case N"`, in order."""
    out: dict[int, list[str]] = {}
    current, indent = None, 0
    for line in text.splitlines():
        m = re.match(r'^(\s*)- article "case (\d+)"(?:: (.*))?', line)
        if m:
            current, indent = int(m.group(2)), len(m.group(1))
            out[current] = [" ".join(m.group(3).split())] if m.group(3) else []
            continue
        lead = len(line) - len(line.lstrip(" "))
        if current is None or lead <= indent:
            current = None
            continue
        body = line.strip()[2:]
        _, sep, value = body.partition(": ")
        assert not body.startswith(("article", "generic")), line
        if sep and value:
            out[current].append(" ".join(value.split()))
    return out


def spells(rendered: str, pieces: list[str]) -> str | None:
    """None when the pieces, joined with '' or ' ' where two lines meet, are exactly `rendered`."""
    at = 0
    for p in pieces:
        if rendered.startswith(p, at):
            at += len(p)
        elif rendered.startswith(" " + p, at):
            at += 1 + len(p)
        else:
            return f"{p!r} does not follow {rendered[:at]!r} in {rendered!r}"
    if at != len(rendered):
        return f"the snapshot stops at {rendered[:at]!r} of {rendered!r}"
    return None


def compare(driver, cases: int, when: str = "") -> bool:
    """Check every case; True when the capture was a patch."""
    text = driver.ok("snapshot").data["text"]
    patched = any(p["phase"] == "patch f0" for p in driver.ctx.last_timings["phases"])
    rendered = json.loads(driver.js(RENDERED))
    got = pieces_by_case(text)
    bad = []
    for i in range(cases):
        why = spells(rendered[i], got.get(i, []))
        if why:
            html = driver.js(DUMP % i)
            bad.append(f"{when}case {i}: {why}\n  html: {html}\n  lines: {got.get(i)}")
    assert not bad, "\n".join(bad[:5])
    return patched


# the case's DOM with its text nodes set apart (a mutated page may hold text nodes side by side)
DUMP = """(() => {
  const dump = (n) => n.nodeType === 3 ? JSON.stringify(n.data) : n.nodeType !== 1 ? '' :
    '<' + n.localName + (n.getAttribute('style') ? ' style="' + n.getAttribute('style') + '"' : '') + '>' +
    [...n.childNodes].map(dump).join('') + '</' + n.localName + '>';
  return [...document.querySelectorAll('article')[%d].childNodes].map(dump).join('');
})()"""

MUTATE = """(() => {
  const ops = %s;
  const all = [...document.querySelectorAll('article, article :not(br, wbr)')];  // (void elements take no children)
  for (const [op, k, w] of ops) {
    const el = all[k %% all.length];
    if (!el.isConnected) continue;
    const at = el.childNodes[w %% (el.childNodes.length + 1)] || null;
    if (op === 0) el.insertBefore(document.createTextNode(' '), at);
    else if (op === 1) el.insertBefore(document.createElement('br'), at);
    else if (op === 2) el.insertBefore(document.createTextNode(%s[w %% %d]), at);
    else if (op === 3 && at && el.localName !== 'article') at.remove();
    else if (op === 4 && el.localName !== 'article') el.style.display = el.style.display === 'block' ? 'inline' : 'block';
    else if (op === 5) { const s = document.createElement('span'); s.textContent = ' '; el.insertBefore(s, at); }
    else if (op === 6) { const d = document.createElement('div'); d.textContent = %s[k %% %d]; el.insertBefore(d, at); }
  }
  return true;
})()"""


@pytest.mark.parametrize("seed", range(1, 9))
def test_text_runs_spell_the_rendered_text(driver, tmp_path, seed):
    rng = random.Random(seed)
    cases = 60
    path = tmp_path / f"words{seed}.html"
    path.write_text(page(rng, cases), encoding="utf-8")
    driver.ok(f"open {path}")
    compare(driver, cases, f"seed {seed}, as loaded: ")
    words = json.dumps(WORDS)
    patches = 0
    for step in range(4):
        ops = [[rng.randrange(7), rng.randrange(10_000), rng.randrange(10_000)] for _ in range(12)]
        assert driver.js(MUTATE % (json.dumps(ops), words, len(WORDS), words, len(WORDS))) is True
        patches += compare(driver, cases, f"seed {seed}, after mutation {step}: ")
    assert patches, "no capture after a mutation was a patch"  # (the patch path is what is tested here)


def test_reported_cases(driver, tmp_path):
    """The cases of the report: inline elements with white space, <br>, code spans, find."""
    path = tmp_path / "report.html"
    path.write_text("<p><b>Hello</b> <i>world</i></p><p>one<br>two</p>"
                    "<p><span>async</span> <span>function</span></p><div>a<div>b</div>c</div>"
                    "<p>x<span> </span>y</p><p>hel<b>lo</b></p>"
                    "<p><span style='visibility:hidden'>secret <b style='visibility:visible'>shown</b></span></p>",
                    encoding="utf-8")
    driver.ok(f"open {path}")
    text = driver.ok("snapshot").data["text"]
    assert text.splitlines()[1:] == [
        "  - paragraph: Hello world", "  - paragraph: one two", "  - paragraph: async function",
        "  - text: a b c", "  - paragraph: x y", "  - paragraph: hello", "  - paragraph: shown"]
    found = driver.ok("find Hello world").data
    assert [m["text"] for m in found["matches"]] == ["Hello world"]
