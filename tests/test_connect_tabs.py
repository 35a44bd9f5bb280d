"""--connect: `tab N` adopts the browser's own tab N without `tabs` having run first, and `tab close N`
on such a tab says it is the browser's (issue 33, finding 4)."""

from __future__ import annotations

from conftest import connected_to_a_browser_with_a_tab, page_urls
from verdex_cli.commands.runner import execute


def test_tab_n_adopts_a_browser_tab_without_tabs_first(demo):
    with connected_to_a_browser_with_a_tab(demo.url("form.html")) as (endpoint, before, ctx):
        assert execute(ctx, "open " + demo.url("shop.html")).ok
        refused = execute(ctx, "tab close 1")
        assert not refused.ok and "browser's own" in refused.message and "no tab" not in refused.message
        out = execute(ctx, "tab 2")  # no 'tabs' before it
        assert out.ok, out.message
        assert ctx.page.target.id in before
        assert ctx.page.index == 2
        ctx.close()
        assert set(page_urls(endpoint).values()) >= set(before.values())
