"""Find Chrome/Chromium, start it under a watchdog, and stop it again.

Nothing here prints; failures are raised as :mod:`verdex_cli.base.errors` types.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from ..base.errors import BrowserNotFound, LaunchError
from ..base.private_dir import Unsafe, ensure_private, short_base

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_HINT = (
    "No Chrome or Chromium found. Install one (Debian/Ubuntu: 'apt-get install chromium'), "
    "or point to it with --chrome PATH or VERDEX_CHROME."
)

# The DevTools connection of a launched browser: a pipe pair only verdex holds (no port any local
# user could reach); ``debug_port=True`` (tests, benchmarks, another tool) opens a loopback port instead.
PIPE_FLAGS = ("--remote-debugging-pipe",)
PORT_FLAGS = ("--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")

BASE_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--password-store=basic",
    "--use-mock-keychain",
    "--mute-audio",
)


def find_chrome(explicit: str | None = None) -> str:
    """Return the browser executable: explicit path, $VERDEX_CHROME, then PATH."""
    for source in (explicit, os.environ.get("VERDEX_CHROME")):
        if source:
            path = shutil.which(source) or (source if os.path.isfile(source) else None)
            if not path or not os.access(path, os.X_OK):
                raise BrowserNotFound(f"Browser '{source}' not found or not executable. Install Chrome or "
                                      "Chromium (Debian/Ubuntu: 'apt-get install chromium') or fix the path.")
            return path
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserNotFound(INSTALL_HINT)


def chrome_args(executable: str, profile: str, headless: bool, extra: tuple[str, ...] = (),
                debug_port: bool = False) -> list[str]:
    args = [executable, f"--user-data-dir={profile}", *(PORT_FLAGS if debug_port else PIPE_FLAGS),
            *BASE_FLAGS, *extra]
    args += ["--headless", "--disable-gpu", "--hide-scrollbars"] if headless else []
    args.append("--window-size=1280,900")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    args.append("about:blank")
    return args


def http_json(url: str, timeout: float, headers: list[str] | tuple = ()):
    """The JSON a DevTools HTTP endpoint answers (``headers``: ``Name: value`` lines to send)."""
    import urllib.request

    req = urllib.request.Request(url, headers=dict(h.split(": ", 1) for h in headers))
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - a DevTools endpoint
        return json.loads(resp.read().decode("utf-8"))


@dataclass
class ChromeProcess:
    """A running browser: either launched (owned) or attached to (not owned). A browser launched
    over a pipe has no ``http_endpoint`` or ``browser_ws`` (both ""): its connection is ``link``."""

    http_endpoint: str
    browser_ws: str
    owned: bool
    pid: int | None = None
    profile: str | None = None
    _watchdog: subprocess.Popen | None = field(default=None, repr=False)
    link: object = field(default=None, repr=False)  # the browser-level session (cdp.Target) once open

    def version(self, timeout: float = 5.0) -> dict:
        """``/json/version``'s fields (Browser, Protocol-Version, User-Agent), over the connection
        when there is no HTTP endpoint (a pipe)."""
        if self.http_endpoint:
            return http_json(self.http_endpoint + "/json/version", timeout)
        info = self.link.call("Browser.getVersion", timeout=timeout, interrupt=False)
        return {"Browser": info.get("product", ""), "Protocol-Version": info.get("protocolVersion", ""),
                "User-Agent": info.get("userAgent", ""), "V8-Version": info.get("jsVersion", "")}

    def alive(self) -> bool:
        """Cheap check (no I/O): False once an owned browser's process is gone, or once the connection
        to a browser we did not launch has closed (it died, or its service ended it)."""
        if not self.owned:
            return self.link.alive
        return self._watchdog is not None and self._watchdog.poll() is None

    def exited_within(self, timeout: float) -> bool:
        """An owned browser's process (its watchdog) ends within ``timeout`` s."""
        try:
            return self._watchdog is not None and self._watchdog.wait(timeout=timeout) is not None
        except subprocess.TimeoutExpired:
            return False

    def reachable(self, timeout: float = 1.0) -> bool:
        """Is the browser still there: process alive (if owned) and its DevTools socket answering."""
        if not self.alive():
            return False
        try:
            if self.link is not None:
                self.link.call("Browser.getVersion", timeout=timeout, interrupt=False)
            elif self.http_endpoint:
                self.version(timeout=timeout)
        except Exception:
            return False
        return True

    def stop(self, timeout: float = 8.0) -> None:
        """Stop an owned browser and remove its profile; detach from a foreign one."""
        wd, self._watchdog = self._watchdog, None
        if wd is None:
            return
        try:
            if wd.stdin and not wd.stdin.closed:
                try:
                    wd.stdin.write(b"stop\n")
                    wd.stdin.flush()
                finally:
                    wd.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            wd.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            wd.kill()
            wd.wait(timeout=2)
            if self.pid:
                try:
                    os.killpg(self.pid, 9)
                except (ProcessLookupError, PermissionError):
                    pass
        if wd.stdout:
            wd.stdout.close()
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)


WATCHDOG = (sys.executable, "-S", "-m", "verdex_cli.browser.watchdog")  # -S: no site, it needs only the standard library


def watchdog_env() -> dict:
    """The environment for a watchdog process: this package importable whatever the working directory."""
    env = dict(os.environ)
    pkg_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = pkg_root + os.pathsep + env.get("PYTHONPATH", "")
    return env


@dataclass
class _Spawned:
    """A watchdog started (and Chrome with it) whose connection is not open yet."""

    key: tuple  # (chrome, headless, extra_args, debug_port): what it was started with
    executable: str
    profile: str
    watchdog: subprocess.Popen
    ours: tuple[int, int]  # our ends of the pipe pair ((-1, -1) with a debug port)

    def discard(self) -> None:
        ChromeProcess("", "", owned=True, profile=self.profile, _watchdog=self.watchdog).stop()
        _close_fds(*self.ours)


_EARLY: _Spawned | None = None


def launch_early(chrome: str | None = None, headless: bool = True) -> None:
    """Start the browser now, while the caller imports the rest of verdex (a one-shot run's start-up):
    the next :func:`launch` with the same options takes it. A failure here is left for that launch to
    report; a browser never taken is stopped at exit."""
    global _EARLY
    try:
        _EARLY = _spawn((chrome, headless, (), False))
    except (BrowserNotFound, LaunchError):
        return
    atexit.register(_discard_early)


def _discard_early() -> None:
    global _EARLY
    early, _EARLY = _EARLY, None
    if early is not None:
        early.discard()


def launch(chrome: str | None = None, headless: bool = True, timeout: float = 20.0,
           extra_args: tuple[str, ...] = (), debug_port: bool = False) -> ChromeProcess:
    """Start a browser with a fresh profile and open its DevTools connection (``extra_args``: more
    Chrome flags, e.g. a benchmark's ``--host-resolver-rules``).

    By default the connection is a pipe pair (``--remote-debugging-pipe``: Chrome reads from its fd 3
    and writes to its fd 4), held only by this process: ``link`` is its browser-level session and no
    port is open. ``debug_port=True`` opens a DevTools port on 127.0.0.1 instead (``http_endpoint``,
    ``browser_ws``), which every local user can reach: for tests, benchmarks and other tools."""
    global _EARLY
    key = (chrome, headless, tuple(extra_args), debug_port)
    early, _EARLY = _EARLY, None
    if early is not None and early.key != key:
        early.discard()
        early = None
    return _connect(early or _spawn(key), timeout)


def _spawn(key: tuple) -> _Spawned:
    """Start the watchdog, which starts Chrome; nothing is waited for."""
    chrome, headless, extra_args, debug_port = key
    executable = find_chrome(chrome)
    profile = make_profile()
    args = chrome_args(executable, profile, headless, extra_args, debug_port=debug_port)
    pipe_args: list[str] = []
    ours: tuple[int, int] = (-1, -1)
    theirs: tuple[int, int] = ()
    if not debug_port:
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        ours, theirs = (from_chrome_r, to_chrome_w), (to_chrome_r, from_chrome_w)
        pipe_args = ["--pipe", f"{to_chrome_r},{from_chrome_w}"]
    cmd = [*WATCHDOG, profile, *pipe_args, "--", *args]
    try:
        # Chrome's own temporary files and its singleton socket go inside the profile: a short path
        # whatever $TMPDIR is, and removed with the profile
        wd = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=dict(watchdog_env(), TMPDIR=profile), pass_fds=theirs)
    except OSError as exc:
        shutil.rmtree(profile, ignore_errors=True)
        _close_fds(*ours, *theirs)
        raise LaunchError(f"Could not start the browser watchdog: {exc}") from exc
    _close_fds(*theirs)  # Chrome's ends live in the watchdog and Chrome only: EOF when Chrome is gone
    return _Spawned(key, executable, profile, wd, ours)


def _connect(spawned: _Spawned, timeout: float) -> ChromeProcess:
    """Wait for the started browser's pid, then for its DevTools connection."""
    _chrome, headless, _extra, debug_port = spawned.key
    executable, profile, wd, ours = spawned.executable, spawned.profile, spawned.watchdog, spawned.ours
    first = wd.stdout.readline().decode("utf-8", "replace").strip()
    if not first.startswith("pid "):
        wd.wait(timeout=5)
        shutil.rmtree(profile, ignore_errors=True)
        _close_fds(*ours)
        raise LaunchError(f"Could not start {executable}: {first.removeprefix('error ') or 'no output'}")
    proc = ChromeProcess("", "", owned=True, pid=int(first.split()[1]), profile=profile, _watchdog=wd)
    hint = ("--headed needs a display (is DISPLAY set?)" if not headless
            else f"check that '{executable} --headless --no-sandbox about:blank' runs")
    if not debug_port:
        return _open_pipe(proc, ours, executable, hint, timeout)
    return _open_port(proc, executable, hint, timeout)


def _open_port(proc: ChromeProcess, executable: str, hint: str, timeout: float) -> ChromeProcess:
    """The DevTools port a launched browser opened (``debug_port``), as its profile's
    DevToolsActivePort file names it, within ``timeout``."""
    port_file = os.path.join(proc.profile, "DevToolsActivePort")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.alive():
            proc.stop()
            raise LaunchError(f"{executable} exited during start-up; {hint}.")
        try:
            with open(port_file, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].strip():
                port = int(lines[0])
                proc.http_endpoint = f"http://127.0.0.1:{port}"
                proc.browser_ws = f"ws://127.0.0.1:{port}{lines[1].strip()}"
                return proc
        except FileNotFoundError:
            pass
        time.sleep(0.03)
    proc.stop()
    raise LaunchError(f"{executable} did not open its DevTools endpoint within {timeout:g} s.")


# the singleton socket Chrome makes: PROFILE/.org.chromium.Chromium.XXXXXX/SingletonSocket
PROFILE_ROOM = len("/verdex-profile-12345678/.org.chromium.Chromium.123456/SingletonSocket")


def make_profile() -> str:
    """A fresh private profile directory where Chrome's sockets fit a Unix socket path: under $TMPDIR
    when it is short enough, else under /tmp/verdex-UID; LaunchError in one line when neither is."""
    tmp = tempfile.gettempdir()
    base = short_base(PROFILE_ROOM, (tmp,))
    if base is None:
        raise LaunchError(f"The temporary directory path is too long for the browser's sockets ({tmp}); "
                          "set TMPDIR to a shorter one.")
    try:
        if base != tmp:
            ensure_private(base)
        profile = tempfile.mkdtemp(prefix="verdex-profile-", dir=base)
    except (OSError, Unsafe) as exc:
        raise LaunchError(f"Cannot make a browser profile under {base}: {exc}") from None
    os.chmod(profile, 0o700)
    return profile


def _close_fds(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass


def _open_pipe(proc: ChromeProcess, ours: tuple[int, int], executable: str, hint: str,
               timeout: float) -> ChromeProcess:
    """The browser-level session over the pipe pair, once the browser answers on it."""
    from ..base.errors import CDPTimeout, VerdexError
    from .cdp import Target
    from .transport import PipeTransport

    try:
        link = Target.open(timeout=timeout, transport=PipeTransport(*ours), answering=True)
    except VerdexError as exc:
        lost = not isinstance(exc, CDPTimeout)  # the pipe closed (read or write): the browser is exiting
        exited = not proc.alive()
        if lost and not exited:  # its watchdog follows it within moments
            exited = proc.exited_within(3)
        proc.stop()
        if exited:
            raise LaunchError(f"{executable} exited during start-up; {hint}.") from None
        raise LaunchError(f"{executable} did not answer on its DevTools pipe within {timeout:g} s.") from None
    proc.link = link
    return proc


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def endpoint_host(url: str) -> str:
    """The host name of a --connect URL (``ws://``, ``http://`` or bare ``host:port``)."""
    import urllib.parse

    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        return (urllib.parse.urlsplit(text).hostname or "").lower()
    except ValueError:  # http://[::1 and the like: not an address (connecting to it fails, one line)
        return ""


def is_loopback(url: str) -> bool:
    import ipaddress

    host = endpoint_host(url)
    if host in LOOPBACK_HOSTS or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
