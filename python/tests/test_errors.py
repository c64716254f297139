"""Bad input raises simulee.Error with the CLI's message, and Ctrl-C stops
a long simulation with KeyboardInterrupt; the interpreter never crashes."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

import simulee
from conftest import CORPUS, ROOT

RACE = CORPUS / "reduce_missing_loop_barrier.cu"


def _cli_message(stderr):
    """What the CLI prints after "simulee: error: " (clang's diagnostics
    make it several lines for a compile error)."""
    prefix = "simulee: error: "
    assert stderr.startswith(prefix), stderr
    return stderr[len(prefix):].rstrip("\n")


@pytest.mark.parametrize(
    "cli_args, call",
    [
        (["run", "corpus/no_such_file.cu"], lambda: simulee.run("corpus/no_such_file.cu", grid=1, block=32)),
        (["run", str(RACE.relative_to(ROOT)), "--kernel", "nope"],
         lambda: simulee.run("corpus/reduce_missing_loop_barrier.cu", "nope", grid=1, block=32)),
        (["run", "corpus/reduce_missing_loop_barrier.cu", "--arg", "bogus=1"],
         lambda: simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=32, args={"bogus": 1})),
        (["run", "corpus/reduce_missing_loop_barrier.cu", "--arg", "n=abc"],
         lambda: simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=32, args={"n": "abc"})),
        (["run", "corpus/reduce_missing_loop_barrier.cu", "--block", "2048"],
         lambda: simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=2048)),
        (["run", "corpus/reduce_missing_loop_barrier.cu", "--arg", "in=zeros:x"],
         lambda: simulee.run("corpus/reduce_missing_loop_barrier.cu", grid=1, block=32, args={"in": "zeros:x"})),
        (["corpus/reduce_missing_loop_barrier.cu", "--arg", "bogus=1"],
         lambda: simulee.analyze("corpus/reduce_missing_loop_barrier.cu", args={"bogus": 1}, progress=False)),
    ],
)
def test_bad_input_raises_error_with_the_cli_message(cli_args, call, cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, _, err = cli(*cli_args)
    assert code == 2
    with pytest.raises(simulee.Error) as raised:
        call()
    assert str(raised.value) == _cli_message(err)


def test_compile_error_names_the_file(write_cu, cli):
    path = write_cu("__global__ void broken(int *p) { p[0] = ; }\n")
    with pytest.raises(simulee.Error) as raised:
        simulee.load(path)
    code, _, err = cli("list", path)
    assert code == 2 and str(raised.value) == _cli_message(err)
    assert str(path) in str(raised.value)


def test_non_terminating_launch_is_inconclusive_not_a_hang(write_cu):
    path = write_cu("__global__ void spin(volatile int *flag) { while (flag[0] == 0) {} }\n")
    launch = simulee.run(path, grid=1, block=32, args={"flag": "zeros:1"}, budget=10000,
                         record="summary")
    assert launch.verdict == "inconclusive"
    assert "does not terminate" in launch.cause
    assert launch.findings == []


def test_bad_dims_and_record_are_errors():
    with pytest.raises(simulee.Error, match="bad grid"):
        simulee.run(RACE, grid=0, block=32)
    with pytest.raises(simulee.Error, match="bad record"):
        simulee.run(RACE, grid=1, block=32, record="everything")
    with pytest.raises(simulee.Error, match="bad format"):
        simulee.run(RACE, grid=1, block=32).report("html")


def test_ctrl_c_interrupts_a_long_launch(write_cu):
    path = write_cu("__global__ void spin(volatile int *flag) { while (flag[0] == 0) {} }\n")
    script = textwrap.dedent(f"""
        import sys, simulee
        print("ready", flush=True)
        try:
            simulee.run({str(path)!r}, grid=64, block=1024, args={{"flag": "zeros:1"}}, budget=1 << 40,
                        record="summary")
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=path.parent)  # not python/, whose simulee/ has no _core
    assert process.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 7, err
    assert "interrupted" in out
    assert time.monotonic() - started < 5


def test_a_file_of_several_kernels_needs_a_kernel_name_to_run():
    with pytest.raises(simulee.Error, match=r"2 kernels \(.*\); choose one with kernel=NAME"):
        simulee.run(CORPUS / "device_helper.cu", grid=1, block=32)
    with pytest.raises(simulee.Error, match="no kernel named 'nope'"):
        simulee.analyze(CORPUS / "device_helper.cu", "nope", progress=False)


def test_a_kernel_name_that_is_not_utf8_keeps_its_findings(tmp_path):
    # IR may name a kernel with any bytes: the name comes back with U+FFFD
    # for the bad ones (as in the JSON report), and its race is still found.
    ir = tmp_path / "bad_name.ll"
    ir.write_text(textwrap.dedent("""\
        target triple = "nvptx64-nvidia-cuda"
        define void @"k\\FF"(ptr %data) {
          %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
          %at = getelementptr float, ptr %data, i32 %tid
          store float 1.0, ptr %at, align 4
          store float 2.0, ptr %data, align 4
          ret void
        }
        declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
        !nvvm.annotations = !{!0}
        !0 = !{ptr @"k\\FF", !"kernel", i32 1}
        """))
    report = simulee.analyze(ir, progress=False, generations=2)
    assert [k.kernel for k in report.kernels] == ["k\ufffd"]
    assert any(f.kind == "data-race" for f in report.findings), report


def test_bitcode_that_crashes_llvms_reader_is_an_error_not_a_crash():
    # Parsed in a child process first: the interpreter survives.
    path = ROOT / "tests" / "cli" / "inputs" / "hostile" / "bitflip_reader_crash_1.bc"
    with pytest.raises(simulee.Error, match="malformed LLVM bitcode: LLVM's reader crashed"):
        simulee.load(path)


def test_an_error_naming_a_kernel_that_is_not_utf8_is_a_simulee_error(tmp_path):
    ir = tmp_path / "bad_name.ll"
    ir.write_text('target triple = "nvptx64-nvidia-cuda"\n'
                  'define void @"k\\FF"(ptr %p) {\n  ret void\n}\n'
                  '!nvvm.annotations = !{!0}\n!0 = !{ptr @"k\\FF", !"kernel", i32 1}\n')
    with pytest.raises(simulee.Error, match="no kernel named 'nope' \\(kernels: k\ufffd\\)"):
        simulee.analyze(ir, "nope", progress=False)
