"""What makes a one-shot `verdex run URL COMMAND...` start fast: its browser starts before the rest of
verdex is imported, and the command line is read without Typer (timings are in benchmarks/bench_oneshot.py;
here, that the parts are wired as meant and leave nothing behind)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import fake_browser, until
from test_launch import assert_no_orphans, family
from verdex_cli import argv
from verdex_cli.browser import launch

ROOT = Path(__file__).resolve().parent.parent
INDEX = "demo_pages/index.html"


def verdex(*args: str, tmp: Path, extra: tuple[str, ...] = ()):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), TMPDIR=str(tmp))
    env.pop("VERDEX_SESSION", None)
    env.pop("VERDEX_CONNECT", None)
    return subprocess.run([sys.executable, *extra, "-m", "verdex_cli", *args], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=90)


def test_the_light_reader_knows_every_option_of_run():
    """argv.run_args reads `run`'s options without Typer: the same options as the Typer command."""
    import typer.main

    from verdex_cli.cli import run_app

    declared = {name for p in typer.main.get_command(run_app).params for name in p.opts if name.startswith("--")}
    assert declared == set(argv.RUN_FLAGS) | set(argv.RUN_VALUES)


@pytest.mark.parametrize("words, read", [
    (["run", INDEX, "eval 1"], {"url": INDEX, "commands": ["eval 1"], "timeout": 10.0}),
    (["--json", "run", "--timeout=3", INDEX, "--keep-going", "snapshot", "--", "--x"],
     {"url": INDEX, "commands": ["snapshot", "--x"], "timeout": 3.0, "json_mode": True, "keep_going": True}),
    (["run", "--chrome", "/c", "--connect-header", "A: 1", "--connect-header", "B: 2", INDEX],
     {"url": INDEX, "commands": [], "chrome": "/c", "connect_header": ["A: 1", "B: 2"]}),
    (["run", "--session", "", INDEX], {"url": INDEX, "commands": [], "session": ""}),
])
def test_a_plain_run_is_read_without_a_parser(words, read):
    got = argv.run_args(words)
    assert got is not None
    assert {k: v for k, v in got.items() if v not in ([], None) or k in read} == {"timeout": 10.0, **read}


@pytest.mark.parametrize("words", [
    ["run"], ["run", "--help", INDEX], ["run", "-h"], ["run", INDEX, "--bogus"], ["run", "--timeout", "soon", INDEX],
    ["run", "--timeout", "0.01", INDEX], ["run", INDEX, "--chrome"], ["run", "--session", "s", "eval 1"],
    ["session", "list"], [INDEX],
])
def test_anything_else_goes_to_typer(words):
    assert argv.run_args(words) is None


def test_launch_takes_the_browser_started_early(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    launch.launch_early(None, True)
    early = launch._EARLY
    assert early is not None
    proc = launch.launch(headless=True)
    try:
        assert launch._EARLY is None
        assert proc._watchdog is early.watchdog and proc.profile == early.profile
        assert "Browser" in proc.version()
        tracked = family(proc.profile)
    finally:
        proc.stop()
    assert_no_orphans(proc.profile, tracked)


def test_a_browser_started_early_with_other_options_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    launch.launch_early(None, True)
    early = launch._EARLY
    proc = launch.launch(headless=True, extra_args=("--mute-audio",))
    try:
        assert proc._watchdog is not early.watchdog
        assert early.watchdog.poll() is not None and not os.path.exists(early.profile)
    finally:
        proc.stop()


def test_a_one_shot_run_imports_no_parser_framework_and_no_http_library(tmp_path):
    proc = verdex("run", INDEX, "eval 1", tmp=tmp_path, extra=("-X", "importtime"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "1"
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "verdex_cli.app.wiring" in imported
    heavy = ("typer", "click", "pydantic", "prompt_toolkit", "pychrome", "requests", "urllib3")
    assert not {m for m in imported if m.split(".")[0] in heavy}


@pytest.fixture
def slow_chrome(tmp_path):
    """A 'browser' that records its start and stays until it is killed."""
    return fake_browser(tmp_path, "exec sleep 60")


def test_a_usage_error_stops_the_browser_started_early(slow_chrome, tmp_path):
    """The lines are checked once verdex is imported, while the browser starts: a usage error runs
    nothing, and the browser started meanwhile is gone when verdex exits."""
    script, marker = slow_chrome
    proc = verdex("run", "--chrome", str(script), INDEX, "eval 1", "frobnicate", tmp=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "Unknown command 'frobnicate'. Type 'help'."
    assert until(lambda: marker.exists(), 5), "the browser was not started early"
    assert_no_orphans(str(script), set())
