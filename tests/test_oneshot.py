"""One-shot mode: `verdex run URL COMMAND...`, JSON Lines and exit codes, as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import closed_port

ROOT = Path(__file__).resolve().parent.parent
INDEX = "demo_pages/index.html"


def verdex(*args: str, input: str | None = None, tmp: Path | None = None, timeout: float = 60):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if tmp is not None:
        env["TMPDIR"] = str(tmp)
        env["XDG_STATE_HOME"] = str(tmp / "state")
    return subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=env, input=input,
                          stdin=None if input is not None else subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def json_lines(stdout: str) -> list[dict]:
    lines = stdout.splitlines()
    assert lines, "no output"
    return [json.loads(line) for line in lines]


def assert_no_traceback(proc):
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr


@pytest.fixture
def run(chrome_http):
    """`verdex run --connect <shared chrome> ...` (saves the browser start-up)."""
    def _run(*args: str, input: str | None = None):
        return verdex("run", "--connect", chrome_http, *args, input=input)
    return _run


# -- the acceptance line, with a real launch ----------------------------------------------------

def test_eval_title_json_full_launch(tmp_path):
    proc = verdex("run", INDEX, "eval document.title", "--json", tmp=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    (obj,) = json_lines(proc.stdout)
    assert obj["ok"] is True
    assert obj["command"] == "eval document.title"
    assert obj["result"] == {"value": "Verdex demo site"}
    assert isinstance(obj["elapsed_ms"], (int, float)) and 0 <= obj["elapsed_ms"] < 5000
    assert list(obj) == ["command", "ok", "result", "elapsed_ms"]
    assert proc.stderr == ""
    assert not list(tmp_path.glob("verdex-profile-*")), "profile left behind"


# -- output and exit codes ---------------------------------------------------------------------

def test_plain_output_without_json(run):
    proc = run("--no-color", INDEX, "eval document.title", "eval 6 * 7")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["'Verdex demo site'", "42"]  # strings quoted, like the DevTools console


def test_every_command_prints_one_json_object(run):
    proc = run("--json", INDEX, "eval 1 + 1", "eval ({a: [1, 'x']})", "eval undefined", "help back")
    assert proc.returncode == 0, proc.stderr
    objs = json_lines(proc.stdout)
    assert [o["command"] for o in objs] == ["eval 1 + 1", "eval ({a: [1, 'x']})", "eval undefined", "help back"]
    assert all(o["ok"] and "elapsed_ms" in o for o in objs)
    assert [o["result"].get("value") for o in objs[:3]] == [2, {"a": [1, "x"]}, None]
    assert objs[3]["result"]["usage"] == "back"


def test_failing_command_stops_the_run_and_exits_1(run):
    proc = run("--json", INDEX, "eval 1", 'eval throw new Error("boom")', "eval 3")
    assert proc.returncode == 1
    first, second = json_lines(proc.stdout)  # the third command did not run
    assert first["ok"] is True
    assert second["ok"] is False
    assert second["command"] == 'eval throw new Error("boom")'
    assert second["error"] == {"kind": "js_error", "message": "Error: boom"}
    assert "elapsed_ms" in second
    assert_no_traceback(proc)


def test_keep_going_runs_everything_but_still_exits_1(run):
    proc = run("--json", "--keep-going", INDEX, "eval 1", "eval nosuchvariable", "eval 3")
    assert proc.returncode == 1
    objs = json_lines(proc.stdout)
    assert [o["ok"] for o in objs] == [True, False, True]
    assert objs[1]["error"]["kind"] == "js_error"
    assert "nosuchvariable" in objs[1]["error"]["message"]
    assert objs[2]["result"]["value"] == 3


def test_failure_without_json_is_one_red_line_on_stderr(run):
    proc = run("--no-color", INDEX, "eval 1", "eval null.x", "eval 2")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == ["1"]
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("TypeError")
    assert_no_traceback(proc)


def test_unknown_command_is_kind_usage(run):
    proc = run("--json", INDEX, "eval 1", "frobnicate now", "eval 1")
    assert proc.returncode == 2  # every line is parsed before the browser starts: nothing ran
    (obj,) = json_lines(proc.stdout)
    assert obj["command"] == "frobnicate now"
    assert obj["ok"] is False
    assert obj["error"] == {"kind": "usage", "message": "Unknown command 'frobnicate'. Type 'help'."}


def test_wrong_arguments_give_the_usage_line(run):
    proc = run("--json", INDEX, "open")
    assert proc.returncode == 2
    (obj,) = json_lines(proc.stdout)
    assert obj["error"] == {"kind": "usage", "message": "Usage: open URL"}


@pytest.mark.parametrize("args", [
    ["run"],                                      # no URL
    ["run", INDEX, "--no-such-option"],
    ["run", "--timeout", "soon", INDEX, "eval 1"],
    ["--no-such-option"],
])
def test_cli_usage_errors_exit_2(args):
    proc = verdex(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    [line] = proc.stderr.splitlines()  # one line, not a box
    assert line.startswith("verdex") and line.endswith("--help'.")
    assert_no_traceback(proc)


def test_missing_script_file_exits_2(run, tmp_path):
    proc = run("--script", str(tmp_path / "missing.txt"), INDEX)
    assert proc.returncode == 2
    assert "Cannot read script" in proc.stderr and "missing.txt" in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert_no_traceback(proc)


# -- scripts -------------------------------------------------------------------------------------

def test_script_file_with_comments_and_blank_lines(run, tmp_path):
    script = tmp_path / "steps.verdex"
    script.write_text("# open the page and look at it\n\neval document.title\n   # indented comment\n"
                      "eval 20 + 22\n\n")
    proc = run("--json", "--script", str(script), INDEX)
    assert proc.returncode == 0, proc.stderr
    objs = json_lines(proc.stdout)
    assert [(o["command"], o["result"]["value"]) for o in objs] == [
        ("eval document.title", "Verdex demo site"), ("eval 20 + 22", 42)]


def test_script_from_stdin_after_the_command_arguments(run):
    proc = run("--json", "--script", "-", INDEX, "eval 'from args'", input="# stdin\neval 'from stdin'\n")
    assert proc.returncode == 0, proc.stderr
    assert [o["result"]["value"] for o in json_lines(proc.stdout)] == ["from args", "from stdin"]


def test_script_stops_at_first_failure(run):
    proc = run("--json", "--script", "-", INDEX, input="eval 1\neval nope\neval 2\n")
    assert proc.returncode == 1
    objs = json_lines(proc.stdout)
    assert len(objs) == 2 and objs[1]["error"]["kind"] == "js_error"


def test_script_file_with_a_usage_error_runs_nothing(run, tmp_path):
    script = tmp_path / "steps.txt"
    script.write_text("eval 1\nnope\neval 2\n")
    proc = run("--json", "--script", str(script), INDEX)
    assert proc.returncode == 2
    (obj,) = json_lines(proc.stdout)
    assert obj["command"] == "nope" and obj["error"]["kind"] == "usage"


def test_live_stdin_script_parses_each_line_as_it_arrives(run):
    """`--script -` runs lines as they come, so a bad line is found when it is reached."""
    proc = run("--json", "--script", "-", INDEX, input="eval 1\nnope\neval 2\n")
    assert proc.returncode == 2
    first, bad = json_lines(proc.stdout)
    assert first["ok"] and bad["command"] == "nope" and bad["error"]["kind"] == "usage"


# -- navigation failures -------------------------------------------------------------------------

def test_unreachable_url_is_navigation_failed_with_the_net_error(run):
    proc = run("--json", "http://127.0.0.1:9/", "eval 1")
    assert proc.returncode == 1
    (obj,) = json_lines(proc.stdout)  # the commands after a failed start do not run
    assert obj["ok"] is False
    assert obj["error"]["kind"] == "navigation_failed"
    assert "http://127.0.0.1:9/" in obj["error"]["message"]
    assert "net::ERR_" in obj["error"]["message"]


def test_refused_connection_names_the_network_error(run):
    url = f"http://127.0.0.1:{closed_port()}/"
    proc = run("--json", INDEX, f"open {url}")
    assert proc.returncode == 1
    (obj,) = json_lines(proc.stdout)
    assert obj["error"]["kind"] == "navigation_failed"
    assert obj["error"]["message"] == f"Could not open {url}: net::ERR_CONNECTION_REFUSED"


def test_unreachable_url_without_json_is_one_line(run):
    proc = run("--no-color", "http://127.0.0.1:9/", "eval 1")
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "net::ERR_" in lines[0]


def test_unreachable_devtools_endpoint_is_one_line():
    proc = verdex("run", "--connect", f"http://127.0.0.1:{closed_port()}", INDEX, "eval 1")
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0
    assert "Cannot connect to http://127.0.0.1:" in proc.stderr and "tried /json/version" in proc.stderr
    assert_no_traceback(proc)


def test_local_path_and_file_url_work(run):
    abs_path = str(ROOT / "demo_pages" / "form.html")
    proc = run("--json", abs_path, "eval location.protocol", f"open {INDEX}", "eval location.pathname")
    assert proc.returncode == 0, proc.stderr
    objs = json_lines(proc.stdout)
    assert objs[0]["result"]["value"] == "file:"
    assert objs[1]["result"]["url"] == (ROOT / INDEX).as_uri()
    assert objs[2]["result"]["value"].endswith("/demo_pages/index.html")


# -- global options before and after `run` ---------------------------------------------------------

def test_global_options_before_run(chrome_http):
    proc = verdex("--json", "--connect", chrome_http, "--timeout", "5", "run", INDEX, "eval 1 + 1")
    assert proc.returncode == 0, proc.stderr
    (obj,) = json_lines(proc.stdout)
    assert obj["result"]["value"] == 2


def test_global_options_after_run_and_after_the_url(chrome_http):
    proc = verdex("run", "--timeout", "5", "--connect", chrome_http, INDEX, "eval 2 + 2", "--json", "--no-color")
    assert proc.returncode == 0, proc.stderr
    (obj,) = json_lines(proc.stdout)
    assert obj["result"]["value"] == 4


def test_timeout_option_bounds_a_hanging_command(chrome_http):
    proc = verdex("run", "--connect", chrome_http, "--timeout", "1", "--json", INDEX,
                  "eval await new Promise(() => {})")
    assert proc.returncode == 1
    (obj,) = json_lines(proc.stdout)
    assert obj["error"]["kind"] == "timeout"
    assert 900 <= obj["elapsed_ms"] < 5000


def test_debug_shows_the_traceback(run):
    proc = run("--debug", INDEX, "eval null.x")
    assert proc.returncode == 1
    assert "Traceback" in proc.stderr and "JSError" in proc.stderr
