"""The REPL with targets: comments are skipped, typos get a suggestion, the new results print readably."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input

from conftest import type_at_prompts
from test_repl import console, make_repl, run_loop  # noqa: F401 (console is a fixture)


def test_comments_typos_and_new_results_in_the_repl(ctx, console, demo):
    with create_pipe_input() as inp:
        repl, err = make_repl(ctx, console, inp)
        type_at_prompts(repl, inp, f"open {demo.url('shop.html')}\r", "# click button:Save would click\r", "clck x\r",
                        'siblings "article:Coffee mug >> button:Add to cart"\r', "container testid=cart\r",
                        "snapshot\r", "find notebook\r", "help\r", "quit\r")
        assert run_loop(repl, timeout=60) == 0
    out = console.file.getvalue()
    errors = err.file.getvalue().splitlines()
    assert errors == ["Unknown command 'clck'. Did you mean 'click'? Type 'help'."]
    assert ctx.session.page.evaluate('document.getElementById("save").textContent') == "Save"  # the comment did nothing
    assert "4 × article.card.product (1 level up); they differ in:" in out
    assert '* 1  article "Coffee mug"  -> button "Add to cart" [ref=' in out
    assert "section#cart.card.cart" in out and "testid=cart" in out
    assert 'article "Notebook"' in out and 'in main > region "Products"' in out  # (the page's document: not repeated)
    for group in ("Navigation", "Snapshot", "Actions", "Refs", "Tabs", "Session"):
        assert f"\n{group}" in out


def test_page_text_in_the_new_results_never_reaches_the_terminal_raw(driver, demo):
    import io

    from rich.console import Console

    from verdex_cli.ui.render import Renderer

    driver.ok("open " + demo.url("blank.html"))
    driver.ok('eval document.body.innerHTML = "<main><article class=c><h2>A\\u001b[31m</h2><button>Go\\u001b]0;x\\u0007'
              '</button></article><article class=c><h2>B</h2><button>Go2</button></article></main>"')
    driver.ok("snapshot")
    out = io.StringIO()
    renderer = Renderer(console=Console(file=out, width=120, no_color=True), err_console=Console(file=io.StringIO()))
    for line in ("find go", "text button:Go2", "container button:Go2", "siblings button:Go2", "anchors button:Go2",
                 "inspect button:Go2"):
        renderer.show(driver.run(line))
    renderer.show(driver.run("click button:nothing"))
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b" in text  # shown as a visible escape
