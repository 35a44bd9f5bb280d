"""Every way a page starts a download is reported by the command during which it began: `open` of
an attachment, <a download>, a script-made <a download>, blob: and data: URLs, window.open of an
attachment, a form POST answered with an attachment, and a download in a cross-origin frame.
Each result carries the saved file (read back from disk) and the tab's own state is checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from download_server import DownloadServer, body_of
from verdex_cli.browser.session import Options, Session
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.runner import execute


@pytest.fixture(scope="module")
def server():
    srv = DownloadServer()
    yield srv
    srv.stop()


class Run:
    def __init__(self, endpoint: str, folder: Path):
        opts = Options(connect=endpoint, new_tab=True, timeout=10.0, downloads=str(folder))
        self.ctx = Workspace(lambda: Session.start(opts))
        self.folder = folder

    def ok(self, line: str):
        out = execute(self.ctx, line)
        assert out.ok, f"{line!r}: {out.kind}: {out.message}"
        return out.result

    def js(self, expression: str):
        return self.ctx.page.evaluate(expression)

    def click(self, name: str):
        text = self.ok("snapshot").data["text"]
        ref = re.search(re.escape(name) + r".*?\[ref=(c\d+p\d+f\d+e\d+)\]", text).group(1)
        return self.ok("click " + ref)


@pytest.fixture
def run(chrome_http, server, tmp_path):
    r = Run(chrome_http, tmp_path / "dl")
    r.ok("open " + server.url("/kinds"))
    yield r
    r.ctx.close()


def _saved(result, name: str, content: bytes, folder: Path) -> None:
    """The result reports exactly this file as completed, with its note, and the file on disk is it."""
    path = folder / name
    assert path.read_bytes() == content
    records = result.data.get("downloads")
    assert records, f"no download in the result; notes: {result.notes}"
    assert [(r["name"], r["path"], r["size"], r["state"]) for r in records] == \
        [(name, str(path), len(content), "completed")]
    assert any(n.startswith(f"downloaded {name} (") and n.endswith(f"to {path}") for n in result.notes)


def test_open_of_an_attachment_is_ok_and_the_tab_stays(run, server):
    res = run.ok("open " + server.url("/file?name=opened.csv"))
    _saved(res, "opened.csv", body_of(4096), run.folder)
    assert res.data["url"] == server.url("/kinds")  # the tab stays on its page, and says so
    assert f"{server.url('/file?name=opened.csv')} is a file to save, not a page: the tab stays on " \
           f"{server.url('/kinds')}." in res.notes
    assert res.data["stayed"] is True and res.data["status"] == 200
    assert run.js("location.pathname") == "/kinds"


def test_open_of_a_type_no_page_shows_is_a_download(run, server):
    res = run.ok("open " + server.url("/file?name=x&octet=1&size=1000"))
    _saved(res, "file", body_of(1000), run.folder)
    assert run.js("location.pathname") == "/kinds"


def test_open_of_an_attachment_that_answers_late_still_reports_it(run, server):
    res = run.ok("open " + server.url("/file?name=slowopen.csv&wait=1"))
    _saved(res, "slowopen.csv", body_of(4096), run.folder)


def test_open_of_a_no_content_answer_is_still_a_failure(run, server):
    out = execute(run.ctx, "open " + server.url("/nocontent"))
    assert not out.ok and out.kind == "navigation_failed"
    assert run.js("location.pathname") == "/kinds"


def test_download_attribute_link(run):
    _saved(run.click('link "Attribute link"'), "attr.txt", body_of(4096), run.folder)


def test_attachment_link_answered_late(run):
    _saved(run.click('link "Late attachment"'), "late.csv", body_of(4096), run.folder)
    assert run.js("location.pathname") == "/kinds"


def test_a_download_still_arriving_is_waited_for(run):
    _saved(run.click('link "Slow attachment"'), "slow.bin", body_of(300000), run.folder)


def test_script_made_download_link(run):
    res = run.ok("eval document.getElementById('scripted').click()")
    _saved(res, "scripted.txt", body_of(4096), run.folder)
    assert run.js("window.clicks") == 1


@pytest.mark.parametrize("button,name,content", [("blob", "blob.txt", b"made in the page\n"),
                                                  ("data", "data.txt", b"data url\n")])
def test_blob_and_data_urls(run, button, name, content):
    res = run.ok(f"eval document.getElementById('{button}').click()")
    _saved(res, name, content, run.folder)


def test_window_open_of_an_attachment_is_a_download_not_a_tab(run):
    res = run.click('button "Open an attachment in a new window"')
    _saved(res, "popup.csv", body_of(4096), run.folder)
    assert not [n for n in res.notes if "tab" in n.lower()], res.notes
    assert [t["index"] for t in run.ok("tabs").data["tabs"]] == [0]


def test_form_post_answered_with_an_attachment(run):
    res = run.click('button "Export"')
    _saved(res, "posted.csv", body_of(4096), run.folder)
    assert run.js("location.pathname") == "/kinds"


@pytest.mark.parametrize("link,name", [("Download in the frame", "inframe.txt"),
                                       ("Attachment in the frame", "frameattach.csv")])
def test_download_in_a_cross_origin_frame(run, link, name):
    _saved(run.click(f'link "{link}"'), name, body_of(4096), run.folder)


def test_open_of_an_attachment_prints_where_the_tab_stayed(run, server):
    import io

    from verdex_cli.ui.render import Renderer, make_console

    out = execute(run.ctx, "open " + server.url("/file?name=shown.csv"))
    buf = io.StringIO()
    Renderer(console=make_console(False, file=buf, width=400), err_console=make_console(False, file=io.StringIO())).show(out)
    text = buf.getvalue()
    assert text.startswith("Stayed on " + server.url("/kinds")), text
    assert "downloaded shown.csv (4.0 KB) to " + str(run.folder / "shown.csv") in text.replace("\n", " ")


def _no_download(result) -> None:
    assert "downloads" not in result.data, result.data
    assert not [n for n in result.notes if "download" in n], result.notes


def test_a_download_link_the_page_cancels_is_no_download(run):
    res = run.click('link "Prevented download"')
    _no_download(res)
    assert run.js("window.prevented") is True  # the page's own handler ran
    assert not (run.folder / "never.txt").exists()


def test_a_download_link_to_another_site_navigates_and_nothing_is_awaited(run, server):
    res = run.click('link "Download link to another site"')  # the browser ignores 'download' there
    _no_download(res)
    assert run.js("location.href") == server.url("/elsewhere", "b")


def test_a_navigation_replaced_by_another_is_not_a_download(run, server):
    """A page answered and then aborted because a newer navigation of the same frame replaced it is
    not a file being saved: no download is awaited or reported."""
    run.ok("open " + server.url("/twice"))
    out = run.click("Go slow")
    assert not any("download" in n for n in out.notes), out.notes
    assert not out.data.get("downloads")
    assert run.js("frames.f.document.title") == "done"
