"""The Chrome launcher: finding the browser, the temporary profile, and no orphan processes ever."""

from __future__ import annotations

import glob
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import until
from verdex_cli.browser import launch
from verdex_cli.base.errors import BrowserNotFound

ROOT = Path(__file__).resolve().parent.parent
INDEX = "demo_pages/index.html"


# -- helpers -------------------------------------------------------------------------------

def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _ppid(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def mentioning(needle: str) -> dict[int, str]:
    """Live processes whose command line contains ``needle``."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            cmd = _cmdline(int(entry))
            if needle in cmd and _alive(int(entry)):
                out[int(entry)] = cmd
    return out


def family(needle: str) -> set[int]:
    """Processes naming ``needle`` plus all their descendants (Chrome's helpers)."""
    roots = set(mentioning(needle))
    pids = [int(e) for e in os.listdir("/proc") if e.isdigit()]
    found = set(roots)
    changed = True
    while changed:
        changed = False
        for pid in pids:
            if pid not in found and _ppid(pid) in found:
                found.add(pid)
                changed = True
    return found


def assert_no_orphans(needle: str, tracked: set[int], timeout: float = 8.0) -> None:
    gone = until(lambda: not mentioning(needle) and not any(_alive(p) for p in tracked), timeout)
    if not gone:
        left = {p: _cmdline(p)[:160] for p in tracked | set(mentioning(needle)) if _alive(p)}
        # never leave them behind for the next test
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        pytest.fail(f"processes left after verdex ended: {left}")


def fake_browser(directory: Path, name: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def verdex_env(tmpdir: Path, **extra: str) -> dict:
    env = dict(os.environ)
    env["TMPDIR"] = str(tmpdir)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("XDG_STATE_HOME", str(tmpdir / "state"))
    env.update(extra)
    return env


def start_verdex(args: list[str], tmpdir: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=verdex_env(tmpdir),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def wait_for_page(proc: subprocess.Popen, tmpdir: Path, url_part: str, timeout: float = 20.0) -> str:
    """Wait until the verdex REPL ``proc`` (stdin and stdout pipes) shows a page whose URL contains
    ``url_part`` (it answers 'eval location.href'; the launched browser has no port to ask), then
    return its profile directory under ``tmpdir``. The REPL then waits on its stdin again."""
    import select

    proc.stdin.write(b"eval location.href\n")
    proc.stdin.flush()
    seen, deadline = b"", time.monotonic() + timeout
    while url_part.encode() not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(proc.stdout.fileno(), 65536) if ready else b""
        if ready and not chunk:
            break
        seen += chunk
    assert url_part.encode() in seen, f"verdex did not open {url_part} within {timeout} s"
    profiles = glob.glob(str(tmpdir / "verdex-profile-*"))
    assert len(profiles) == 1, profiles
    return profiles[0]


@pytest.fixture
def run_tmp():
    """A per-test TMPDIR, so this run's profile path is identifiable in /proc/*/cmdline."""
    d = Path(tempfile.mkdtemp(prefix="vxtest-", dir="/tmp"))  # short: the profile lands under it whatever TMPDIR is
    yield d
    import shutil

    shutil.rmtree(d, ignore_errors=True)


# -- find_chrome ---------------------------------------------------------------------------

def test_find_chrome_prefers_explicit_path_then_env_then_path(tmp_path, monkeypatch):
    on_path = fake_browser(tmp_path / "bin", "chromium")
    via_env = fake_browser(tmp_path / "env", "my-chrome")
    explicit = fake_browser(tmp_path / "explicit", "other-chrome")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("VERDEX_CHROME", str(via_env))

    assert launch.find_chrome(str(explicit)) == str(explicit)
    assert launch.find_chrome() == str(via_env)
    monkeypatch.delenv("VERDEX_CHROME")
    assert launch.find_chrome() == str(on_path)


def test_find_chrome_resolves_a_name_on_path(tmp_path, monkeypatch):
    exe = fake_browser(tmp_path / "bin", "google-chrome-stable")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("VERDEX_CHROME", raising=False)
    assert launch.find_chrome("google-chrome-stable") == str(exe)


def test_find_chrome_path_candidates_in_order(tmp_path, monkeypatch):
    monkeypatch.delenv("VERDEX_CHROME", raising=False)
    first, second = tmp_path / "a", tmp_path / "b"
    stable = fake_browser(second, "google-chrome-stable")
    monkeypatch.setenv("PATH", f"{first}{os.pathsep}{second}")
    assert launch.find_chrome() == str(stable)
    chrome = fake_browser(first, "google-chrome")
    assert launch.find_chrome() == str(chrome)
    chromium_browser = fake_browser(second, "chromium-browser")
    assert launch.find_chrome() == str(chromium_browser)
    chromium = fake_browser(second, "chromium")
    assert launch.find_chrome() == str(chromium)


def test_find_chrome_missing_says_how_to_install(tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("VERDEX_CHROME", raising=False)
    with pytest.raises(BrowserNotFound) as info:
        launch.find_chrome()
    err = info.value
    assert err.kind == "browser_not_found"
    assert "apt-get install chromium" in err.message
    assert "--chrome" in err.message and "VERDEX_CHROME" in err.message
    assert "\n" not in err.message


@pytest.mark.parametrize("how", ["missing", "not_executable"])
def test_find_chrome_bad_explicit_path(tmp_path, monkeypatch, how):
    monkeypatch.delenv("VERDEX_CHROME", raising=False)
    path = tmp_path / "chrome"
    if how == "not_executable":
        path.write_text("not a program")
        path.chmod(0o644)
    with pytest.raises(BrowserNotFound) as info:
        launch.find_chrome(str(path))
    assert str(path) in info.value.message
    assert "install" in info.value.message.lower()


def test_bad_verdex_chrome_is_reported_not_skipped(tmp_path, monkeypatch):
    fake_browser(tmp_path / "bin", "chromium")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("VERDEX_CHROME", str(tmp_path / "nope"))
    with pytest.raises(BrowserNotFound, match="nope"):
        launch.find_chrome()


def test_chrome_args_headless_pipe_or_loopback_random_port():
    args = launch.chrome_args("/usr/bin/chromium", "/tmp/prof", headless=True)
    assert "--remote-debugging-pipe" in args and not any(a.startswith("--remote-debugging-port") for a in args)
    args = launch.chrome_args("/usr/bin/chromium", "/tmp/prof", headless=True, debug_port=True)
    assert args[0] == "/usr/bin/chromium"
    for flag in ("--user-data-dir=/tmp/prof", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                 "--headless", "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync"):
        assert flag in args
    assert ("--no-sandbox" in args) == (os.geteuid() == 0)
    headed = launch.chrome_args("/usr/bin/chromium", "/tmp/prof", headless=False)
    assert "--headless" not in headed


# -- the CLI without a browser ---------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["run", "--chrome", "/nonexistent/chromium", INDEX, "eval 1"],
    ["--chrome", "/nonexistent/chromium", INDEX],
])
def test_cli_with_nonexistent_chrome_prints_one_line_and_exits_2(args, run_tmp):
    proc = subprocess.run([sys.executable, "-m", "verdex_cli", *args], cwd=ROOT, env=verdex_env(run_tmp),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "/nonexistent/chromium" in lines[0] and "install" in lines[0].lower()
    assert "Traceback" not in proc.stderr + proc.stdout


def test_cli_with_nonexistent_chrome_and_json_prints_one_json_object(run_tmp):
    import json

    proc = subprocess.run([sys.executable, "-m", "verdex_cli", "--json", "run", "--chrome", "/nonexistent/chromium",
                           INDEX, "eval 1"], cwd=ROOT, env=verdex_env(run_tmp), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    (line,) = proc.stdout.splitlines()
    obj = json.loads(line)
    assert obj["ok"] is False and obj["command"] == f"open {INDEX}"
    assert obj["error"]["kind"] == "browser_not_found"
    assert "/nonexistent/chromium" in obj["error"]["message"]
    assert list(obj) == ["command", "ok", "error", "elapsed_ms"]
    assert proc.stderr == ""


def test_cli_with_no_browser_anywhere_says_what_to_install(run_tmp):
    empty = run_tmp / "empty-bin"
    empty.mkdir()
    env = verdex_env(run_tmp, PATH=str(empty))
    env.pop("VERDEX_CHROME", None)
    proc = subprocess.run([sys.executable, "-m", "verdex_cli", "run", INDEX, "eval 1"], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "apt-get install chromium" in proc.stderr
    assert "Traceback" not in proc.stderr


# -- launch / stop in-process -----------------------------------------------------------------

def test_launch_uses_private_profile_and_stop_removes_everything(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # Chrome's own temp files (singleton socket) go here
    proc = launch.launch(headless=True)
    try:
        profile = proc.profile
        # under TMPDIR when Chrome's sockets fit there (pytest's tmp_path is too long: /tmp/verdex-UID)
        assert profile and profile.startswith((str(tmp_path), f"/tmp/verdex-{os.getuid()}/"))
        assert stat.S_IMODE(os.stat(profile).st_mode) == 0o700
        assert proc.owned and proc.alive()
        assert proc.http_endpoint == ""  # DevTools over a pipe (test_pipe.py): no port
        assert "Browser" in proc.version()
        assert _alive(proc.pid)
        assert profile in _cmdline(proc.pid)
        tracked = family(profile)
        assert proc.pid in tracked
        # Chrome's singleton socket dir is inside the profile, whatever TMPDIR is
        assert any(name.startswith((".org.chromium.", "org.chromium.")) for name in os.listdir(profile))
    finally:
        proc.stop()
    assert not os.path.exists(profile)
    assert not proc.alive()
    assert_no_orphans(profile, tracked)
    # nothing of Chrome's (e.g. its singleton socket dir) is left in TMPDIR either
    assert list(tmp_path.iterdir()) == []


def test_chrome_dies_with_a_killed_watchdog(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    proc = launch.launch(headless=True)
    try:
        tracked = family(proc.profile)
        os.kill(proc._watchdog.pid, signal.SIGKILL)
        assert_no_orphans(proc.profile, tracked)
    finally:
        proc.stop()
    assert not os.path.exists(proc.profile)


def test_connect_to_unreachable_endpoint_is_connect_failed():
    from verdex_cli.browser import endpoint
    from verdex_cli.base.errors import ConnectFailed

    with pytest.raises(ConnectFailed, match=r"^Cannot connect to http://127\.0\.0\.1:9: tried /json/version "
                                            r"\(connection refused\)\.$"):
        endpoint.connect("http://127.0.0.1:9", timeout=2)


# -- no orphans, with the real CLI -----------------------------------------------------------

def test_no_orphans_after_repl_quit(run_tmp):
    proc = start_verdex([INDEX], run_tmp, stdin=subprocess.PIPE)
    out, err = proc.communicate(b"eval 1 + 1\nquit\neval 'not run'\n", timeout=60)
    assert proc.returncode == 0, err
    assert b"2" in out.splitlines() and b"not run" not in out
    needle = str(run_tmp / "verdex-profile-")
    assert_no_orphans(needle, set())
    assert not glob.glob(needle + "*")


def test_no_orphans_after_oneshot_run(run_tmp):
    proc = start_verdex(["run", INDEX, "eval document.title"], run_tmp, stdin=subprocess.DEVNULL)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.decode().strip() == "'Verdex demo site'"
    needle = str(run_tmp / "verdex-profile-")
    assert_no_orphans(needle, set())
    assert not glob.glob(needle + "*")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=["TERM", "HUP", "KILL"])
def test_no_orphans_after_signal(run_tmp, sig):
    # A REPL whose stdin pipe stays open blocks reading it, with Chrome running.
    proc = start_verdex([INDEX], run_tmp, stdin=subprocess.PIPE)
    try:
        profile = wait_for_page(proc, run_tmp, "index.html")
        tracked = family(profile)
        assert len(tracked) >= 2  # the watchdog and Chrome at least
        proc.send_signal(sig)
        proc.wait(timeout=15)
        err = proc.stderr.read().decode()
        if sig != signal.SIGKILL:
            assert proc.returncode == 128 + sig, err
            assert "Traceback" not in err
        else:
            assert proc.returncode == -signal.SIGKILL
        assert_no_orphans(profile, tracked)
        assert until(lambda: not os.path.exists(profile), 5), "profile directory left behind"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()


def test_connect_does_not_kill_the_shared_browser(chrome, chrome_http, run_tmp):
    pid = chrome.pid
    proc = start_verdex(["--connect", chrome_http, INDEX], run_tmp, stdin=subprocess.PIPE)
    out, err = proc.communicate(b"eval location.protocol\nquit\n", timeout=60)
    assert proc.returncode == 0, err
    assert b"file:" in out
    run = subprocess.run([sys.executable, "-m", "verdex_cli", "run", "--connect", chrome_http, INDEX, "eval 1"],
                         cwd=ROOT, env=verdex_env(run_tmp), stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    # Not a wait for a condition: the check is that something does NOT happen (the shared browser
    # is not closed or killed), so a wrongful shutdown, which is asynchronous, gets a moment to show.
    time.sleep(0.5)
    assert _alive(pid) and chrome.alive()
    assert "Browser" in chrome.version()
    # and nothing was launched under this run's TMPDIR
    assert not glob.glob(str(run_tmp / "verdex-profile-*"))
