"""Ctrl-C stops the page's running script exactly as a time-out does: the next command answers at once.

Driven through a real verdex process that gets SIGINT (the signal Ctrl-C sends) while a click's
handler or an eval loops forever."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from conftest import until

ROOT = Path(__file__).resolve().parent.parent
FREEZE = ROOT / "tests" / "fixtures" / "script" / "freeze.html"


def _looping(endpoint: str) -> bool:
    """The browser's target list (not the frozen page) shows the page's title 'looping'."""
    with urllib.request.urlopen(endpoint + "/json/list", timeout=2) as r:
        targets = json.loads(r.read())
    return any(t.get("type") == "page" and t.get("url", "").endswith("freeze.html") and t.get("title") == "looping"
               for t in targets)


class LiveRun:
    """`verdex run --script -` whose lines we write one at a time, reading each JSON result back."""

    def __init__(self, endpoint: str, tmp: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   TMPDIR=str(tmp), XDG_STATE_HOME=str(tmp / "state"))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "verdex_cli", "--timeout", "5", "--json", "run", "--connect", endpoint,
             "--keep-going", "--script", "-", FREEZE.as_uri()],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.endpoint = endpoint  # (a one-shot run prints nothing for its first 'open' when it worked)

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def result(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def run(self, line: str) -> dict:
        self.send(line)
        return self.result()

    def interrupt_when_looping(self) -> None:
        assert until(lambda: _looping(self.endpoint), 20), "the page never started its loop"
        self.proc.send_signal(signal.SIGINT)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def _check_cancelled_and_loop_stopped(run: LiveRun) -> None:
    cancelled = run.result()
    assert not cancelled["ok"] and cancelled["error"]["kind"] == "cancelled", cancelled
    _check_page_answers_and_loop_was_stopped(run)


def _check_page_answers_and_loop_was_stopped(run: LiveRun) -> None:
    # With --timeout 5, a page still running its loop would make this a 'timeout' error.
    after = run.run("eval 1")
    assert after["ok"], after
    assert after["result"]["value"] == 1
    state = run.run("eval [window.phase, document.title]")
    assert state["ok"], state
    assert state["result"]["value"] == ["looping", "looping"]  # entered the loop, never left it normally
    ticks = run.run("eval new Promise(r => { const t = window.ticks; setTimeout(() => r(window.ticks > t), 200); })")
    assert ticks["ok"] and ticks["result"]["value"] is True  # the page's own timers run again


def test_ctrl_c_on_a_click_that_froze_the_page_stops_its_script(chrome_http, tmp_path):
    run = LiveRun(chrome_http, tmp_path)
    try:
        snap = run.run("snapshot")
        ref = next(line.split("[ref=")[1].split("]")[0] for line in snap["result"]["text"].splitlines()
                   if 'button "Freeze"' in line)
        run.send("click " + ref)
        run.interrupt_when_looping()
        _check_cancelled_and_loop_stopped(run)
    finally:
        run.close()


def test_ctrl_c_on_an_eval_that_loops_forever_stops_it(chrome_http, tmp_path):
    run = LiveRun(chrome_http, tmp_path)
    try:
        run.send("eval spin()")
        run.interrupt_when_looping()
        _check_cancelled_and_loop_stopped(run)
    finally:
        run.close()
