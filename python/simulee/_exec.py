"""Whole programs (like ``simulee exec``): `exec` and `ExecReport`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _core
from ._analysis import combine_verdicts
from ._launch import PathLike, check_engine
from ._types import Finding, HostFinding, KernelVerdict


class ExecReport:
    """What :func:`simulee.exec` found while a whole program ran: the
    verdict of every kernel the program launched, the findings of its
    launches and of its CUDA API calls, and the program's own result."""

    def __init__(self, files: List[str], program_args: List[str], result: Dict[str, Any]) -> None:
        self.files = files
        """The program's files, as given."""
        self.program_args = program_args
        self.json: Dict[str, Any] = json.loads(result["report"]) if result["report"] else {}
        """The report as ``simulee exec --format json`` writes it."""
        self.kernels: List[KernelVerdict] = [KernelVerdict._from_report(k) for k in self.json.get("kernels", [])]
        """One verdict per kernel the program launched, in the order first launched."""
        self.findings: List[Finding] = [Finding._from_report(f) for f in self.json.get("findings", [])]
        """The kernels' findings (``Finding.kernel`` says whose); a finding's
        ``launch.provenance`` is ``"program"`` (``"site+search"`` for
        ``search``'s mutants) and ``launch.args`` name the allocations
        (``"#3"``), as in the CLI's report."""
        self.host_findings: List[HostFinding] = [HostFinding._from_report(h)
                                                 for h in self.json.get("hostFindings", [])]
        """``host-api-error`` findings: misused CUDA API calls of the host code."""
        self.launches: int = result["launches"]
        """Kernel launches the program made."""
        self.unjudged_launches: int = result["unjudged"]
        """Of them, launches that could not be judged (they ran past ``budget``)."""
        self.returncode: int = -result["killed_by"] if result["killed_by"] else result["program_status"]
        """The program's exit status; minus the signal that killed it (as
        :mod:`subprocess` says it)."""
        self.exit_status: int = (1 if result["findings"] else 3 if self.unjudged_launches
                                 else result["program_status"])
        """What ``simulee exec`` exits with: 1 with findings, 3 when some
        launch could not be judged and nothing was found, else the program's
        status (128 + the signal that killed it)."""
        self.stdout: Optional[str] = result["stdout"]
        """The program's standard output (None with ``capture_output=False``)."""
        self.stderr: Optional[str] = result["stderr"]

    @property
    def verdict(self) -> str:
        """``"findings"`` when a launch or a CUDA call had a bug (a warning),
        else ``"inconclusive"`` when some launch could not be judged, else
        the kernels' verdicts combined (:func:`simulee.combine_verdicts`:
        ``"inconclusive"`` too when the program launched no kernel)."""
        if any(finding.is_bug for finding in [*self.findings, *self.host_findings]):
            return "findings"
        if self.unjudged_launches:
            return "inconclusive"
        return combine_verdicts([k.verdict for k in self.kernels])

    def counts(self) -> Dict[str, int]:
        """Findings per kind (every kind of :data:`simulee.FINDING_KINDS`),
        notes included, as the report's summary counts them."""
        counts = dict.fromkeys(_core.FINDING_KINDS, 0)
        for finding in [*self.findings, *self.host_findings]:
            counts[finding.kind] += 1
        return counts

    def __repr__(self) -> str:
        return (f"ExecReport({self.files[0]!r}, verdict={self.verdict!r}, launches={self.launches}, "
                f"findings={len(self.findings) + len(self.host_findings)})")


def _runtime_dir() -> str:
    """Where libsimulee_cudart.so is: next to the module (an installed
    package), else in the build the module was built in."""
    for directory in (Path(_core.__file__).parent, Path(_core.BUILD_RUNTIME_DIR)):
        if (directory / "libsimulee_cudart.so").is_file():
            return str(directory)
    raise _core.Error(f"exec: libsimulee_cudart.so not found next to the simulee module or in "
                      f"{_core.BUILD_RUNTIME_DIR} (its build had no CUDA headers: scripts/setup.sh)")


def _check_settings(*, record: str, engine: str, opt: int, budget: int, search: int, checked_launches: int,
                    sm: int) -> None:
    """The CLI's bounds on ``simulee exec``'s options."""
    if record not in ("auto", "full", "summary"):
        raise _core.Error(f"bad record {record!r}: expected 'full', 'summary' or 'auto'")
    check_engine(engine)
    for name, value, low, high in (("opt", opt, 0, 3), ("budget", budget, 1, 2**64 - 1),
                                   ("search", search, 0, 1000), ("checked_launches", checked_launches, 1, 10**9),
                                   ("sm", sm, 30, 120)):
        if not low <= int(value) <= high:
            raise _core.Error(f"bad {name} {value!r}: expected {low} to {high}")


def exec(
    program: Union[PathLike, Sequence[PathLike]],
    program_args: Sequence[Any] = (),
    *,
    defines: Optional[Union[Sequence[str], Mapping[str, Any]]] = None,
    include_dirs: Optional[Sequence[PathLike]] = None,
    libraries: Sequence[str] = (),
    library_dirs: Sequence[PathLike] = (),
    std: Optional[str] = None,
    host_flags: Sequence[str] = (),
    linker_flags: Sequence[str] = (),
    opt: int = 0,
    independent_threads: bool = True,
    strict: bool = False,
    record: str = "auto",
    all_blocks: bool = False,
    engine: str = "auto",
    budget: int = 2**32,
    search: int = 0,
    checked_launches: int = 3,
    check_all: bool = False,
    sm: int = 80,
    cuda_path: Optional[PathLike] = None,
    capture_output: bool = True,
) -> ExecReport:
    """Runs a whole CUDA program on the CPU, like ``simulee exec PROGRAM.cu
    [FILES] -- ARGS``: its host code is compiled natively and linked against
    simulee's CUDA runtime, the program runs in the current directory with
    ``program_args``, and every kernel launch it makes is simulated with its
    real grid, block, arguments and memory and checked by the detectors.

    ``program`` is a file or a list of files (``.cu``, ``.cpp``/``.cc``/
    ``.cxx``, ``.c``, ``.o``, ``.a``, ``.so``); ``defines``,
    ``include_dirs``, ``libraries`` (``-l``), ``library_dirs`` (``-L``),
    ``std`` (nvcc's ``-std``, e.g. ``"c++17"``), ``host_flags`` (nvcc's
    ``-Xcompiler``, e.g. ``["-fopenmp"]``), ``linker_flags`` (``-Xlinker``),
    ``opt`` (the device code's -O) and ``cuda_path`` say how it is built.
    The rest are ``simulee exec``'s options: ``independent_threads``
    (``False``: ``--lockstep``), ``strict``, ``record``, ``all_blocks``,
    ``engine`` (``"auto"``, ``"interp"`` or ``"compiled"``),
    ``budget`` (instructions per thread), ``search`` (generations mutating
    each kernel's first launch), ``checked_launches`` per kernel and shape
    fully checked (later ones get light checks) or ``check_all``, and
    ``sm`` (the compute capability device queries report).

    The program's output is captured into :attr:`ExecReport.stdout` and
    ``stderr`` (``capture_output=False``: it goes where this process's
    goes). Raises :class:`simulee.Error` when the program does not build,
    cannot start, or the runtime stops it (an API it does not provide, a
    launch it cannot simulate), with the CLI's message. The GIL is released
    while the program runs; Ctrl-C kills it and raises KeyboardInterrupt.
    """
    files = [os.fspath(program)] if isinstance(program, (str, os.PathLike)) else [os.fspath(p) for p in program]
    _check_settings(record=record, engine=engine, opt=opt, budget=budget, search=search, checked_launches=checked_launches, sm=sm)
    if isinstance(defines, Mapping):
        defines = [name if value is None else f"{name}={value}" for name, value in defines.items()]
    settings = _core.ExecSettings()
    settings.files = files
    settings.program_args = [str(arg) for arg in program_args]
    settings.defines = list(defines or [])
    settings.include_dirs = [os.fspath(d) for d in include_dirs or []]
    settings.libraries = list(libraries)
    settings.library_dirs = [os.fspath(d) for d in library_dirs]
    settings.std = std or ""
    settings.host_flags = [str(flag) for flag in host_flags]
    settings.linker_flags = [str(flag) for flag in linker_flags]
    settings.cuda_path = os.fspath(cuda_path) if cuda_path is not None else ""
    settings.opt = int(opt)
    settings.runtime_dir = _runtime_dir()
    settings.lockstep = not independent_threads
    settings.strict = bool(strict)
    settings.record = str(record)
    settings.all_blocks = bool(all_blocks)
    settings.engine = str(engine)
    settings.budget = int(budget)
    settings.search = int(search)
    settings.checked_launches = 0 if check_all else int(checked_launches)
    settings.sm = int(sm)
    settings.capture_output = bool(capture_output)
    result = _core.exec_program(settings)
    if result["runtime_error"]:
        raise _core.Error(result["runtime_error"])
    return ExecReport(files, settings.program_args, result)
