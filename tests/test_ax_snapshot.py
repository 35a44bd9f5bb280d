"""The real snapshot path against Chrome's accessibility engine, on every demo page.

For each demo page, every ref of the main frame that `snapshot --all-refs`
issues is mapped to its DOM node (bridge element -> DOM.describeNode ->
backendNodeId) and its role and name are compared with what
Accessibility.getFullAXTree reports for that node.
"""

from __future__ import annotations

import pytest

from conftest import world_eval

try:
    from . import ax_oracle
except ImportError:  # pragma: no cover
    import ax_oracle

DEMO_PAGES = ["index.html", "shop.html", "form.html", "frames.html", "shadow.html", "spa.html",
              "table.html?rows=40", "dialogs.html", "mutations.html", "popup.html"]
MIN_AGREEMENT = 0.98


def _backend_id(page, frame, n: int) -> int:
    obj = world_eval(page, frame, f"__verdex.bridge.element({n})", by_value=False)
    node = frame.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    return node["backendNodeId"]


class _Calls:
    """The oracle's `call_method` (pychrome's shape) over verdex's own target."""

    def __init__(self, target):
        self.target = target

    def call_method(self, method: str, _timeout: float | None = None, **params):
        return self.target.call(method, _timeout, **params)


def _compare(driver, url: str) -> tuple[int, list[str]]:
    driver.ok("open " + url)
    data = driver.ok("snapshot --all-refs").data
    page = driver.ctx.page
    main = page.frames.main
    chrome = ax_oracle.chrome_ax(_Calls(page.target))
    total, bad = 0, []
    for ref, info in data["refs"].items():
        if info["frame"] != 0:
            continue
        n = int(ref.rsplit("e", 1)[1])
        node = chrome.get(_backend_id(page, main, n))
        total += 1
        if node is None or node["ignored"]:
            bad.append(f"{url} {ref} {info['role']} {info['name']!r}: Chrome leaves it out")
            continue
        same_role = node["role"] == info["role"]
        same_name = ax_oracle.norm_ws(node["name"]) == ax_oracle.norm_ws(info["name"])
        if not (same_role and same_name):
            bad.append(f"{url} {ref}: ours {info['role']} {info['name']!r}, "
                       f"Chrome {node['role']} {node['name']!r}")
    return total, bad


def test_demo_snapshots_agree_with_chrome(driver, demo):
    total, bad = 0, []
    for name in DEMO_PAGES:
        t, b = _compare(driver, demo.url(name))
        total += t
        bad += b
    agreement = 1 - len(bad) / total
    print(f"\n{total} refs on {len(DEMO_PAGES)} demo pages, agreement {agreement:.2%}")
    for line in bad:
        print("  DISAGREE " + line)
    assert total > 150
    assert agreement >= MIN_AGREEMENT, "\n".join(bad)


@pytest.mark.parametrize("name", ["form.html"])
def test_form_page_fully_agrees(driver, demo, name):
    total, bad = _compare(driver, demo.url(name))
    assert total > 30 and not bad, "\n".join(bad)


def test_snapshot_shows_spec_structure(driver):
    """Image-map links, a link inside a role=button card, a named generic, the
    table's header row group (its sole body collapsed) and a section header."""
    from pathlib import Path

    page = Path(__file__).resolve().parent / "fixtures" / "aria" / "snapshot_rules.html"
    driver.ok("open " + str(page))
    data = driver.ok("snapshot").data
    text = data["text"]
    by_name = {(info["role"], info["name"]) for info in data["refs"].values()}
    assert ("link", "North") in by_name            # <area href> under its image
    assert not any(n == "No href" for _, n in by_name)
    assert ("link", "Read more") in by_name        # reachable inside a role=button
    assert ("button", "Card title Read more") in by_name
    assert '- generic "for example"' in text       # named text-level element
    assert "- rowgroup:" in text                   # <thead> shown
    assert text.count("- rowgroup") == 1           # the only <tbody> collapsed
    assert "- sectionheader: Post header" in text
    img_line = next(i for i, line in enumerate(text.splitlines()) if 'img "Site map"' in line)
    assert 'link "North"' in text.splitlines()[img_line + 1]


def test_media_controls_are_listed_without_refs(driver):
    """<video controls>: the media element gets a ref (it is focusable); the
    browser-drawn controls are listed, marked [native],
    and get no refs (they live in the browser's own shadow tree)."""
    from pathlib import Path

    page = Path(__file__).resolve().parent / "fixtures" / "aria" / "snapshot_rules.html"
    driver.ok("open " + str(page))
    data = driver.ok("snapshot").data
    lines = data["text"].splitlines()
    i = next(i for i, line in enumerate(lines) if 'generic "Intro clip"' in line)
    assert "[ref=" in lines[i]
    kids = lines[i + 1:i + 6]
    assert any('button "play"' in k for k in kids)
    assert any('slider "video time scrubber"' in k for k in kids)
    assert all("[native]" in k and "[ref=" not in k for k in kids)
    assert "Fallback text never shown" not in data["text"]
    assert not any(info["name"] == "play" for info in data["refs"].values())
