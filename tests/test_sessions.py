"""Sessions: real session servers, real clients, real Chromium (each test has its own XDG_RUNTIME_DIR
and TMPDIR, so its session directory and its browser profile are private and easy to find in /proc)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import until

ROOT = Path(__file__).resolve().parent.parent
SHOP = str(ROOT / "demo_pages" / "shop.html")
INDEX = str(ROOT / "demo_pages" / "index.html")


def poll(predicate, timeout: float = 20.0, what: str = "condition"):
    value = until(predicate, timeout)
    assert value, f"timed out waiting for {what}"
    return value


class Env:
    def __init__(self):
        # short paths: Chrome's singleton socket and ours must fit a Unix socket's 108 bytes
        self.base = Path(tempfile.mkdtemp(prefix="vxs-", dir="/tmp"))
        self.runtime = self.base / "rt"
        self.tmp = self.base / "tmp"
        self.runtime.mkdir(mode=0o700)
        self.tmp.mkdir()
        os.chmod(self.runtime, 0o700)
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(ROOT) + os.pathsep + self.env.get("PYTHONPATH", "")
        self.env["XDG_RUNTIME_DIR"] = str(self.runtime)
        self.env["TMPDIR"] = str(self.tmp)  # the browser profile lands here
        for key in ("VERDEX_SESSION", "NO_COLOR"):
            self.env.pop(key, None)

    @property
    def dir(self) -> Path:
        return self.runtime / "verdex"

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "verdex_cli", *args]

    def run(self, *args: str, input: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(self.argv(*args), env=self.env, cwd=ROOT, input=input, text=True, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=None if input is not None else subprocess.DEVNULL)

    def popen(self, *args: str, **kw) -> subprocess.Popen:
        return subprocess.Popen(self.argv(*args), env=self.env, cwd=ROOT, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, **kw)

    def start(self, name: str, *args: str) -> None:
        proc = self.run("session", "start", name, *args)
        assert proc.returncode == 0, proc.stderr + proc.stdout
        assert proc.stdout == name + "\n"

    def json_run(self, name: str, *commands: str) -> tuple[int, list[dict]]:
        proc = self.run("run", "--session", name, "--json", *commands, timeout=60)
        return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]

    def sessions(self) -> list[dict]:
        proc = self.run("session", "list", "--json")
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["result"]["sessions"]

    def chrome_pids(self) -> list[int]:
        """Processes whose command line names this test's TMPDIR (the browser and its helpers)."""
        needle = str(self.tmp).encode()
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    cmdline = fh.read()
            except OSError:
                continue
            if needle in cmdline and b"watchdog" not in cmdline:
                found.append(int(entry))
        return found


@pytest.fixture
def env():
    e = Env()
    yield e
    e.run("session", "stop", "--all")
    poll(lambda: not e.chrome_pids(), what="no browser left behind")
    shutil.rmtree(e.base, ignore_errors=True)


def test_start_list_stop_with_private_socket(env):
    env.start("s1", INDEX)
    st_dir, st_sock = os.stat(env.dir), os.stat(env.dir / "s1.sock")
    assert stat.S_IMODE(st_dir.st_mode) == 0o700 and st_dir.st_uid == os.getuid()
    assert stat.S_ISSOCK(st_sock.st_mode) and stat.S_IMODE(st_sock.st_mode) == 0o600
    [row] = env.sessions()
    assert row["name"] == "s1" and row["browser"] == "launched" and row["tabs"] == 1
    assert env.chrome_pids()
    again = env.run("session", "start", "s1")  # the name is taken: one clear line
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "Session 's1' is already running" in again.stderr
    code, [res] = env.json_run("s1", "eval document.title")
    assert code == 0 and res["result"]["value"] == "Verdex demo site"
    stop = env.run("session", "stop", "s1")
    assert stop.returncode == 0 and "Stopped s1." in stop.stdout
    assert env.sessions() == []
    poll(lambda: not env.chrome_pids(), what="the browser to close")
    assert not (env.dir / "s1.sock").exists()


def test_refs_and_tabs_shared_across_invocations(env):
    env.start("shop", SHOP)
    code, [snap] = env.json_run("shop", "snapshot")
    assert code == 0
    save = next(ref for ref, info in snap["result"]["refs"].items() if info["name"] == "Save")
    code, [click] = env.json_run("shop", f"click {save}")  # a ref from another invocation
    assert code == 0 and click["ok"], click
    code, [after] = env.json_run("shop", "eval document.getElementById('save').textContent")
    assert after["result"]["value"] == "Saving..."  # read back by a page script of its own
    code, res = env.json_run("shop", f"open {INDEX}", "tabs")
    assert code == 0 and res[1]["result"]["tabs"][0]["title"] == "Verdex demo site"
    code, [stale] = env.json_run("shop", f"click {save}")
    assert code == 1 and stale["error"]["kind"] == "navigated"  # the session remembers where refs came from


def test_several_clients_at_once_each_gets_its_own_results_in_order(env):
    env.start("many", INDEX)
    clients = []
    for c in range(4):
        lines = [f"eval 'c{c}-{j}:' + (window.__seq = (window.__seq || 0) + 1)" for j in range(5)]
        clients.append(env.popen("run", "--session", "many", "--json", *lines))
    seen = []
    for c, proc in enumerate(clients):
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        values = [json.loads(line)["result"]["value"] for line in out.splitlines()]
        assert [v.split(":")[0] for v in values] == [f"c{c}-{j}" for j in range(5)]  # its own, in its order
        numbers = [int(v.split(":")[1]) for v in values]
        assert numbers == sorted(numbers)
        seen += numbers
    assert sorted(seen) == list(range(1, 21))  # one at a time: every command saw the one before it


def test_ctrl_c_cancels_only_that_clients_command_and_stops_the_page_script(env):
    env.start("busy", INDEX, "--timeout", "60")
    spinner = env.popen("run", "--session", "busy", "--json", "eval while (true) {}")
    poll(lambda: env.sessions()[0].get("busy"), what="the loop to run")
    waiter = env.popen("run", "--session", "busy", "--json", "eval 40 + 2")  # queued behind the loop
    poll(lambda: env.sessions()[0].get("queued", 0) >= 1, what="the second command to queue")
    spinner.send_signal(signal.SIGINT)
    out, _ = spinner.communicate(timeout=30)
    assert spinner.returncode == 130 and json.loads(out)["error"]["kind"] == "cancelled"  # as a shell says it
    out, err = waiter.communicate(timeout=30)  # the page answers again: its script was stopped
    assert waiter.returncode == 0, err
    assert json.loads(out)["result"]["value"] == 42


def on_pty(env: Env, *args: str):
    master, slave = pty.openpty()
    e = dict(env.env, TERM="xterm-256color", COLUMNS="120", LINES="40")
    proc = subprocess.Popen(env.argv(*args), env=e, cwd=ROOT, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    return proc, master


class Screen:
    """Everything the attached REPL wrote to its terminal, read by a thread."""

    def __init__(self, master: int):
        self.master, self.data = master, b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if ready:
                    chunk = os.read(self.master, 65536)
                    if not chunk:
                        return
                    self.data += chunk
            except OSError:
                return

    def text(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.data.decode("utf-8", "replace"))

    def wait_for(self, needle: str, timeout: float = 30.0) -> None:
        poll(lambda: needle in self.text(), timeout, what=f"{needle!r} on the attached terminal")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())


@contextmanager
def attached(env: Env, name: str):
    """`verdex attach NAME` on a terminal of its own: yields (its process, its Screen) once it says it
    is attached; killed afterwards if the test did not end it."""
    proc, master = on_pty(env, "attach", name)
    try:
        screen = Screen(master)
        screen.wait_for(f"Attached to session '{name}'")
        yield proc, screen
    finally:
        if proc.poll() is None:
            proc.kill()


def test_attach_shows_other_clients_commands_and_detaches(env):
    env.start("watch", INDEX)
    with attached(env, "watch") as (proc, screen):
        other = env.popen("run", "--session", "watch", "eval 'fed-' + (40 + 2)")
        other.communicate(timeout=30)
        assert other.returncode == 0
        screen.wait_for(f"[run {other.pid}] eval 'fed-' + (40 + 2)")
        screen.wait_for("fed-42")
        screen.type("eval 'mine-' + 7\r")  # a command of the attached REPL itself
        screen.wait_for("mine-7")
        screen.type("\x04")  # Ctrl-D: detach
        assert proc.wait(timeout=30) == 0
        screen.wait_for("keeps running")
    assert [s["name"] for s in env.sessions()] == ["watch"]
    with attached(env, "watch") as (proc, screen):  # attach again; quit, and say yes: the session stops
        screen.type("quit\r")
        screen.wait_for("Stop session 'watch' too")
        screen.type("y\r")
        assert proc.wait(timeout=30) == 0
    assert env.sessions() == []
    poll(lambda: not env.chrome_pids(), what="the browser to close")


def test_killed_server_leaves_no_chrome_and_clients_get_no_session_at_once(env):
    env.start("doomed", INDEX)
    [row] = env.sessions()
    assert env.chrome_pids()
    os.kill(row["pid"], signal.SIGKILL)
    poll(lambda: not env.chrome_pids(), what="the browser to die with its server")
    assert (env.dir / "doomed.sock").exists()  # left behind by SIGKILL
    proc = env.run("run", "--session", "doomed", "--json", "eval 1", timeout=10)
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"] == {
        "kind": "no_session", "message": "No session 'doomed'. Start one with 'verdex session start doomed'."}
    assert env.sessions() == []  # list cleans the stale socket
    assert not (env.dir / "doomed.sock").exists()
    env.start("doomed", INDEX)  # and the name can be used again
    code, [res] = env.json_run("doomed", "eval 1 + 1")
    assert res["result"]["value"] == 2


def test_dead_browser_is_browser_lost_for_every_client_then_relaunch(env):
    env.start("lost", INDEX)
    for pid in env.chrome_pids():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    poll(lambda: "gone" in env.sessions()[0]["browser"], what="the server to notice")
    for _ in range(2):  # two clients, each told the same
        code, [res] = env.json_run("lost", "eval 1")
        assert code == 1 and res["error"]["kind"] == "browser_lost"
    code, res = env.json_run("lost", "relaunch", "eval document.title")
    assert code == 0 and res[0]["result"]["relaunched"] and res[1]["result"]["value"] == "Verdex demo site"


def test_idle_timeout_stops_the_session_and_its_browser(env):
    env.start("idle", INDEX, "--idle-timeout", "0.05")  # 3 s (start returns once its browser is up)
    poll(lambda: env.sessions() == [], timeout=60, what="the idle session to stop")
    poll(lambda: not env.chrome_pids(), what="its browser to close")
    proc = env.run("run", "--session", "idle", "eval 1", timeout=10)
    assert proc.returncode == 2 and re.fullmatch(
        r"No session 'idle'; it ended at \d\d:\d\d:\d\d after 0\.05 minutes without a client \(--idle-timeout\)\. "
        r"Start one with 'verdex session start idle'\.", proc.stderr.strip()), proc.stderr


@pytest.mark.parametrize("name", ["has space", "x" * 41, "semi;colon", "dot.dot/"])
def test_bad_names_are_refused_in_one_line(env, name):
    for args in (("session", "start", name, INDEX), ("run", "--session", name, "eval 1"), ("attach", name),
                 ("session", "stop", name)):
        proc = env.run(*args, timeout=20)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and "Bad session name" in proc.stderr, (args, proc.stderr)
    assert not env.chrome_pids()


def test_unsafe_session_directory_is_refused(env):
    env.dir.mkdir(mode=0o700)
    os.chmod(env.dir, 0o777)
    for args in (("session", "start", "s"), ("run", "--session", "s", "eval 1"), ("session", "list")):
        proc = env.run(*args, timeout=20)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, (args, proc.stderr)
        assert "group or others may write" in proc.stderr
    os.chmod(env.dir, 0o700)
    if os.getuid() == 0:  # as root we can hand the directory to someone else
        os.chown(env.dir, 65534, 65534)
        proc = env.run("session", "start", "s", timeout=20)
        assert proc.returncode == 2 and "owned by another user" in proc.stderr
        os.chown(env.dir, 0, 0)
    assert not env.chrome_pids()


def test_run_session_client_stays_light_and_oneshot_options_are_refused(env):
    env.start("light", INDEX)
    probe = ("import sys, runpy; sys.argv = ['verdex', 'run', '--session', 'light', 'eval 1']\n"
             "try:\n    runpy.run_module('verdex_cli', run_name='__main__')\nexcept SystemExit as e:\n"
             "    code = e.code\n"
             "heavy = [m for m in ('typer', 'rich', 'prompt_toolkit', 'pychrome', 'verdex_cli.browser',"
             " 'verdex_cli.ui.repl', 'verdex_cli.ui.render') if m in sys.modules]\n"
             "print('HEAVY', heavy, code)")
    proc = subprocess.run([sys.executable, "-c", probe], env=env.env, cwd=ROOT, text=True, capture_output=True,
                          timeout=30)
    assert proc.stdout.splitlines()[-1] == "HEAVY [] 0", proc.stdout + proc.stderr
    bad = env.run("run", "--session", "light", "--headed", "eval 1")
    assert bad.returncode == 2 and "is a session option" in bad.stderr
    usage = env.run("run", "--session", "light", "--json", "nosuchcommand")
    assert usage.returncode == 2 and json.loads(usage.stdout)["error"]["kind"] == "usage"
    via_env = subprocess.run(env.argv("run", "eval 6 * 7"), env=dict(env.env, VERDEX_SESSION="light"), cwd=ROOT,
                             text=True, capture_output=True, timeout=30)
    assert via_env.returncode == 0 and via_env.stdout.strip() == "42"
