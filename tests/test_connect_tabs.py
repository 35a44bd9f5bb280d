"""--connect: `tab N` adopts the browser's own tab N without `tabs` having run first, and `tab close N`
on such a tab says it is the browser's (issue 33, finding 4)."""

from __future__ import annotations

import json
import urllib.request

from verdex_cli.browser import launch
from verdex_cli.browser.session import Options, Session
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.runner import execute


def _page_urls(endpoint: str) -> dict:
    with urllib.request.urlopen(endpoint + "/json/list", timeout=5) as r:
        return {t["id"]: t["url"] for t in json.loads(r.read()) if t.get("type") == "page"}


def test_tab_n_adopts_a_browser_tab_without_tabs_first(demo):
    chrome = launch.launch(headless=True, debug_port=True)
    try:
        req = urllib.request.Request(chrome.http_endpoint + "/json/new?" + demo.url("form.html"), method="PUT")
        urllib.request.urlopen(req, timeout=5).close()
        before = _page_urls(chrome.http_endpoint)
        assert len(before) == 2
        ctx = Workspace(lambda: Session.start(Options(connect=chrome.http_endpoint)))
        try:
            assert execute(ctx, "open " + demo.url("shop.html")).ok
            refused = execute(ctx, "tab close 1")
            assert not refused.ok and "browser's own" in refused.message and "no tab" not in refused.message
            out = execute(ctx, "tab 2")  # no 'tabs' before it
            assert out.ok, out.message
            assert ctx.page.target.id in before
            assert ctx.page.index == 2
        finally:
            ctx.close()
        assert set(_page_urls(chrome.http_endpoint).values()) >= set(before.values())
    finally:
        chrome.stop()
