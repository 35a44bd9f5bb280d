"""Downloads go to the session's directory and the action that caused them says so."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from verdex_cli.browser.downloads import human_size, safe_name
from conftest import Driver, until

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def session_in(chrome_http):
    made = []

    def make(downloads):
        s = Driver(chrome_http, downloads=downloads)
        made.append(s)
        return s

    yield make
    for s in made:
        s.ctx.close()


def _ref(text: str, pattern: str) -> str:
    return re.search(pattern + r".*?\[ref=(c\d+p\d+f\d+e\d+)\]", text).group(1)


def test_download_attribute_link_lands_in_the_given_directory(session_in, demo, tmp_path):
    target = tmp_path / "got"
    s = session_in(str(target))
    s.ok("open " + demo.url("downloads.html"))
    res = s.ok("click " + _ref(s.ok("snapshot").data["text"], 'link "Download notes"'))
    expected = (ROOT / "demo_pages" / "files" / "notes.txt").read_bytes()
    path = target / "notes.txt"
    assert path.read_bytes() == expected
    assert f"downloaded notes.txt ({len(expected)} bytes) to {path}" in res.notes
    assert res.data["downloads"] == [{"name": "notes.txt", "path": str(path), "size": len(expected),
                                      "url": demo.url("files/notes.txt"), "state": "completed"}]
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt"]  # no GUID-named leftovers


def test_attachment_response_and_name_clashes(session_in, demo, tmp_path):
    s = session_in(str(tmp_path))
    s.ok("open " + demo.url("downloads.html"))
    ref = _ref(s.ok("snapshot").data["text"], 'link "Download report"')
    first = s.ok("click " + ref)
    second = s.ok("click " + ref)
    assert first.data["downloads"][0]["path"] == str(tmp_path / "report.csv")
    assert second.data["downloads"][0]["path"] == str(tmp_path / "report (1).csv")
    assert (tmp_path / "report.csv").read_text().startswith("1,item 1,7\n")
    assert any(n.startswith(f"downloaded report (1).csv (") and n.endswith(f"to {tmp_path / 'report (1).csv'}")
               for n in second.notes)
    assert s.ok("eval location.pathname").data["value"] == "/downloads.html"  # the page did not change
    assert not [n for n in first.notes if n.startswith("Navigated")]


def test_a_download_from_eval_is_reported_too(session_in, demo, tmp_path):
    s = session_in(str(tmp_path))
    s.ok("open " + demo.url("downloads.html"))
    res = s.ok("eval document.getElementById('download-attachment').click()")
    assert res.data["downloads"][0]["name"] == "report.csv"


def test_default_directory_is_private_and_removed_on_close(session_in, demo):
    s = session_in(None)
    s.ok("open " + demo.url("downloads.html"))
    folder = s.ctx.session.downloads.directory
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    res = s.ok("click " + _ref(s.ok("snapshot").data["text"], 'link "Download notes"'))
    assert Path(res.data["downloads"][0]["path"]).parent == folder
    s.ctx.close()
    assert not folder.exists()


def test_a_given_directory_is_kept(session_in, tmp_path):
    s = session_in(str(tmp_path / "keep"))
    s.ok("eval 1")
    s.ctx.close()
    assert (tmp_path / "keep").is_dir()


@pytest.mark.parametrize("suggested,name", [("../../etc/passwd", "passwd"), ("a\x1bb.txt", "a_b.txt"),
                                            ("", "download"), (".hidden", "hidden"), ("x\\y.csv", "y.csv")])
def test_safe_names(suggested, name):
    assert safe_name(suggested) == name


def test_human_size():
    assert human_size(1) == "1 byte"
    assert human_size(900) == "900 bytes"
    assert human_size(2048) == "2.0 KB"
    assert human_size(5 * 1024 * 1024) == "5.0 MB"


def test_downloads_option_on_the_command_line(chrome_http, demo, tmp_path):
    import json
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "verdex_cli", "--downloads", str(tmp_path / "dl"), "run",
                           "--connect", chrome_http, "--json", demo.url("downloads.html"),
                           "eval document.getElementById('download-attachment').click()"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])["result"]
    assert result["downloads"][0]["path"] == str(tmp_path / "dl" / "report.csv")
    assert (tmp_path / "dl" / "report.csv").is_file()


def test_a_download_in_a_new_browser_context_lands_in_the_session_directory(session_in, demo, tmp_path):
    target = tmp_path / "ctx"
    s = session_in(str(target))
    s.ok("context new " + demo.url("downloads.html"))
    res = s.ok("click " + _ref(s.ok("snapshot").data["text"], 'link "Download notes"'))
    if "downloads" not in res.data:  # began after the click's result was made (a new context starts slower)
        res = s.ok("wait 500")
    path = target / "notes.txt"
    assert path.read_bytes() == (ROOT / "demo_pages" / "files" / "notes.txt").read_bytes()
    assert res.data["downloads"][0]["path"] == str(path)


def _start_repl(args: list[str], tmp: Path):
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), TMPDIR=str(tmp),
               XDG_STATE_HOME=str(tmp / "state"))
    return subprocess.Popen([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_run_killed_with_sigkill_leaves_no_download_folder(chrome_http, demo, tmp_path):
    import signal

    proc = _start_repl(["--connect", chrome_http, demo.url("downloads.html")], tmp_path)
    try:
        # the REPL reads its (open) stdin pipe line by line: the download first, then it waits
        proc.stdin.write(b"eval document.getElementById('download-attachment').click()\n")
        proc.stdin.flush()
        assert until(lambda: list(tmp_path.glob("verdex-downloads-*/report.csv")), 30), "no download happened"
        folder = next(tmp_path.glob("verdex-downloads-*"))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=15)
        assert proc.returncode == -signal.SIGKILL
        assert until(lambda: not folder.exists(), 10), f"{folder} was left behind"
    finally:
        _end(proc)


def _end(proc) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()


def test_a_folder_the_user_gave_survives_sigkill(chrome_http, demo, tmp_path):
    import signal

    given = tmp_path / "mine"
    proc = _start_repl(["--downloads", str(given), "--connect", chrome_http, demo.url("downloads.html")], tmp_path)
    try:
        proc.stdin.write(b"eval document.getElementById('download-attachment').click()\n")
        proc.stdin.flush()
        assert until(lambda: (given / "report.csv").is_file(), 30), "no download happened"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=15)
        assert not list(tmp_path.glob("verdex-downloads-*"))  # no private folder (nor its guard) for this run
        assert (given / "report.csv").is_file()
    finally:
        _end(proc)
