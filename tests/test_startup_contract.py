"""JSON and exit codes that never lie: start-up failures as JSON objects, `run` checks every line
before any runs, a piped REPL's failed first step, security of what we launch and print."""

from __future__ import annotations

import json
import re
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import closed_port, fake_browser

from verdex_cli.browser import launch
from verdex_cli.commands.snapshot_cmd import REPL_MAX_CHARS, cut_text
from verdex_cli.base.errors import ErrorKind, ExitStatus

ROOT = Path(__file__).resolve().parent.parent
INDEX = "demo_pages/index.html"
KEYS = ["command", "ok", "error", "elapsed_ms"]


def verdex(*args: str, tmp: Path, input: str | None = None, env_extra: dict | None = None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TMPDIR"] = str(tmp)
    env["XDG_STATE_HOME"] = str(tmp / "state")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, input=input,
                          stdin=None if input is not None else subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=90)


def only_json(proc) -> dict:
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    obj = json.loads(lines[0])
    assert list(obj) == KEYS and obj["ok"] is False
    assert "Traceback" not in proc.stdout + proc.stderr
    return obj


@pytest.fixture
def fake_chrome(tmp_path):
    """A 'browser' that records that it was started, then fails."""
    return fake_browser(tmp_path, "exit 3")


# -- one JSON object for every start-up failure ------------------------------------------------------

def test_launch_failure_is_one_json_object(fake_chrome, tmp_path):
    script, marker = fake_chrome
    proc = verdex("run", "--json", "--chrome", str(script), INDEX, "eval 1", tmp=tmp_path)
    assert proc.returncode == ExitStatus.FAILED
    obj = only_json(proc)
    assert obj["command"] == f"open {INDEX}"
    assert obj["error"]["kind"] == ErrorKind.LAUNCH_FAILED
    assert marker.exists()
    assert not list(tmp_path.glob("verdex-profile-*")), "profile left behind"


def test_unreachable_connect_endpoint_is_one_json_object(tmp_path):
    proc = verdex("run", "--json", "--connect", f"http://127.0.0.1:{closed_port()}", INDEX, "eval 1", tmp=tmp_path)
    assert proc.returncode == ExitStatus.FAILED
    obj = only_json(proc)
    assert obj["error"]["kind"] == ErrorKind.CONNECT_FAILED
    assert "Cannot connect to http://127.0.0.1:" in obj["error"]["message"]
    assert "tried /json/version (connection refused)" in obj["error"]["message"]


def test_unreadable_script_is_one_json_object(tmp_path, fake_chrome):
    script, marker = fake_chrome
    bad = tmp_path / "binary.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    for path in (tmp_path / "missing.txt", bad):
        proc = verdex("run", "--json", "--chrome", str(script), "--script", str(path), INDEX, tmp=tmp_path)
        assert proc.returncode == ExitStatus.USAGE
        obj = only_json(proc)
        assert obj["command"] == f"--script {path}"
        assert obj["error"]["kind"] == ErrorKind.USAGE
        assert obj["error"]["message"].startswith(f"Cannot read script {path}")
    assert not marker.exists()


def test_bad_first_url_is_one_json_object_and_no_browser_starts(tmp_path, fake_chrome):
    script, marker = fake_chrome
    proc = verdex("run", "--json", "--chrome", str(script), "./no-such-page.html", "eval 1", tmp=tmp_path)
    assert proc.returncode == ExitStatus.FAILED
    obj = only_json(proc)
    assert obj["command"] == "open ./no-such-page.html"
    assert obj["error"] == {"kind": ErrorKind.NAVIGATION_FAILED, "message": "No such file: ./no-such-page.html"}
    assert not marker.exists()


@pytest.mark.parametrize("url", ["http://[::1", "http://[zz]/", "localhost:99999"])
def test_malformed_first_url_is_a_usage_error_and_no_browser_starts(tmp_path, fake_chrome, url):
    script, marker = fake_chrome
    proc = verdex("run", "--json", "--chrome", str(script), url, "eval 1", tmp=tmp_path)
    assert proc.returncode == ExitStatus.USAGE
    obj = only_json(proc)
    assert obj["command"] == "open " + url
    assert obj["error"]["kind"] == ErrorKind.USAGE
    assert obj["error"]["message"].startswith(f"Not a valid URL or path: '{url}' (")
    assert not marker.exists()
    plain = verdex("run", "--chrome", str(script), url, tmp=tmp_path)  # (without --json: one line on stderr)
    assert plain.returncode == ExitStatus.USAGE and plain.stdout == ""
    assert plain.stderr.startswith("Not a valid URL or path:") and len(plain.stderr.splitlines()) == 1


def test_unreachable_first_url_is_one_json_object(chrome_http, tmp_path):
    proc = verdex("run", "--json", "--connect", chrome_http, f"http://127.0.0.1:{closed_port()}/", "eval 1",
                  tmp=tmp_path)
    assert proc.returncode == ExitStatus.FAILED
    assert only_json(proc)["error"]["kind"] == ErrorKind.NAVIGATION_FAILED


@pytest.mark.parametrize("args, words", [
    (["run", "--json"], "Missing URL: give the URL to open first, or --session NAME"),
    (["run", "--json", INDEX, "--bogus"], "No such option: --bogus."),
    (["--json", "--timeout", "soon", "run", INDEX], "Invalid value for '--timeout'"),
    (["--json", "--bogus"], "No such option: --bogus."),
])
def test_command_line_usage_errors_with_json_are_one_json_object(args, words, tmp_path):
    proc = verdex(*args, tmp=tmp_path)
    assert proc.returncode == ExitStatus.USAGE
    obj = only_json(proc)
    assert obj["error"]["kind"] == ErrorKind.USAGE and words in obj["error"]["message"]
    assert obj["error"]["message"].endswith("--help'.")
    assert proc.stderr == ""


# -- run parses every line before running any ---------------------------------------------------------
# (a one-shot run's browser starts while verdex is imported, before the lines can be parsed: a usage
# error stops it, tests/test_oneshot_speed.py; a bad first URL or script file starts none, above)

@pytest.mark.parametrize("lines, usage", [
    (["eval 1", "frobnicate"], "Unknown command 'frobnicate'. Type 'help'."),
    (["eval 1", "click"], "Usage: click REF"),
    (["snapshot --bogus"], "Unknown option '--bogus'. Usage: snapshot [--all-refs] [--fresh] [--frame fN] [--no-frames] [--max-chars N] [--within TARGET] [--interactive] [--depth N]"),
    (["press 'unclosed"], None),
])
def test_run_parses_every_line_before_running_any(fake_chrome, tmp_path, lines, usage):
    script, _marker = fake_chrome
    proc = verdex("run", "--chrome", str(script), "--no-color", INDEX, *lines, tmp=tmp_path)
    assert proc.returncode == ExitStatus.USAGE, proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and proc.stdout == ""
    if usage:
        assert usage in err[0] or err[0].startswith(usage.split(" REF")[0])


def test_script_file_lines_are_parsed_before_running_any(fake_chrome, tmp_path):
    script, _marker = fake_chrome
    steps = tmp_path / "steps.txt"
    steps.write_text("eval 1\n# fine\nsnapshot\nclick\n")
    proc = verdex("run", "--json", "--chrome", str(script), "--script", str(steps), INDEX, tmp=tmp_path)
    assert proc.returncode == ExitStatus.USAGE
    obj = only_json(proc)
    assert obj["command"] == "click" and obj["error"]["kind"] == ErrorKind.USAGE


def test_a_valid_run_does_start_the_browser(fake_chrome, tmp_path):
    """The control for the tests above: the fake browser records a start."""
    script, marker = fake_chrome
    proc = verdex("run", "--chrome", str(script), INDEX, "eval 1", tmp=tmp_path)
    assert proc.returncode == ExitStatus.FAILED
    assert marker.exists()


# -- the piped REPL -----------------------------------------------------------------------------------

def test_piped_repl_whose_first_open_fails_exits_non_zero(chrome_http, tmp_path):
    proc = verdex("--connect", chrome_http, "--no-color", f"http://127.0.0.1:{closed_port()}/", tmp=tmp_path,
                  input="eval 'should not run'\n")
    assert proc.returncode == ExitStatus.FAILED
    assert "should not run" not in proc.stdout
    assert "net::ERR_CONNECTION_REFUSED" in proc.stderr


def test_piped_repl_with_no_browser_exits_2_with_json(tmp_path):
    proc = verdex("--json", "--chrome", "/nonexistent/chromium", INDEX, tmp=tmp_path, input="eval 1\n")
    assert proc.returncode == ExitStatus.USAGE
    assert only_json(proc)["error"]["kind"] == ErrorKind.BROWSER_NOT_FOUND


# -- security -----------------------------------------------------------------------------------------

def test_devtools_uses_a_pipe_or_loopback_only_and_the_profile_is_private():
    args = launch.chrome_args("/usr/bin/chromium", "/tmp/p", headless=True)
    assert "--remote-debugging-pipe" in args
    assert not any(a.startswith("--remote-debugging-port") for a in args)
    args = launch.chrome_args("/usr/bin/chromium", "/tmp/p", headless=True, debug_port=True)
    assert "--remote-debugging-address=127.0.0.1" in args and "--remote-debugging-pipe" not in args
    assert not any(a.startswith("--remote-debugging-address=") and a != "--remote-debugging-address=127.0.0.1"
                   for a in args)
    chrome = launch.launch(headless=True, debug_port=True)
    try:
        assert chrome.http_endpoint.startswith("http://127.0.0.1:")
        assert chrome.browser_ws.startswith("ws://127.0.0.1:")
        assert stat.S_IMODE(os.stat(chrome.profile).st_mode) == 0o700
        profile = chrome.profile
    finally:
        chrome.stop()
    assert not os.path.exists(profile)


@pytest.mark.parametrize("url, local", [
    ("http://127.0.0.1:9222", True), ("localhost:9222", True), ("ws://[::1]:9222/devtools/browser/x", True),
    ("http://127.8.0.1:9222", True), ("http://10.0.0.5:9222", False), ("ws://example.com:9222/x", False),
    ("http://0.0.0.0:9222", False),
])
def test_loopback_detection(url, local):
    assert launch.is_loopback(url) is local


@pytest.mark.parametrize("scheme, unencrypted", [("http", True), ("ws", True), ("https", False), ("wss", False)])
def test_connect_to_another_machine_warns_on_stderr(tmp_path, scheme, unencrypted):
    url = f"{scheme}://0.0.0.0:{closed_port()}" + ("/devtools/browser/x" if scheme.startswith("ws") else "")
    proc = verdex("run", "--json", "--connect", url, INDEX, "eval 1", tmp=tmp_path)
    warnings = proc.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("Warning: 0.0.0.0 is not this machine")
    assert ("unencrypted" in warnings[0]) is unencrypted  # TLS (wss://, https://) is encrypted
    assert only_json(proc)["error"]["kind"] == ErrorKind.CONNECT_FAILED  # stdout stays pure JSON Lines


def test_connect_to_loopback_does_not_warn(chrome_http, tmp_path):
    proc = verdex("run", "--json", "--connect", chrome_http, INDEX, "eval 1", tmp=tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""


def test_no_backend_node_ids_in_any_output(chrome_http, tmp_path, demo):
    proc = verdex("run", "--json", "--keep-going", "--connect", chrome_http, demo.url("shop.html"),
                  "snapshot", "refs", "inspect c0p0f0e2", "click c0p0f0e2", "diff", "frames", "tabs",
                  "snapshot --all-refs", "inspect c0p0f0e99", tmp=tmp_path)
    assert proc.stdout.count("\n") == 9
    text = (proc.stdout + proc.stderr).lower()
    for word in ("backendnodeid", "backend_node", "nodeid", "objectid", "executioncontextid", "loaderid"):
        assert word not in text, word


# -- output length --------------------------------------------------------------------------------

def test_cut_text_cuts_at_a_line_end_and_says_how_to_see_the_rest():
    text = "\n".join(f"- line {i}" for i in range(100))
    shown, note = cut_text(text, 50)
    assert len(shown) <= 50 and text.startswith(shown) and not shown.endswith("\n")
    assert "'snapshot --max-chars 0'" in note and f"of {len(text):,} characters" in note
    assert cut_text(text, 0) == (text, None)
    assert cut_text(text, len(text)) == (text, None)
    assert REPL_MAX_CHARS == 200_000


def test_snapshot_max_chars(driver, demo):
    driver.ok(f"open {demo.url('shop.html')}")
    whole = driver.ok("snapshot --fresh").data
    assert not any("Output cut" in n for n in whole["notes"])  # not interactive: never cut unless asked
    cut = driver.ok("snapshot --max-chars 120").data
    assert len(cut["text"]) <= 120 and whole["text"].startswith(cut["text"])
    assert any("'snapshot --max-chars 0'" in n for n in cut["notes"])
    # the refs of the text it returns (all of them with --all-refs)
    assert set(cut["refs"]) == set(re.findall(r"\[ref=([a-z0-9]+)\]", cut["text"])) and set(cut["refs"]) < set(whole["refs"])
    assert driver.ok("snapshot --all-refs --max-chars 120").data["refs"].keys() >= whole["refs"].keys()
    driver.fail("snapshot --max-chars lots", ErrorKind.USAGE)
    driver.fail("snapshot 12", ErrorKind.USAGE)
    driver.ctx.interactive = True
    assert driver.ok("snapshot").data["text"] == whole["text"]  # the REPL default is generous


def test_every_documented_error_kind_is_a_named_constant():
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Errors", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)`(?: / `([a-z_]+)`)? \|", section, re.M))
    kinds = {k for pair in documented for k in pair if k}
    assert kinds == ErrorKind.all()
    for new in ("page_crashed", "browser_lost", "not_applied", "ambiguous", "no_match"):
        assert new in kinds
    statuses = [ExitStatus.OK, ExitStatus.FAILED, ExitStatus.USAGE, ExitStatus.INTERRUPTED]
    assert statuses == [0, 1, 2, 130]
    assert all(f"**{s}**" in section for s in statuses)  # every exit status is documented
