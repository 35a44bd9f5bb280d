"""The truth fuzzer in CI: one fixed seed, a few hundred seeded actions over generated sites.

Every result is judged against the independent oracle in the pages (see fuzz_run, fuzz_check):
no action may land on another element, no ok may be false, no command may hang, and no ref string
may ever name two elements. False refusals are counted and printed; those the oracle contradicts
outright fail the test, the timing-sensitive kinds ("moving", an unexpected error kind) are allowed
up to a small share, with the explanation printed. Replay a failure with
`python benchmarks/truth_fuzz.py --seed SEED --actions N` (the plan is a function of the seed).
"""

from __future__ import annotations

import pytest
from fuzz_check import FALSE_FAILURE, FALSE_OK, FALSE_REFUSAL, HANG, UNVERIFIED, WRONG
from fuzz_run import Fuzzer
from fuzz_server import FuzzServer

SEED = 7
ACTIONS = 220
# Every section kind is in (issue 30 took the rebuilt form, the written frames and quirks frames out
# for a while; each of their cases is explained and fixed since: see docs/BENCHMARKS.md, "Truth").
SKIP: tuple = ()
SOFT = ("is not moving", "unexpected ")  # timing-sensitive evidence: the oracle samples after the refusal
SOFT_SHARE = 0.03


@pytest.fixture(scope="module")
def fuzz_site():
    server = FuzzServer(skip=SKIP)
    yield server
    server.stop()


def test_truth_fuzz_fixed_seed(chrome_http, fuzz_site):
    report = Fuzzer(chrome_http, fuzz_site, SEED, ACTIONS).run()
    print(report.summary())
    refusals = report.bad(FALSE_REFUSAL)
    soft = [c for c in refusals if any(s in c.detail for s in SOFT)]
    hard = [c for c in refusals if c not in soft]
    for case in refusals:
        print(case.describe(SEED))
    problems = report.bad(WRONG, FALSE_OK, FALSE_FAILURE, HANG) + hard
    lines = [case.describe(SEED) for case in problems]
    lines += [f"ref string named two elements: {r}" for r in report.reissued[:10]]
    if len(report.reissued) > 10:
        lines.append(f"... and {len(report.reissued) - 10} more ref strings that named two elements")
    if len(soft) > SOFT_SHARE * len(report.cases):
        lines.append(f"{len(soft)} timing-sensitive false refusals (more than {SOFT_SHARE:.0%} of the actions)")
    if lines:
        pytest.fail(report.summary() + f"\nreplay: python benchmarks/truth_fuzz.py --seed {SEED} --actions {ACTIONS} "
                    f"--chunk {ACTIONS}\n" + "\n".join(lines), pytrace=False)
    assert len(report.cases) == ACTIONS
    assert report.counts()["correct"] > ACTIONS // 3  # the run really acted


def test_a_chunk_whose_first_page_does_not_open_is_one_case_and_the_run_goes_on(chrome_http, fuzz_site):
    # a chunk's first `open` timed out at load 40 and the whole run died with it
    from slow_server import SlowServer
    slow = SlowServer()
    fuzz_site.page, real = (lambda seed, n=0: slow.url("/slow?s=20")), fuzz_site.page
    try:
        report = Fuzzer(chrome_http, fuzz_site, SEED, 5, timeout=0.5).run()
    finally:
        fuzz_site.page = real
    assert [(c.index, c.verdict) for c in report.cases] == [(0, UNVERIFIED)], report.summary()
    assert "first page did not open" in report.cases[0].detail
    assert report.cases[0].result["error"]["kind"] == "timeout"
