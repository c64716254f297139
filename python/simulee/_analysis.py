"""The default analysis (search + detect, like ``simulee FILE``): `analyze`,
`Report`, `KernelReport` and the search history."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core
from ._launch import ArgValue, DimsLike, PathLike, Program, _arguments, _dims, _frame, _program_of, _structured
from ._types import Finding, LaunchSettings, Progress

VERDICTS = ("clean", "findings", "inconclusive", "error", "not launched")

# Which verdict a report of several kernels gets: findings are certain, an
# error or an unjudged kernel means something was not analysed.
_VERDICT_RANK = {"findings": 4, "error": 3, "inconclusive": 2, "clean": 1, "not launched": 0}


def combine_verdicts(verdicts: Sequence[str]) -> str:
    """The verdict of several kernels: ``findings`` if any has findings, else
    ``error``, else ``inconclusive``, else ``clean``, else (every kernel
    unlaunched) ``not launched``."""
    return max(verdicts, key=_VERDICT_RANK.__getitem__) if verdicts else "inconclusive"


class KernelReport:
    """The search and detection of one kernel."""

    def __init__(self, result: "_core.AnalysisResult") -> None:
        self._result = result
        self.kernel: str = result.kernel
        self.verdict: str = result.verdict
        """``"clean"`` (no finding in at least one judged launch),
        ``"findings"``, ``"inconclusive"`` (no launch could be judged) or
        ``"not launched"`` (the file's host code never launches it: not
        searched unless ``explore``)."""
        self.verdict_text: str = result.verdict_text
        """The verdict in the CLI's words, with its launch counts and, for an
        inconclusive kernel, why no launch could be judged: ``"clean (12
        launches judged)"``, ``"inconclusive: no launch could be judged (10
        out of bounds); first failure: ..."``."""
        self.findings: List[Finding] = [Finding._from(f, self.kernel) for f in result.findings()]
        self.launches: int = result.launches
        """Launches the search simulated."""
        self.judged_launches: int = result.judged_launches
        self.skipped_launches: Dict[str, int] = {
            "failed": result.failed_launches,
            "non-terminating": result.non_terminating_launches,
            "too-costly": result.too_costly_launches,
            "out-of-bounds": result.out_of_bounds_launches,
        }
        """Launches not judged, by reason."""
        self.first_launch_error: str = result.first_launch_error
        best = result.best_launch()
        self.best_launch: Optional[LaunchSettings] = LaunchSettings._from(best) if best else None
        self.best_F: float = result.best_F
        self._history: Optional[np.ndarray] = None

    @property
    def history(self) -> np.ndarray:
        """Every launch the search simulated, in evaluation order; see
        :attr:`Report.history`."""
        if self._history is None:
            self._history = _history_array(self.kernel, self._result.history())
        return self._history

    def report(self, format: str = "text") -> str:
        """The findings as the CLI writes them: ``"text"``, ``"json"`` or ``"sarif"``."""
        return self._result.report(format)

    def __repr__(self) -> str:
        return f"KernelReport({self.kernel!r}, verdict={self.verdict!r}, findings={len(self.findings)})"


def _history_array(kernel: str, table: Dict[str, Any]) -> np.ndarray:
    grid, block = np.asarray(table["grid"]), np.asarray(table["block"])
    count = len(table["generation"])
    arguments = np.empty(count, dtype=object)
    arguments[:] = table["arguments"]
    columns = {
        "kernel": np.full(count, kernel, dtype=f"U{max(len(kernel), 1)}"),
        "generation": table["generation"],
        "grid_x": grid[:, 0],
        "grid_y": grid[:, 1],
        "grid_z": grid[:, 2],
        "block_x": block[:, 0],
        "block_y": block[:, 1],
        "block_z": block[:, 2],
        "F": table["F"],
        "range": table["range"],
        "valid": table["valid"],
        "outcome": np.array(table["outcome"], dtype="U13"),
        "arguments": arguments,
    }
    return _structured(columns)


class Report:
    """What :func:`simulee.analyze` found in a file: one :class:`KernelReport`
    per kernel analysed, and their combination."""

    def __init__(self, program: Program, kernels: List[KernelReport]) -> None:
        self.program = program
        self.kernels = kernels

    @property
    def path(self) -> str:
        return self.program.path

    @property
    def verdict(self) -> str:
        """``"clean"``, ``"findings"``, ``"inconclusive"`` or ``"error"``
        (see :func:`combine_verdicts`)."""
        return combine_verdicts([k.verdict for k in self.kernels])

    @property
    def findings(self) -> List[Finding]:
        """Every finding of every kernel (``Finding.kernel`` says whose)."""
        return [f for k in self.kernels for f in k.findings]

    @property
    def launches(self) -> int:
        """Launches simulated, over all kernels."""
        return sum(k.launches for k in self.kernels)

    @property
    def history(self) -> np.ndarray:
        """The search's history: one row per simulated launch, in evaluation
        order, as a numpy structured array (``pandas.DataFrame(report.history)``
        for a frame). Fields: ``kernel``, ``generation`` (0 = the initial
        population), ``grid_x/y/z``, ``block_x/y/z``, ``F`` (primary
        fitness: distinct addresses / accessing threads summed over
        addresses; lower shares more), ``range`` (accessed address range in
        bytes), ``valid`` (judged; invalid launches rank last), ``outcome``
        ("judged", "failed", "out-of-bounds", "too-costly") and ``arguments``
        (a dict of the CLI's words per parameter)."""
        histories = [k.history for k in self.kernels]
        if not histories:
            return _history_array("", {"generation": [], "grid": np.zeros((0, 3)), "block": np.zeros((0, 3)),
                                       "F": [], "range": [], "valid": [], "outcome": [], "arguments": []})
        width = max(int(h.dtype["kernel"].itemsize // 4) for h in histories)
        dtype = [(name, f"U{width}" if name == "kernel" else histories[0].dtype[name])
                 for name in histories[0].dtype.names]
        return np.concatenate([h.astype(dtype) for h in histories])

    def history_frame(self) -> Any:
        """:attr:`history` as a ``pandas.DataFrame``."""
        return _frame(self.history)

    def report(self, format: str = "text") -> str:
        """The findings as the CLI writes them, kernel by kernel."""
        return "".join(k.report(format) for k in self.kernels)

    def __repr__(self) -> str:
        return f"Report({self.path!r}, verdict={self.verdict!r}, findings={len(self.findings)})"


ProgressOption = Union[bool, Callable[[Progress], None]]


def _progress_bar(total: int, description: str) -> Any:
    """A tqdm bar: the notebook widget where there is one, else text."""
    try:
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=description, leave=False)
    except Exception:  # no ipywidgets in this notebook
        from tqdm.std import tqdm as std_tqdm

        return std_tqdm(total=total, desc=description, leave=False)


def analyze(
    program_or_path: Union[Program, PathLike],
    kernel: Optional[str] = None,
    *,
    grid: Optional[DimsLike] = None,
    block: Optional[DimsLike] = None,
    args: Optional[Mapping[str, ArgValue]] = None,
    shared_bytes: int = 0,
    independent_threads: bool = True,
    record: str = "auto",
    population: int = 10,
    generations: int = 10,
    accept: float = 0.3,
    seed: int = 1,
    jobs: int = 0,
    max_threads: int = 4096,
    budget: Optional[int] = None,
    progress: ProgressOption = True,
    defines: Optional[Union[Sequence[str], Mapping[str, Any]]] = None,
    include_dirs: Optional[Sequence[PathLike]] = None,
    opt: int = 0,
    explore: bool = False,
    repair: bool = False,
) -> Report:
    """Searches launch settings and reports every finding, like
    ``simulee FILE``: for each kernel (or only ``kernel``), an evolutionary
    search over grid, block, scalar arguments and buffer sizes, each
    simulated launch judged by the detectors.

    ``grid``, ``block`` and ``args`` fix settings (never mutated by the
    search); everything else is searched. ``population``, ``generations``,
    ``accept`` (stop once F < accept), ``seed``, ``jobs`` (launches in
    parallel, and the blocks of the program's own launch; 0 = one per
    core; the result does not depend on it) and
    ``max_threads`` (largest searched launch) and ``budget`` (instructions
    per thread; ``None``: the CLI's defaults) are the CLI's options.
    ``progress`` shows a tqdm bar per kernel (``False``: none; a callable
    gets a :class:`simulee.Progress` per generation). ``defines``,
    ``include_dirs`` and ``opt`` are :func:`simulee.load`'s, used when a path
    is given.

    As ``simulee FILE`` does, a kernel that the file's host code launches is
    searched at its call sites (constants kept, formulas followed, buffers
    sized by the host's ``cudaMalloc``), and one the host code never
    launches is ``"not launched"``; ``explore=True`` searches every kernel
    freely (``--explore``).

    ``repair=True`` (``--repair``) proposes a repair for each data race,
    read-write-write and check-then-act atomicity violation and redundant
    barrier (a barrier, an atomic, one atomicAdd, a compare-and-swap loop,
    the barrier removed), applies it to
    a copy of the kernel's IR and re-simulates the finding's launch and the
    search's best launch: each finding's ``repairs`` lists the proven ones
    (dicts: ``kind``, ``description``, ``file``, ``line``, ``inserted``,
    ``replaced_lines`` and the re-simulated ``launches``).

    The GIL is released while simulating; Ctrl-C interrupts. Bad input
    raises :class:`simulee.Error` with the CLI's message.
    """
    program = _program_of(program_or_path, defines=defines, include_dirs=include_dirs, opt=opt)
    # By symbol: overloads and template instances share a source name.
    if kernel is not None:
        kernels = [program.kernel(kernel)]
    else:
        kernels = program.kernels
        if not kernels:
            raise _core.Error(f"{program.path}: no kernel")
    request = _core.SearchRequest()
    request.grid = _dims(grid, "grid", program)
    request.block = _dims(block, "block", program)
    request.args = _arguments(args)
    request.shared_bytes = int(shared_bytes)
    request.independent_threads = bool(independent_threads)
    request.record = str(record)
    request.population = int(population)
    request.generations = int(generations)
    request.accept = float(accept)
    request.seed = int(seed)
    request.jobs = int(jobs)
    request.max_threads = int(max_threads)
    request.budget = int(budget or 0)
    request.explore = bool(explore)
    request.repair = bool(repair)

    reports = []
    for chosen in kernels:
        bar = _progress_bar(int(generations) + 1, chosen.name) if progress is True else None
        callback: Optional[Callable[[Dict[str, Any]], None]] = None
        if bar is not None:

            def callback(p: Dict[str, Any], bar: Any = bar) -> None:
                bar.n = min(p["generation"] + 1, bar.total)
                if p["best_F"] is not None:
                    bar.set_postfix(F=f"{p['best_F']:.3f}", launches=p["evaluations"], refresh=False)
                bar.refresh()

        elif callable(progress):
            user_callback = progress

            def callback(p: Dict[str, Any]) -> None:
                user_callback(Progress(**p))

        try:
            result = _core.analyze_kernel(program._handle, chosen.symbol, request, callback)
        finally:
            if bar is not None:
                bar.close()
        reports.append(KernelReport(result))
    return Report(program, reports)
