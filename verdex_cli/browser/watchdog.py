"""Keeps Chrome from outliving verdex.

Run as ``python -m verdex_cli.browser.watchdog PROFILE [--pipe R,W] -- CHROME ARGS...``.
It starts Chrome in a process group of its own (with ``--pipe``: the inherited descriptors R and W
become Chrome's fd 3 and fd 4, the ``--remote-debugging-pipe`` pair), prints Chrome's pid, then
waits on its standard input.  When that pipe closes (verdex quit, crashed or
was killed with SIGKILL) or Chrome exits, it kills Chrome's whole process
group and removes the temporary profile.

``python -m verdex_cli.browser.watchdog --remove DIR`` only guards a folder
(the session's private download folder): it removes DIR when its standard
input closes, however verdex ended.  This module imports nothing from the
rest of the package so it starts fast.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import select
import shutil
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1


def _child_setup(pipe: tuple[int, int] | None):
    """What runs in the Chrome child before exec: get SIGKILL if the watchdog itself dies; the pipe pair
    onto 3 and 4."""
    def setup() -> None:
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except Exception:
            pass
        if pipe is not None:
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in pipe]  # out of 3 and 4's way
            os.dup2(high[0], 3)  # dup2 leaves 3 and 4 inheritable: Chrome gets them
            os.dup2(high[1], 4)
    return setup


def kill_group(proc: subprocess.Popen) -> None:
    """End Chrome's process group at once (SIGKILL): the profile is thrown away, so nothing needs a clean
    shutdown (SIGTERM and a grace took 0.1-0.3 s more; Browser.close over the pipe, 1-2 s on a loaded
    machine). Helpers may stay zombies for a moment (their new parent reaps them); they hold nothing,
    so nobody waits for them."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - defensive
        pass


def kill_by_profile(profile: str) -> None:
    """Kill stragglers that left the group (e.g. crashpad) but name our profile."""
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if profile.encode() in cmdline:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def remove_profile(profile: str) -> None:
    """Remove the profile and Chrome's singleton directory in $TMPDIR that it links to."""
    try:
        target = os.readlink(os.path.join(profile, "SingletonSocket"))
    except OSError:
        target = ""
    socket_dir = os.path.dirname(target)
    if os.path.basename(socket_dir).removeprefix(".").startswith("org.chromium."):
        shutil.rmtree(socket_dir, ignore_errors=True)
    shutil.rmtree(profile, ignore_errors=True)


def guard_folder(directory: str) -> int:
    """Wait until verdex is gone (our stdin closes, or 'stop'), then remove ``directory``."""
    stopping = _signals()
    try:
        _wait_for_stop(stopping, 0.5)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


def _signals() -> list:
    """Ctrl-C is ignored (it belongs to the REPL); SIGTERM and SIGHUP append to the list returned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stopping: list = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGHUP, lambda *_: stopping.append(1))
    return stopping


def _wait_for_stop(stopping: list, every: float, done=lambda: False) -> None:
    """Until a signal, ``done()``, our stdin closing (verdex is gone, however it ended) or 'stop'."""
    while not stopping and not done():
        try:
            ready, _, _ = select.select([sys.stdin], [], [], every)
        except InterruptedError:  # pragma: no cover - signal during select
            continue
        if ready:
            line = sys.stdin.readline()
            if not line or line.strip() == "stop":
                return


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--remove":
        return guard_folder(argv[1])
    pipe = None
    if len(argv) > 3 and argv[1] == "--pipe":
        try:
            pipe = tuple(int(fd) for fd in argv[2].split(","))
        except ValueError:
            pipe = ()
        if len(pipe) != 2:
            print("error bad --pipe", flush=True)
            return 2
        argv = [argv[0], *argv[3:]]
    if "--" not in argv or argv.index("--") != 1:
        print("usage: watchdog PROFILE [--pipe R,W] -- CHROME ARGS...  |  watchdog --remove DIR", file=sys.stderr)
        return 2
    profile, cmd = argv[0], argv[2:]
    stopping = _signals()
    if pipe is not None:
        for fd in pipe:  # only as 3 and 4 in Chrome (close_fds=False would pass them on otherwise)
            os.set_inheritable(fd, False)
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_child_setup(pipe),
            close_fds=pipe is None,  # with a pipe: descriptors 3 and 4 are made in the child (all else is non-inheritable)
        )
    except OSError as exc:
        print(f"error {exc}", flush=True)
        shutil.rmtree(profile, ignore_errors=True)
        return 1
    finally:
        for fd in pipe or ():
            os.close(fd)  # Chrome holds them now: when it is gone, verdex reads EOF
    print(f"pid {proc.pid}", flush=True)
    try:
        _wait_for_stop(stopping, 0.2, done=lambda: proc.poll() is not None)
    finally:
        kill_group(proc)
        if os.path.isdir("/proc"):
            kill_by_profile(profile)
        remove_profile(profile)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
