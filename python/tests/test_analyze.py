"""analyze(): the CLI's default search gives the same findings through the
API; verdicts, history and progress."""

import json

import numpy as np
import pandas as pd
import pytest

import simulee
from conftest import CORPUS


def _key(kind, variable, lines):
    return (kind, variable, tuple(sorted(lines)) if kind == "data-race" else (lines[0],))


@pytest.mark.parametrize("name", ["reduce_missing_loop_barrier", "reduce_sequential", "device_helper", "copy_2d"])
def test_analyze_finds_what_the_cli_finds(name, cli, cli_flags):
    file = CORPUS / f"{name}.cu"
    report = simulee.analyze(file, seed=3, jobs=2, progress=False)
    code, out, _ = cli(file, "--format", "json", "--seed", "3", "--jobs", "2", *cli_flags)
    theirs = {_key(f["kind"], f["variable"], [a["line"] for a in f["accesses"]]) for f in json.loads(out)["findings"]}
    ours = {_key(f.kind, f.variable, [s.line for s in f.sites]) for f in report.findings}
    assert ours == theirs
    assert (code == 1) == (report.verdict == "findings")
    assert report.report("json") == out or len(report.kernels) > 1


def test_report_verdict_history_and_launches():
    report = simulee.analyze(CORPUS / "reduce_missing_loop_barrier.cu", generations=3, population=6, progress=False)
    assert report.verdict == "findings" and report.verdict in simulee.VERDICTS
    history = report.history
    assert len(history) == report.launches > 0
    assert set(history["generation"]) <= set(range(4)) and history["generation"][0] == 0
    assert {"grid_x", "block_x", "F", "range", "arguments", "outcome"} <= set(history.dtype.names)
    judged = history[history["valid"]]
    assert ((judged["F"] > 0) & (judged["F"] <= 1)).all()
    assert set(history["arguments"][0]) == {"in", "out", "n"}
    assert report.kernels[0].best_F == pytest.approx(judged["F"].min())
    frame = report.history_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(history)
    # The same seed gives the same search.
    again = simulee.analyze(CORPUS / "reduce_missing_loop_barrier.cu", generations=3, population=6, progress=False, jobs=1)
    np.testing.assert_array_equal(again.history["F"], history["F"])


def test_clean_kernel_and_progress_callback():
    seen = []
    report = simulee.analyze(CORPUS / "reduce_sequential.cu", generations=4, progress=seen.append)
    assert report.verdict == "clean" and not [f for f in report.findings if f.is_bug]
    assert report.kernels[0].judged_launches > 0
    judged = report.kernels[0].judged_launches
    assert report.kernels[0].verdict_text.startswith(f"clean ({judged} launches judged")
    assert [p.generation for p in seen][-1] == seen[-1].generations == 4
    assert all(p.kernel == "reduce_sequential" for p in seen)


def test_fixed_settings_are_kept():
    report = simulee.analyze(CORPUS / "reduce_missing_loop_barrier.cu", block=128, args={"n": 100},
                             generations=2, progress=False)
    history = report.history
    assert (history["block_x"] == 128).all()
    assert all(a["n"] == "100" for a in history["arguments"])


def test_finding_to_dict_is_plain_data():
    report = simulee.analyze(CORPUS / "histogram_nonatomic.cu", generations=2, progress=False)
    finding = report.findings[0]
    d = finding.to_dict()
    assert d["kind"] == "data-race" and d["variable"] == "hist"
    assert d["sites"][0]["line"] == 5 and len(d["sites"][0]["thread"]) == 3
    json.dumps(d)
    assert str(finding).startswith("data-race: data race on global 'hist'")


def test_kernels_are_searched_from_the_host_code_with_provenance():
    report = simulee.analyze(CORPUS / "never_launched.cu", generations=3, progress=False)
    verdicts = {k.kernel: k.verdict for k in report.kernels}
    assert verdicts == {"scale_rows": "clean", "fold_window": "not launched"}
    assert report.verdict == "clean" and "not launched" in simulee.VERDICTS
    # The host's cudaMalloc sizes the buffer: a read past it is a finding
    # whose launch came from the call site, with searched values.
    shifted = simulee.analyze(CORPUS / "alloc_shift_read.cu", generations=3, progress=False)
    assert [f.kind for f in shifted.findings] == ["out-of-bounds"]
    launch = shifted.findings[0].launch
    assert launch.provenance == "site+search" and launch.origin.endswith("alloc_shift_read.cu:19")
    # explore=True searches the kernel nobody launches, freely.
    explored = simulee.analyze(CORPUS / "never_launched.cu", kernel="_Z11fold_windowPfi", explore=True,
                               generations=3, progress=False)
    assert explored.verdict == "findings"
    assert {f.launch.provenance for f in explored.findings} == {"free"}
