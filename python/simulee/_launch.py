"""Loading a file and running one launch: `load`, `run`, `Program`,
`Launch` and its Memory-Access `Model` as numpy arrays."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import Error
from ._types import Dim3, Finding, Kernel, LaunchSettings

PathLike = Union[str, "os.PathLike[str]"]
DimsLike = Union[int, Sequence[int]]
ArgValue = Union[int, float, str, np.ndarray]

_SPACES = np.array(["global", "shared", "local", "constant"])
_ACTIONS = np.array(["read", "write", "atomic", "block-scoped atomic"])


class Program:
    """A loaded kernel file (``.cu``, ``.ll`` or ``.bc``), lowered for the
    simulator. Get one with :func:`simulee.load`."""

    def __init__(self, handle: "_core.ProgramHandle") -> None:
        self._handle = handle
        self.kernels: List[Kernel] = [Kernel._from(k) for k in handle.kernels()]
        """The kernels of the file, in file order."""

    @property
    def path(self) -> str:
        """The file as given to :func:`load`."""
        return self._handle.path

    def kernel(self, name: str) -> Kernel:
        """The kernel called ``name`` (source or mangled name)."""
        for kernel in self.kernels:
            if name in (kernel.name, kernel.symbol):
                return kernel
        known = ", ".join(k.name for k in self.kernels)
        raise Error(f"{self.path}: no kernel named '{name}' (kernels: {known})")

    def __repr__(self) -> str:
        return f"Program({self.path!r}, kernels={[k.name for k in self.kernels]})"


def load(
    path: PathLike,
    *,
    defines: Optional[Union[Sequence[str], Mapping[str, Any]]] = None,
    include_dirs: Optional[Sequence[PathLike]] = None,
    opt: int = 0,
) -> Program:
    """Loads and lowers a kernel file.

    ``.cu`` files are compiled by clang 19 with simulee's device header;
    ``defines`` (``["N=4"]`` or ``{"N": 4}``) and ``include_dirs`` are passed
    to it, ``opt`` is clang's optimisation level (0, the default, keeps every
    access a race detector must see). Raises :class:`simulee.Error` with the
    CLI's message when the file cannot be read, compiled or lowered.
    """
    if isinstance(defines, Mapping):
        defines = [name if value is None else f"{name}={value}" for name, value in defines.items()]
    return Program(
        _core.load(os.fspath(path), list(defines or []), [os.fspath(d) for d in include_dirs or []], int(opt))
    )


def _program_of(program_or_path: Union[Program, PathLike], **load_options: Any) -> Program:
    if isinstance(program_or_path, Program):
        return program_or_path
    return load(program_or_path, **load_options)


def _dims(value: Optional[DimsLike], what: str, program: Program) -> Optional[Tuple[int, int, int]]:
    if value is None:
        return None
    items = [value] if isinstance(value, (int, np.integer)) else list(value)
    if not 1 <= len(items) <= 3 or any(
        not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not 0 < int(v) < 2**32 for v in items
    ):
        raise Error(f"{program.path}: bad {what} {value!r}: expected X[,Y[,Z]] with positive integers")
    items = [int(v) for v in items] + [1] * (3 - len(items))
    return (items[0], items[1], items[2])


def _arguments(args: Optional[Mapping[str, ArgValue]]) -> List[Tuple[str, str, Optional[bytes]]]:
    """(name, words, bytes) for the core: numpy arrays go as raw bytes."""
    result: List[Tuple[str, str, Optional[bytes]]] = []
    for name, value in (args or {}).items():
        if isinstance(value, np.ndarray):
            data = np.ascontiguousarray(value)
            result.append((str(name), f"array:{data.size}", data.tobytes()))
        elif isinstance(value, bool):
            result.append((str(name), "1" if value else "0", None))
        elif isinstance(value, float):
            result.append((str(name), repr(value), None))
        else:
            result.append((str(name), str(value), None))
    return result


class Model:
    """The Memory-Access Model of one launch as tables.

    :meth:`accesses` has one row per Unit Tuple (needs ``record="full"``);
    :meth:`barriers` one row per warp arriving at a barrier.
    """

    def __init__(self, launch: "Launch") -> None:
        self._launch = launch
        self._accesses: Optional[np.ndarray] = None
        self._barriers: Optional[np.ndarray] = None

    @property
    def has_tuples(self) -> bool:
        """Whether every tuple was kept (the full representation)."""
        return self._launch._result.has_tuples

    def accesses(self, *, as_frame: bool = False) -> Any:
        """Every Unit Tuple in the order the accesses happened.

        A numpy structured array (a ``pandas.DataFrame`` with
        ``as_frame=True``) with the fields: ``visit_order`` (the block's
        barrier interval), ``block_x/y/z``, ``block_linear``,
        ``thread_x/y/z``, ``thread_linear`` (id in its block), ``warp``,
        ``lane``, ``space`` ("global", "shared", "local", "constant"),
        ``variable``, ``offset`` (byte offset in the variable), ``size``
        (bytes), ``action`` ("read", "write", "atomic", "block-scoped atomic"), ``instruction``
        (program-wide index), ``line``, ``column`` (source; 0 = unknown),
        ``step`` (the warp's lockstep step), ``active_mask`` (lanes of the
        warp executing that step) and ``diverged`` (fewer lanes active than
        the warp has: the divergence state).
        """
        if self._accesses is None:
            if not self.has_tuples:
                raise Error(
                    f"{self._launch.program.path}: kernel '{self._launch.kernel}': the launch kept "
                    "only the summary of its accesses; run it with record='full'"
                )
            self._accesses = self._build_accesses(self._launch._result.accesses())
        return _frame(self._accesses) if as_frame else self._accesses

    def barriers(self, *, as_frame: bool = False) -> Any:
        """One row per warp (or divergent part of a warp) arriving at a barrier.

        Fields: ``sequence`` (order among all barrier events of the launch),
        ``block_x/y/z``, ``block_linear``, ``warp``, ``step`` (the warp's
        lockstep step at the barrier), ``visit_order`` (the interval the
        barrier ends), ``instruction``, ``line``, ``lanes`` (how many lanes
        arrived), ``mask`` and ``release_sequence`` (the ``sequence`` at which
        the block's barrier released them; 0 = never).
        """
        if self._barriers is None:
            table = self._launch._result.barriers()
            grid = self._launch.settings.grid
            block = table["block"]
            lanes = np.array([bin(int(m)).count("1") for m in table["lanes"]], dtype=np.uint32)
            columns = {
                "sequence": table["sequence"],
                "block_x": (block % grid[0]).astype(np.uint32),
                "block_y": (block // grid[0] % grid[1]).astype(np.uint32),
                "block_z": (block // (grid[0] * grid[1])).astype(np.uint32),
                "block_linear": block,
                "warp": table["warp"],
                "step": table["step"],
                "visit_order": table["visit_order"],
                "instruction": table["instruction"],
                "line": table["line"],
                "lanes": lanes,
                "mask": table["lanes"],
                "release_sequence": table["release_sequence"],
            }
            self._barriers = _structured(columns)
        return _frame(self._barriers) if as_frame else self._barriers

    def _build_accesses(self, table: Dict[str, Any]) -> np.ndarray:
        settings = self._launch.settings
        grid, block = settings.grid, settings.block
        b, t = table["block"], table["thread"]
        threads_per_block = block[0] * block[1] * block[2]
        warp = table["warp"].astype(np.int64)
        lanes_in_warp = np.minimum(32, threads_per_block - 32 * warp)
        full_mask = ((np.uint64(1) << lanes_in_warp.astype(np.uint64)) - np.uint64(1)).astype(np.uint64)
        names = np.array(table["variable_names"] or [""], dtype=object)
        variable = names[table["variable"]] if len(table["variable"]) else np.array([], dtype=object)
        width = max([len(n) for n in table["variable_names"]] + [1])
        columns = {
            "visit_order": table["visit_order"],
            "block_x": (b % grid[0]).astype(np.uint32),
            "block_y": (b // grid[0] % grid[1]).astype(np.uint32),
            "block_z": (b // (grid[0] * grid[1])).astype(np.uint32),
            "block_linear": b,
            "thread_x": (t % block[0]).astype(np.uint32),
            "thread_y": (t // block[0] % block[1]).astype(np.uint32),
            "thread_z": (t // (block[0] * block[1])).astype(np.uint32),
            "thread_linear": t,
            "warp": table["warp"],
            "lane": table["lane"],
            "space": _SPACES[table["space"]].astype("U8"),
            "variable": variable.astype(f"U{width}"),
            "offset": table["offset"],
            "size": table["size"],
            "action": _ACTIONS[table["action"]],
            "instruction": table["instruction"],
            "line": table["line"],
            "column": table["column"],
            "step": table["step"],
            "active_mask": table["active_mask"],
            "diverged": table["active_mask"].astype(np.uint64) != full_mask,
        }
        return _structured(columns)


def _structured(columns: Dict[str, np.ndarray]) -> np.ndarray:
    count = len(next(iter(columns.values())))
    array = np.empty(count, dtype=[(name, np.asarray(col).dtype) for name, col in columns.items()])
    for name, col in columns.items():
        array[name] = col
    return array


def _frame(array: np.ndarray) -> Any:
    import pandas as pd

    return pd.DataFrame.from_records(array)


class Launch:
    """One simulated launch (:func:`simulee.run`): its findings, the final
    contents of its buffers and its Memory-Access Model."""

    def __init__(self, program: Program, result: "_core.LaunchResult") -> None:
        self.program = program
        self._result = result
        self.kernel: str = result.kernel
        """The kernel's source name."""
        self.settings = LaunchSettings._from(result.launch())
        """Grid, block, shared bytes, arguments and seed as simulated."""
        self.findings: List[Finding] = [Finding._from(f, self.kernel) for f in result.findings()]
        """Every finding of the launch, as ``simulee run`` reports them."""
        self.outputs: Dict[str, np.ndarray] = dict(result.outputs())
        """Each pointer argument's contents after the launch, as a numpy array
        of its pointee type (structs: one row of bytes per element)."""
        self.model = Model(self)
        """The Memory-Access Model as arrays."""
        self.verdict: str = result.verdict
        """"findings", "clean", or "inconclusive" when the launch could not be
        judged (it did not terminate, or the kernel trapped): see ``cause``."""
        self.cause: str = result.cause
        """Why an inconclusive launch could not be judged; empty otherwise."""

    @property
    def grid(self) -> Dim3:
        return self.settings.grid

    @property
    def block(self) -> Dim3:
        return self.settings.block

    @property
    def thread_instructions(self) -> int:
        """Instructions executed, summed over threads."""
        return self._result.thread_instructions

    def report(self, format: str = "text") -> str:
        """The findings as the CLI writes them: ``"text"``, ``"json"`` or ``"sarif"``."""
        return self._result.report(format)

    def __repr__(self) -> str:
        return (
            f"Launch({self.kernel!r}, grid={self.grid}, block={self.block}, "
            f"findings={len(self.findings)})"
        )


def check_engine(engine: str) -> None:
    """The engines ``--engine`` names (run and exec)."""
    if engine not in ("auto", "interp", "compiled"):
        raise Error(f"bad engine {engine!r}: expected 'auto', 'interp' or 'compiled'")


def run(
    program_or_path: Union[Program, PathLike],
    kernel: Optional[str] = None,
    *,
    grid: DimsLike,
    block: DimsLike,
    args: Optional[Mapping[str, ArgValue]] = None,
    shared_bytes: int = 0,
    independent_threads: bool = True,
    record: str = "full",
    seed: int = 1,
    budget: Optional[int] = None,
    repair: bool = False,
    jobs: int = 0,
    engine: str = "auto",
) -> Launch:
    """Runs one launch of a kernel and judges it, like ``simulee run``.

    ``kernel`` may be omitted when the file has one. ``grid`` and ``block``
    are an int or up to three ints. ``args`` maps parameter names (or
    positions as strings) to a scalar, a numpy array (a buffer's initial
    contents, its bytes as they are), or the CLI's words (``"zeros:N"``,
    ``"random:N"``, ``"@PATH"``); pointer parameters not given get an
    automatic buffer with seeded contents. ``independent_threads=False``
    gives lockstep warps (pre-Volta). ``record`` is the model's
    representation: ``"full"`` keeps every tuple (needed by
    ``launch.model.accesses()``; its cost grows with the accesses per
    address, so prefer ``"summary"`` for large or long launches),
    ``"summary"`` and ``"auto"`` as the CLI.
    ``budget`` caps the instructions per thread (``--budget``; ``None``, as
    the CLI: 2^24, the launch also bounded by a 30-second time budget).
    ``repair=True``
    (``--repair``) proves repair proposals by re-simulating this launch on
    edited copies of the kernel: each finding's ``repairs`` lists the proven
    ones, each with its re-simulated ``launches``. ``jobs`` is the threads
    the launch's blocks run on (``--jobs``; 0 = one per core): the findings,
    the accesses table and the buffers are the same whatever it is.
    ``engine`` (``--engine``) is what runs the kernel's instructions:
    ``"interp"``, the interpreter; ``"compiled"``, native code compiled from
    the kernel; ``"auto"``, compiled code once a function has run long. The
    results are the same whichever it is.

    The GIL is released while simulating; Ctrl-C interrupts. Bad input
    raises :class:`simulee.Error` with the CLI's message.
    """
    check_engine(engine)
    program = _program_of(program_or_path)
    result = _core.run(
        program._handle,
        kernel,
        _dims(grid, "grid", program),
        _dims(block, "block", program),
        _arguments(args),
        int(shared_bytes),
        bool(independent_threads),
        str(record),
        int(seed),
        int(budget or 0),
        bool(repair),
        int(jobs),
        str(engine),
    )
    return Launch(program, result)
