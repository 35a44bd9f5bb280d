"""One-shot runs and the light client paths, each beside its anchor.

    python benchmarks/bench_oneshot.py             # 5 rounds
    python benchmarks/bench_oneshot.py --runs 9

Measured interleaved (one of each per round, so machine load hits all alike), medians of wall time:

- one-shot: `verdex run PAGE snapshot` (a small page), beside Playwright for Python doing the same
  from a fresh interpreter: launch, goto, aria_snapshot, close. Target: at most 1.2 s, and its ratio.
- shutdown: a launched browser's stop (`ChromeProcess.stop`: pipe closed, process group ended,
  profile removed), in this process. Target: at most 0.2 s.
- `verdex session list`, `verdex --version`: beside `python3 -c pass`. Target: at most 3x.
- `verdex run --session S 'eval 1'`: beside `python3 -c pass`. Target: at most 2x.

verdex's modules are byte-compiled first, as an installed package's are, and the runs may write
bytecode: with PYTHONDONTWRITEBYTECODE set, an editable checkout compiles every module it imports on
every start (Playwright's installed package has its bytecode either way).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import harness as h

ROOT = h.ROOT
PAGE = ROOT / "demo_pages" / "blank.html"

PLAYWRIGHT_ONESHOT = """
import sys
from playwright.sync_api import sync_playwright
with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=sys.argv[1], headless=True)
    page = browser.new_page()
    page.goto(sys.argv[2])
    snap = page.aria_snapshot(mode="ai") if hasattr(page, "aria_snapshot") else page.locator("body").aria_snapshot()
    browser.close()
print(len(snap))
"""


def wall(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    ms = (time.perf_counter() - start) * 1000.0
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)}\n{proc.stdout}{proc.stderr}")
    return ms


def shutdown_ms() -> float:
    from verdex_cli.browser import launch

    chrome = launch.launch(headless=True)
    start = time.perf_counter()
    chrome.stop()
    return (time.perf_counter() - start) * 1000.0


def has_playwright() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    runtime = tempfile.mkdtemp(prefix="vxb-", dir="/tmp")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               XDG_RUNTIME_DIR=runtime)
    env.pop("VERDEX_SESSION", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "verdex_cli")], env=env, check=True)
    script = os.path.join(os.path.dirname(sys.executable), "verdex")  # the console script users run
    verdex = [script] if os.access(script, os.X_OK) else [sys.executable, "-m", "verdex_cli"]
    chrome = h.launch.find_chrome(None)
    cases = {
        "python3 -c pass": [sys.executable, "-c", "pass"],
        "one-shot: verdex run PAGE snapshot": [*verdex, "run", str(PAGE), "snapshot"],
        "verdex session list": [*verdex, "session", "list"],
        "verdex --version": [*verdex, "--version"],
        "verdex run --session S 'eval 1'": [*verdex, "run", "--session", "bench", "eval 1"],
    }
    if has_playwright():
        cases["Playwright: launch+goto+aria_snapshot+close"] = [sys.executable, "-c", PLAYWRIGHT_ONESHOT, chrome,
                                                               PAGE.as_uri()]
    times: dict[str, list[float]] = {k: [] for k in [*cases, "shutdown (ChromeProcess.stop)"]}
    subprocess.run([*verdex, "session", "start", "bench", str(PAGE)], env=env, check=True, stdout=subprocess.DEVNULL)
    try:
        for _ in range(args.runs):
            for label, argv in cases.items():
                times[label].append(wall(argv, env))
            times["shutdown (ChromeProcess.stop)"].append(shutdown_ms())
    finally:
        subprocess.run([*verdex, "session", "stop", "bench"], env=env, stdout=subprocess.DEVNULL)
    med = {k: statistics.median(v) for k, v in times.items() if v}
    py = med["python3 -c pass"]
    pw = med.get("Playwright: launch+goto+aria_snapshot+close")
    rows = [
        ("one-shot: verdex run PAGE snapshot", pw, "Playwright one-shot", "<= 1.2 s"),
        ("shutdown (ChromeProcess.stop)", None, "", "<= 0.2 s"),
        ("verdex session list", py, "python3 -c pass", "<= 3x"),
        ("verdex --version", py, "python3 -c pass", "<= 3x"),
        ("verdex run --session S 'eval 1'", py, "python3 -c pass", "<= 2x"),
    ]
    print(f"medians of {args.runs} interleaved rounds (wall ms); load average {os.getloadavg()[0]:.1f}")
    print(f"  {'python3 -c pass':<44} {py:8.1f} ms")
    if pw is not None:
        print(f"  {'Playwright: launch+goto+aria_snapshot+close':<44} {pw:8.1f} ms")
    else:
        print("  Playwright for Python is not installed (pip install -e '.[bench]'): no one-shot anchor")
    for label, anchor, anchor_name, target in rows:
        ratio = f"{med[label] / anchor:5.2f}x {anchor_name}" if anchor else ""
        print(f"  {label:<44} {med[label]:8.1f} ms  {ratio:<30} target {target}")


if __name__ == "__main__":
    main()
