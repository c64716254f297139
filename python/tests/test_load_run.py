"""load() and run(): kernels, findings as the CLI reports them, outputs
equal to host references, the accesses and barrier tables row by row."""

import json

import numpy as np
import pytest

import simulee
from conftest import CORPUS, ROOT, independent_threads, manifest

KERNELS = ROOT / "tests" / "interp" / "kernels"


def test_load_lists_kernels_with_parameters_and_builtins():
    program = simulee.load(CORPUS / "reduce_missing_loop_barrier.cu")
    assert [k.name for k in program.kernels] == ["reduce_missing_loop_barrier"]
    kernel = program.kernels[0]
    assert [(p.name, p.type, p.dtype) for p in kernel.parameters] == [
        ("in", "const float *", "float32"),
        ("out", "float *", "float32"),
        ("n", "int32", None),
    ]
    assert kernel.builtins_read == ("threadIdx.x", "blockIdx.x", "blockDim.x")
    assert kernel.line == 4 and kernel.barriers == 1
    assert program.kernel(kernel.symbol) == kernel


def test_kernel_notes_say_what_the_analysis_assumed():
    program = simulee.load(CORPUS / "unresolved_device_call.cu")
    kernel = program.kernel("weightedShift")
    assert len(kernel.notes) == 2
    assert "call to undefined 'weightOf(int)'" in kernel.notes[0]
    assert kernel.notes[0].endswith("unresolved_device_call.cu:13 returned a chosen value")
    assert simulee.load(CORPUS / "reduce_missing_loop_barrier.cu").kernels[0].notes == ()


def _lines(finding):
    lines = [s.line for s in finding.sites]
    if finding.kind == "data-race":
        return tuple(sorted(lines))
    return (lines[0],)


def _expected(entry):
    return (entry["kind"], tuple(entry["lines"]) if "lines" in entry else (entry["line"],))


def _cli_findings(stdout):
    found = set()
    for f in json.loads(stdout)["findings"]:
        lines = [a["line"] for a in f["accesses"]]
        found.add((f["kind"], f["variable"], tuple(sorted(lines)) if f["kind"] == "data-race" else (lines[0],)))
    return found


# Labeled launches of every finding kind, both warp semantics.
LABELED = [
    "reduce_missing_loop_barrier",
    "histogram_nonatomic",
    "barrier_in_branch",
    "early_return_barrier",
    "global_interblock_write",
    "double_buffer_missing_barrier",
    "reduce_sequential",
    "warp_sync_reduce",
    "struct_host_filled",
]


@pytest.mark.parametrize("name", LABELED)
def test_run_gives_the_labeled_findings_and_those_of_the_cli(name, cli, cli_mode):
    m = manifest(name)
    launch = m["launch"]
    independent = independent_threads(m)
    file = CORPUS / m.get("file", name.split(".")[0] + ".cu")
    result = simulee.run(file, m["kernel"], grid=launch["grid"], block=launch["block"], args=launch["args"],
                         shared_bytes=launch.get("sharedBytes", 0), independent_threads=independent)
    ours = {(f.kind, _lines(f)) for f in result.findings if f.is_bug}
    expected = {_expected(e) for e in m["expected"] if e["kind"] != "unreached-barrier"}
    assert ours == expected

    args = ["run", file, "--kernel", m["kernel"], "--format", "json",
            "--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"]))]
    for key, value in launch["args"].items():
        args += ["--arg", f"{key}={value}"]
    _, out, _ = cli(*args, *cli_mode(independent))
    assert {(f.kind, f.variable, _lines(f)) for f in result.findings} == _cli_findings(out)


@pytest.mark.parametrize("name", ["atomicity_check_then_act", "atomicity_lost_update"])
def test_atomicity_violation_names_its_pattern_pair_and_interleaved_access(name, cli):
    m = manifest(name)
    launch = m["launch"]
    (expected,) = m["expected"]
    result = simulee.run(CORPUS / f"{name}.cu", m["kernel"], grid=launch["grid"], block=launch["block"],
                         args=launch["args"])
    (finding,) = result.findings
    assert (finding.kind, finding.subkind, finding.is_bug) == ("atomicity-violation", expected["pattern"], True)
    # The pair in the thread's order, then another thread's access between them.
    pair, between = finding.sites[:2], finding.sites[2]
    assert [s.line for s in pair] == expected["lines"]
    assert pair[0].thread == pair[1].thread and pair[0].block == pair[1].block
    assert (between.thread, between.block) != (pair[0].thread, pair[0].block)
    assert str(finding).startswith(f"atomicity-violation: atomicity violation ({expected['pattern']})")

    args = ["run", CORPUS / f"{name}.cu", "--kernel", m["kernel"], "--format", "json",
            "--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"]))]
    for key, value in launch["args"].items():
        args += ["--arg", f"{key}={value}"]
    _, out, _ = cli(*args)
    (reported,) = json.loads(out)["findings"]
    assert reported["subkind"] == expected["pattern"]
    assert simulee.Finding._from_report(reported).subkind == expected["pattern"]


@pytest.mark.parametrize("name, kind, atomic", [
    ("atomicity_lost_update", "fuse-read-modify-write", "atomicAdd"),
    ("atomicity_check_then_act", "compare-and-swap-loop", "atomicCAS"),
])
def test_repairs_are_proven_by_rerunning_the_launch(name, kind, atomic, cli):
    m = manifest(name)
    launch = m["launch"]
    result = simulee.run(CORPUS / f"{name}.cu", m["kernel"], grid=launch["grid"],
                         block=launch["block"], args=launch["args"], repair=True)
    (finding,) = result.findings
    (repair,) = finding.repairs
    assert repair["kind"] == kind and atomic in repair["description"]
    assert repair["replaced_lines"] == m["expected"][0]["lines"]
    assert len(repair["launches"]) >= 1 and tuple(repair["launches"][0]["grid"]) == tuple(launch["grid"])
    # Without --repair nothing is proposed.
    plain = simulee.run(CORPUS / f"{name}.cu", m["kernel"], grid=launch["grid"],
                        block=launch["block"], args=launch["args"])
    assert plain.findings[0].repairs == ()
    # The CLI's JSON carries the same fix.
    args = ["run", CORPUS / f"{name}.cu", "--kernel", m["kernel"], "--format", "json", "--repair",
            "--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"]))]
    for key, value in launch["args"].items():
        args += ["--arg", f"{key}={value}"]
    _, out, _ = cli(*args)
    (fix,) = json.loads(out)["findings"][0]["fixes"]
    assert fix["kind"] == kind and fix["replacedLines"] == m["expected"][0]["lines"]


def test_run_report_is_the_cli_report(cli, cli_mode):
    file = CORPUS / "histogram_nonatomic.cu"
    launch = simulee.run(file, grid=1, block=64, args={"data": "random:64", "hist": "zeros:8", "n": 64},
                         independent_threads=False)
    _, out, _ = cli("run", file, "--block", "64", "--arg", "data=random:64", "--arg", "hist=zeros:8",
                    "--arg", "n=64", "--format", "json", *cli_mode(False))
    assert launch.report("json") == out


def test_outputs_equal_host_references_vector_add():
    rng = np.random.default_rng(1)
    n = 1000
    a = rng.uniform(-10, 10, n).astype(np.float32)
    b = rng.uniform(-10, 10, n).astype(np.float32)
    c = np.full(1024, -7.0, dtype=np.float32)  # the tail beyond n stays untouched
    launch = simulee.run(KERNELS / "vector_add.cu", "vectorAdd", grid=4, block=256,
                         args={"a": a, "b": b, "c": c, "n": n})
    expected = c.copy()
    expected[:n] = a + b
    assert launch.outputs["c"].dtype == np.float32
    np.testing.assert_array_equal(launch.outputs["c"], expected)
    np.testing.assert_array_equal(launch.outputs["a"], a)  # inputs come back unchanged
    assert launch.findings == []


def test_outputs_equal_host_references_block_sums_and_scan():
    rng = np.random.default_rng(5)
    values = rng.integers(-100, 100, 2000).astype(np.int32)
    launch = simulee.run(KERNELS / "reduce_shared.cu", grid=8, block=256,
                         args={"in": values, "blockSums": np.zeros(8, np.int32), "n": 2000})
    padded = np.concatenate([values, np.zeros(48, np.int32)])
    np.testing.assert_array_equal(launch.outputs["blockSums"], padded.reshape(8, 256).sum(axis=1))

    values = rng.integers(-50, 50, 512).astype(np.int32)
    launch = simulee.run(KERNELS / "scan_hillis_steele.cu", grid=1, block=512,
                         args={"in": values, "out": np.zeros(512, np.int32)})
    np.testing.assert_array_equal(launch.outputs["out"], np.cumsum(values))


def test_outputs_use_the_pointee_type(write_cu):
    path = write_cu("""
__global__ void widen(const unsigned char *in, unsigned short *mid, double *out, long long *big) {
  int i = threadIdx.x;
  mid[i] = in[i] * 300u;
  out[i] = in[i] * 0.5;
  big[i] = -(long long)in[i] << 40;
}
""")
    data = np.arange(200, 232, dtype=np.uint8)
    launch = simulee.run(path, grid=1, block=32, args={"in": data, "mid": "zeros:32", "out": "zeros:32", "big": "zeros:32"})
    assert launch.outputs["mid"].dtype == np.uint16 and launch.outputs["out"].dtype == np.float64
    assert launch.outputs["big"].dtype == np.int64
    np.testing.assert_array_equal(launch.outputs["mid"], (data.astype(np.uint32) * 300).astype(np.uint16))
    np.testing.assert_array_equal(launch.outputs["out"], data * 0.5)
    np.testing.assert_array_equal(launch.outputs["big"], -(data.astype(np.int64) << 40))


SMALL = """
__global__ void mirror(int *out) {
  __shared__ int s[4];
  unsigned t = threadIdx.x;
  s[t] = t * 10;
  __syncthreads();
  out[t] = s[3 - t];
}
"""


def test_accesses_of_a_small_launch_are_exactly_the_expected_rows(write_cu):
    launch = simulee.run(write_cu(SMALL), grid=1, block=4, args={"out": "zeros:4"})
    np.testing.assert_array_equal(launch.outputs["out"], [30, 20, 10, 0])
    rows = launch.model.accesses()
    got = [(int(r["visit_order"]), int(r["thread_linear"]), str(r["space"]), str(r["variable"]),
            int(r["offset"]), int(r["size"]), str(r["action"]), int(r["line"])) for r in rows]
    expected = (
        [(0, t, "shared", "s", 4 * t, 4, "write", 5) for t in range(4)]
        + [(1, t, "shared", "s", 4 * (3 - t), 4, "read", 7) for t in range(4)]
        + [(1, t, "global", "out", 4 * t, 4, "write", 7) for t in range(4)]
    )
    assert got == expected
    assert set(rows["warp"]) == {0} and list(rows["lane"][:4]) == [0, 1, 2, 3]
    assert not rows["diverged"].any()
    assert (rows["active_mask"] == 0xF).all()
    # One instruction per group of four, in program order.
    instructions = rows["instruction"].reshape(3, 4)
    assert (instructions == instructions[:, :1]).all() and len(set(instructions[:, 0])) == 3
    frame = launch.model.accesses(as_frame=True)
    assert list(frame.columns) == list(rows.dtype.names) and len(frame) == 12


def test_accesses_record_block_and_thread_coordinates_and_divergence(write_cu):
    path = write_cu("""
__global__ void grid2d(int *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = threadIdx.y;
  if (threadIdx.x % 2 == 0)
    out[y * 8 + x] = 1;
}
""")
    launch = simulee.run(path, grid=(2, 1), block=(4, 2), args={"out": "zeros:16"})
    rows = launch.model.accesses()
    assert len(rows) == 8 and set(rows["action"]) == {"write"}
    for r in rows:
        assert r["thread_x"] % 2 == 0
        assert r["thread_linear"] == r["thread_x"] + 4 * r["thread_y"]
        assert r["offset"] == 4 * (r["thread_y"] * 8 + r["block_x"] * 4 + r["thread_x"])
    assert rows["diverged"].all()  # half the warp's lanes are inactive
    assert (rows["active_mask"] == 0b01010101).all()


def test_barrier_table_lists_each_warp_at_each_barrier(write_cu):
    launch = simulee.run(CORPUS / "reduce_sequential.cu", grid=2, block=64, args={"n": 128})
    rows = launch.model.barriers()
    # A barrier before the loop and one per step (6 steps for 64 threads),
    # for each of 2 warps in each of 2 blocks.
    assert len(rows) == 2 * 2 * 7
    assert sorted(set(rows["line"])) == [8, 12]
    for block in (0, 1):
        mine = rows[rows["block_linear"] == block]
        assert list(mine["visit_order"]) == [v for v in range(7) for _ in range(2)]
        assert list(mine["warp"]) == [0, 1] * 7
        assert (mine["release_sequence"] > mine["sequence"]).all()
    assert (rows["lanes"] == 32).all()


def test_summary_record_has_no_tuples():
    launch = simulee.run(CORPUS / "reduce_sequential.cu", grid=1, block=64, record="summary")
    assert not launch.model.has_tuples
    with pytest.raises(simulee.Error, match="record='full'"):
        launch.model.accesses()


def test_the_gil_is_released_while_simulating(write_cu):
    import threading
    import time

    path = write_cu("""
__global__ void busy(int *out, int n) {
  int acc = 0;
  for (int k = 0; k < n; ++k)
    acc += k ^ threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
""")
    program = simulee.load(path)
    stamps = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            stamps.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    started = time.monotonic()
    simulee.run(program, grid=16, block=256, args={"n": 200000}, record="summary")
    ended = time.monotonic()
    done.set()
    thread.join()
    assert ended - started > 0.2, "the launch is too short to tell"
    during = [s for s in stamps if started + 0.05 < s < ended - 0.05]
    assert len(during) > 10  # Python ran on another thread meanwhile


@pytest.mark.parametrize("name", ["global_interblock_write", "matmul_missing_barrier", "fence_last_block"])
def test_blocks_on_several_threads_give_the_same_launch(name):
    # Multi-block launches, one of them racing between blocks: the findings,
    # every Unit Tuple, the barrier timeline and the outputs are those of one
    # thread.
    m = manifest(name)
    launch = m["launch"]
    file = CORPUS / m.get("file", name.split(".")[0] + ".cu")
    runs = [simulee.run(file, m["kernel"], grid=launch["grid"], block=launch["block"], args=launch["args"],
                        shared_bytes=launch.get("sharedBytes", 0), jobs=jobs) for jobs in (1, 3)]
    one, three = runs
    assert [str(f) for f in one.findings] == [str(f) for f in three.findings]
    assert one.verdict == three.verdict and one.thread_instructions == three.thread_instructions
    assert np.array_equal(one.model.accesses(), three.model.accesses())
    assert np.array_equal(one.model.barriers(), three.model.barriers())
    assert one.outputs.keys() == three.outputs.keys()
    for key in one.outputs:
        assert np.array_equal(one.outputs[key], three.outputs[key])


@pytest.mark.parametrize("name", ["matmul_missing_barrier", "reduce_missing_loop_barrier", "fence_last_block"])
def test_compiled_code_gives_the_interpreters_launch(name):
    # The same findings, Unit Tuples, barrier timeline and outputs whichever
    # engine runs the kernel.
    m = manifest(name)
    launch = m["launch"]
    file = CORPUS / m.get("file", name.split(".")[0] + ".cu")
    interpreted, compiled = [
        simulee.run(file, m["kernel"], grid=launch["grid"], block=launch["block"], args=launch["args"],
                    shared_bytes=launch.get("sharedBytes", 0), engine=engine)
        for engine in ("interp", "compiled")
    ]
    assert [str(f) for f in interpreted.findings] == [str(f) for f in compiled.findings]
    assert interpreted.verdict == compiled.verdict
    assert interpreted.thread_instructions == compiled.thread_instructions
    assert np.array_equal(interpreted.model.accesses(), compiled.model.accesses())
    assert np.array_equal(interpreted.model.barriers(), compiled.model.barriers())
    for key in interpreted.outputs:
        assert np.array_equal(interpreted.outputs[key], compiled.outputs[key])


def test_an_unknown_engine_is_refused():
    with pytest.raises(simulee.Error, match="bad engine 'fast'"):
        simulee.run(CORPUS / "reduce_missing_loop_barrier.cu", grid=1, block=32, engine="fast")
