"""exec(): whole programs as `simulee exec` runs them. Every example program
of examples/exec gives its labeled output, exit status and findings
(NAME.expect.json, the labels the CLI's tests check), as Python objects."""

import json
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

import simulee
from conftest import ROOT

EXAMPLES = ROOT / "examples" / "exec"

if simulee.cuda_path() is None:
    pytest.skip("no CUDA headers: simulee.exec needs them (scripts/setup.sh)", allow_module_level=True)


def _label(finding):
    """A finding reduced to what the labels state."""
    return {"kind": finding.kind, "kernel": finding.kernel, "lines": sorted(line or 0 for line in finding.lines),
            "ordinal": finding.launch.ordinal,
            "launchLine": int(finding.launch.origin.rsplit(":", 1)[1]) if finding.launch.origin else 0}


def _sorted(items):
    return sorted(json.dumps(item, sort_keys=True) for item in items)


@pytest.fixture(autouse=True)
def in_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # programs run in the current directory, as the CLI's tests run them


def _build_options(options):
    """exec()'s keywords for the nvcc flags an example is built with (its
    "options": -std=X, -Xcompiler A,B; code-generation flags change nothing)."""
    keywords = {"host_flags": []}
    words = iter(options)
    for word in words:
        if word.startswith("-std="):
            keywords["std"] = word.split("=", 1)[1]
        elif word == "-Xcompiler":
            keywords["host_flags"] += next(words).split(",")
    return keywords


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.cu")))
def test_example_program_gives_its_labeled_output_and_findings(name):
    expected = json.loads((EXAMPLES / f"{name}.expect.json").read_text())
    program = f"examples/exec/{name}.cu"
    build = _build_options(expected.get("options", []))
    if "error" in expected:
        with pytest.raises(simulee.Error) as raised:
            simulee.exec(program, expected.get("args", ()), **build)
        for part in expected["error"]:
            assert part in str(raised.value)
        return
    report = simulee.exec(program, expected.get("args", ()), **build)
    assert report.stdout == expected["stdout"]
    assert report.exit_status == expected["exitStatus"]
    assert _sorted(_label(f) for f in report.findings) == _sorted(expected["findings"])
    hosts = expected.get("hostFindings", [])
    assert [h.function for h in report.host_findings] == [h["function"] for h in hosts]
    assert all(h.site.endswith(e["site"]) for h, e in zip(report.host_findings, hosts))
    bugs = [f for f in [*report.findings, *report.host_findings] if f.is_bug]
    assert (report.verdict == "findings") == bool(bugs)


def test_findings_are_the_api_s_objects_with_the_program_s_launch():
    report = simulee.exec("examples/exec/histogram_skewed.cu")
    assert report.verdict == "findings" and report.exit_status == 1 and report.returncode == 0
    assert report.stdout == "outliers: 8 (expected 8)\nPASSED\n" and report.stderr == ""
    [race] = report.findings
    assert isinstance(race, simulee.Finding) and race.kind == "data-race" and race.is_bug
    assert race.kernel == "histogram" and race.space == "global" and race.variable.startswith("outliers")
    assert race.lines == (25, 25) and {s.action for s in race.sites} == {"read", "write"}
    site = race.sites[0]
    assert site.thread_linear == site.thread[0] and site.block_linear == site.block[0]
    assert site.instruction is None and site.code  # made in the program's process: the LLVM text only
    assert race.launch.provenance == "program" and race.launch.ordinal == 1
    assert race.launch.grid == (32, 1, 1) and race.launch.block == (256, 1, 1)
    assert race.launch.origin == "examples/exec/histogram_skewed.cu:52"
    assert race.launch.args["n"] == "8192" and race.launch.args["outliers"] == "#3"
    [kernel] = report.kernels
    assert (kernel.kernel, kernel.verdict, kernel.judged_launches) == ("histogram", "findings", 1)
    assert report.launches == 1 and report.unjudged_launches == 0
    assert report.counts()["data-race"] == 1 and set(report.counts()) == set(simulee.FINDING_KINDS)
    assert report.json["summary"]["byKind"]["data-race"] == 1


def test_the_same_findings_as_the_cli(cli):
    status, out, err = cli("exec", "examples/exec/host_api_errors.cu", "--format", "json")
    cli_report = json.loads(err[err.index("{"):])
    report = simulee.exec("examples/exec/host_api_errors.cu")
    assert report.exit_status == status and report.stdout == out
    assert [f.message for f in report.findings] == [f["message"] for f in cli_report["findings"]]
    assert [str(h) for h in report.host_findings] == [
        f"host-api-error: {h['function']}: {h['message']}" for h in cli_report["hostFindings"]]
    assert report.counts()["host-api-error"] == 3 and report.verdict == "findings"


def test_a_program_of_several_files_with_defines_and_arguments():
    files = [EXAMPLES / "multi_file" / name for name in ("increment.cu", "scale.cu", "main.cpp")]
    report = simulee.exec(files, [100], defines={"FACTOR": 3})
    assert report.stdout == "100 elements: PASSED\n" and report.exit_status == 0
    assert report.verdict == "clean" and not report.findings
    assert [(k.kernel, k.verdict, k.judged_launches) for k in report.kernels] == [
        ("increment", "clean", 1), ("scale", "clean", 1)]


def test_a_launch_that_does_not_terminate_is_inconclusive(tmp_path):
    source = tmp_path / "spin.cu"
    source.write_text("#include <cstdio>\n__global__ void spin(int *flag) { while (*flag == 0) {} }\n"
                      "int main() { int *f; cudaMalloc(&f, 4); cudaMemset(f, 0, 4);\n"
                      "  spin<<<1, 1>>>(f); printf(\"after\\n\"); return 0; }\n")
    report = simulee.exec(source, budget=10000)
    assert report.stdout == "after\n" and report.returncode == 0
    assert report.verdict == "inconclusive" and report.exit_status == 3 and report.unjudged_launches == 1
    assert report.kernels[0].skipped_launches["non-terminating"] == 1
    assert "does not terminate" in report.kernels[0].cause


def test_repeated_launches_get_light_checks_unless_check_all(tmp_path):
    source = tmp_path / "repeat.cu"
    source.write_text("__global__ void touch(int *slot) { slot[threadIdx.x] = 1; }\n"
                      "int main() { int *s; cudaMalloc(&s, 128);\n"
                      "  for (int i = 0; i < 5; ++i) touch<<<1, 32>>>(s);\n"
                      "  cudaDeviceSynchronize(); return 0; }\n")
    light = simulee.exec(source).kernels[0]
    assert (light.judged_launches, light.lightly_checked_launches) == (3, 2)
    full = simulee.exec(source, check_all=True).kernels[0]
    assert (full.judged_launches, full.lightly_checked_launches) == (5, 0)


def test_the_program_s_status_and_output_go_through_unchanged(tmp_path):
    source = tmp_path / "fails.cu"
    source.write_text("#include <cstdio>\n"
                      "int main(int argc, char **argv) { printf(\"out %s\\n\", argv[1]);\n"
                      "  fprintf(stderr, \"err\\n\"); return 7; }\n")
    report = simulee.exec(source, ["word"])
    assert (report.stdout, report.stderr, report.returncode, report.exit_status) == ("out word\n", "err\n", 7, 7)
    assert report.launches == 0 and report.verdict == "inconclusive"  # nothing was checked


def test_bad_programs_and_settings_raise_errors(tmp_path):
    with pytest.raises(simulee.Error, match="no such file"):
        simulee.exec(tmp_path / "missing.cu")
    (tmp_path / "broken.cu").write_text("int main() { return undeclared; }\n")
    with pytest.raises(simulee.Error, match="undeclared"):
        simulee.exec(tmp_path / "broken.cu")
    with pytest.raises(simulee.Error, match="no program file given"):
        simulee.exec([])
    with pytest.raises(simulee.Error, match="bad record"):
        simulee.exec("examples/exec/vector_add.cu", record="everything")
    with pytest.raises(simulee.Error, match="bad sm"):
        simulee.exec("examples/exec/vector_add.cu", sm=7)
    with pytest.raises(simulee.Error, match="bad engine"):
        simulee.exec("examples/exec/vector_add.cu", engine="fast")


@pytest.mark.skipif(sys.platform != "linux", reason="signals")
def test_ctrl_c_kills_the_program_and_raises_keyboard_interrupt(tmp_path):
    source = tmp_path / "sleeps.cu"
    source.write_text("#include <unistd.h>\nint main() { sleep(60); return 0; }\n")
    main_thread = threading.get_ident()
    timer = threading.Timer(3.0, lambda: signal.pthread_kill(main_thread, signal.SIGINT))
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            simulee.exec(source)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 30


def test_exec_output_can_go_to_this_process(tmp_path, capfd):
    source = tmp_path / "hello.cu"
    source.write_text("#include <cstdio>\nint main() { printf(\"hello\\n\"); return 0; }\n")
    report = simulee.exec(source, capture_output=False)
    assert report.stdout is None and report.returncode == 0
    assert capfd.readouterr().out == "hello\n"


def test_programs_run_in_the_current_directory(tmp_path, monkeypatch):
    source = tmp_path / "where.cu"
    source.write_text("#include <cstdio>\nint main() { FILE *f = fopen(\"here.txt\", \"r\");\n"
                      "  printf(f ? \"found\\n\" : \"missing\\n\"); return 0; }\n")
    (tmp_path / "here.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    assert simulee.exec(Path("where.cu")).stdout == "found\n"
