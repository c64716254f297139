"""Plain value types of the simulee API: kernels, parameters, findings and
launch settings. They are built from the dicts the C++ core returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Optional, Tuple

Dim3 = Tuple[int, int, int]


@dataclass(frozen=True)
class Parameter:
    """One kernel parameter.

    ``type`` is spelled as in C (``"const float *"``, ``"int32"``);
    ``dtype`` is the numpy type of a pointer's elements (``None`` for
    scalars and for pointers to structs, whose contents come back as bytes).
    """

    name: str
    type: str
    kind: str  # "int", "float", "pointer" or "struct"
    is_pointer: bool
    is_const: bool
    dtype: Optional[str]

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Parameter":
        return cls(d["name"], d["type"], d["kind"], d["is_pointer"], d["is_const"], d["dtype"])


@dataclass(frozen=True)
class Kernel:
    """A ``__global__`` function of a loaded file.

    ``builtins_read`` lists the builtin components it reads
    (``"threadIdx.x"``, ``"blockIdx.y"``, ...), which decide the rank of the
    grid and block the search varies. ``unsupported`` is non-empty when the
    kernel uses something the simulator cannot run. ``notes`` says what the
    analysis assumed (a call of a function with no body returns a chosen
    value, old IR's debug information dropped, ...).
    """

    name: str
    symbol: str
    parameters: Tuple[Parameter, ...]
    builtins_read: Tuple[str, ...]
    file: Optional[str]
    line: Optional[int]
    barriers: int
    unsupported: str
    notes: Tuple[str, ...] = ()

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Kernel":
        return cls(
            d["name"],
            d["symbol"],
            tuple(Parameter._from(p) for p in d["parameters"]),
            tuple(d["builtins_read"]),
            d["file"],
            d["line"],
            d["barriers"],
            d["unsupported"],
            tuple(d.get("notes", ())),
        )


@dataclass(frozen=True)
class LaunchSettings:
    """Grid, block, dynamic shared bytes, arguments (as the CLI's ``--arg``
    words, e.g. ``{"n": "128", "in": "random:128"}``) and seed of a launch,
    with where it came from: ``provenance`` is ``"site"`` (every value from a
    call site of the file's host code), ``"site+search"`` (a call site with
    free values searched), ``"free"`` (no call site), ``"program"`` (a launch
    the program made) or ``"user"`` (all given); ``origin`` is the call
    site's ``"file:line"``, or None."""

    grid: Dim3
    block: Dim3
    shared_bytes: int
    args: Dict[str, str]
    seed: int
    provenance: str = "free"
    origin: Optional[str] = None

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "LaunchSettings":
        return cls(
            tuple(d["grid"]), tuple(d["block"]), d["shared_bytes"], dict(d["args"]), d["seed"],
            d.get("provenance", "free"), d.get("origin"),
        )

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]


@dataclass(frozen=True)
class Site:
    """One side of a finding: an access (races, out-of-bounds) or a barrier
    or exit (divergence, redundant barrier), with its source location and the
    example thread and block that executed it."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    function: str
    action: str  # "read", "write", "atomic", "barrier" or "exit"
    thread: Dim3
    block: Dim3
    thread_linear: int
    block_linear: int
    instruction: int
    code: str  # the LLVM instruction
    directory: Optional[str] = None

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Site":
        return cls(
            d["file"], d["line"], d["column"], d["function"], d["action"], tuple(d["thread"]),
            tuple(d["block"]), d["thread_linear"], d["block_linear"], d["instruction"], d["code"],
            d["directory"],
        )


@dataclass(frozen=True)
class Finding:
    """A data race, redundant barrier, barrier divergence, out-of-bounds
    access or unreached barrier (``kind``, as the CLI's tags), in memory
    ``space`` on ``variable``, with its sites and the launch that exposed it.
    ``str(finding)`` is the CLI's one-line message."""

    kind: str
    space: str
    variable: str
    sites: Tuple[Site, ...]
    detail: str
    launch: LaunchSettings
    message: str
    example_offset: Optional[int]
    is_bug: bool
    kernel: str = ""

    @classmethod
    def _from(cls, d: Dict[str, Any], kernel: str = "") -> "Finding":
        return cls(
            d["kind"], d["space"], d["variable"], tuple(Site._from(s) for s in d["sites"]),
            d["detail"], LaunchSettings._from(d["launch"]), d["message"], d["example_offset"],
            d["is_bug"], kernel,
        )

    @property
    def lines(self) -> Tuple[Optional[int], ...]:
        """Source lines of the sites, in order."""
        return tuple(site.line for site in self.sites)

    def to_dict(self) -> Dict[str, Any]:
        """The finding as plain dicts, lists and numbers (JSON-ready)."""
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass(frozen=True)
class Progress:
    """One search generation as the progress callback sees it."""

    kernel: str
    generation: int
    generations: int
    evaluations: int
    best_F: Optional[float] = field(default=None)
