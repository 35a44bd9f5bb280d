"""`verdex run --script -` as a live session: each line runs as it arrives, its JSON line flushed
before the next is read (a real subprocess driven through pipes, with time limits)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_line(proc: subprocess.Popen, timeout: float = 30.0) -> dict:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, f"no answer within {timeout} s"
    line = proc.stdout.readline()
    assert line, "verdex ended early: " + proc.stderr.read()
    return json.loads(line)


def spawn(chrome_http: str, url: str, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "verdex_cli", "run", "--connect", chrome_http, "--json", *extra,
                             url, "--script", "-"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def test_each_line_is_answered_before_the_next_is_written(chrome_http, demo):
    proc = spawn(chrome_http, demo.url("shop.html"), "--keep-going")
    try:
        proc.stdin.write("snapshot\n")
        proc.stdin.flush()
        snap = read_line(proc)  # line 2 is not written yet: the answer must come anyway
        assert snap["ok"] and snap["command"] == "snapshot"
        mug = next(r for r, i in snap["result"]["refs"].items() if i["name"] == "Add to cart")
        proc.stdin.write(f"click {mug}\n")
        proc.stdin.flush()
        click = read_line(proc)
        remove = next(a["ref"] for a in click["result"]["changes"]["added"] if a["name"] == "Remove")
        proc.stdin.write("# a comment, then a bad line: the session goes on with --keep-going\nbogus\n")
        proc.stdin.flush()
        assert read_line(proc)["error"]["kind"] == "usage"
        proc.stdin.write(f"click {remove}\n")  # a ref the previous answer gave
        proc.stdin.flush()
        assert read_line(proc)["ok"]
        proc.stdin.close()  # end of input ends the session
        assert proc.wait(timeout=30) == 2  # the exit status of the first failure (usage)
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_without_keep_going_the_first_failure_ends_it(chrome_http, demo):
    proc = spawn(chrome_http, demo.url("shop.html"))
    try:
        proc.stdin.write("click c0p0f0e99\n")
        proc.stdin.flush()
        assert read_line(proc)["error"]["kind"] == "unknown_ref"
        start = time.monotonic()
        assert proc.wait(timeout=30) == 1 and time.monotonic() - start < 30
    finally:
        if proc.poll() is None:
            proc.kill()
