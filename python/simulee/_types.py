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
    site's ``"file:line"``, or None; ``ordinal`` which launch of its kernel
    the program made (1 for the first; 0 for launches simulee chose)."""

    grid: Dim3
    block: Dim3
    shared_bytes: int
    args: Dict[str, str]
    seed: int
    provenance: str = "free"
    origin: Optional[str] = None
    ordinal: int = 0

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "LaunchSettings":
        return cls(
            tuple(d["grid"]), tuple(d["block"]), d["shared_bytes"], dict(d["args"]), d["seed"],
            d.get("provenance", "free"), d.get("origin"),
        )

    @classmethod
    def _from_report(cls, d: Dict[str, Any]) -> "LaunchSettings":
        """From a JSON report's ``launch`` object."""
        origin = d.get("origin")
        return cls(
            tuple(d["grid"]), tuple(d["block"]), d["sharedBytes"], dict(d["arguments"]), d["seed"],
            d["provenance"], f"{origin['file']}:{origin['line']}" if origin else None, d.get("ordinal", 0),
        )

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]


@dataclass(frozen=True)
class Site:
    """One side of a finding: an access (races, out-of-bounds) or a barrier
    or exit (divergence, redundant barrier), with its source location and the
    example thread and block that executed it. ``instruction`` is the
    instruction's id in the loaded program (None for :func:`simulee.exec`'s
    findings, made in the program's process); ``code`` its LLVM text."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    function: str
    action: str  # "read", "write", "atomic", "block-scoped atomic", "barrier" or "exit"
    thread: Dim3
    block: Dim3
    thread_linear: int
    block_linear: int
    instruction: Optional[int]
    code: str  # the LLVM instruction
    directory: Optional[str] = None

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Site":
        return cls(
            d["file"], d["line"], d["column"], d["function"], d["action"], tuple(d["thread"]),
            tuple(d["block"]), d["thread_linear"], d["block_linear"], d["instruction"], d["code"],
            d["directory"],
        )


def _linear(coordinates: Any, dims: Any) -> int:
    return int(coordinates[0] + coordinates[1] * dims[0] + coordinates[2] * dims[0] * dims[1])


@dataclass(frozen=True)
class Finding:
    """A data race, redundant barrier, barrier divergence, out-of-bounds
    access, unreached barrier, uninitialized read, undefined behaviour or
    atomicity violation (``kind``, as the CLI's tags:
    :data:`simulee.FINDING_KINDS`), in memory ``space`` on ``variable``, with
    its sites and the launch that exposed it. ``is_bug`` says it is a
    warning; notes are not (an unreached barrier, or a ``benign`` race:
    ``"same-value"`` or ``"unconventional"``). ``subkind`` is an atomicity
    violation's pattern (``"check-then-act"``, ``"read-write-write"``, ...;
    its sites are the pair, then the access between them), else None.
    ``repairs`` are the proven repairs of ``analyze(..., repair=True)``
    (``--repair``). ``str(finding)`` is the CLI's one-line message."""

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
    benign: Optional[str] = None
    subkind: Optional[str] = None
    repairs: Tuple[Dict[str, Any], ...] = field(default=(), compare=False)

    @classmethod
    def _from(cls, d: Dict[str, Any], kernel: str = "") -> "Finding":
        return cls(
            d["kind"], d["space"], d["variable"], tuple(Site._from(s) for s in d["sites"]),
            d["detail"], LaunchSettings._from(d["launch"]), d["message"], d["example_offset"],
            d["is_bug"], kernel, d.get("benign"), d.get("subkind"), tuple(d.get("repairs", ())),
        )

    @classmethod
    def _from_report(cls, d: Dict[str, Any]) -> "Finding":
        """From a finding of a JSON report (``simulee ... --format json``)."""
        launch = LaunchSettings._from_report(d["launch"])
        sites = tuple(
            Site(a["file"], a["line"], a["column"], a["function"], a["action"], tuple(a["thread"]),
                 tuple(a["block"]), _linear(a["thread"], launch.block), _linear(a["block"], launch.grid),
                 None, a["instruction"], a.get("directory"))
            for a in d["accesses"]
        )
        address = d.get("address")
        return cls(
            d["kind"], d["space"], d["variable"], sites, d["detail"], launch, d["message"],
            address["offset"] if address else None, d["severity"] == "warning", d["kernel"] or "",
            d.get("benign"), d.get("subkind"), tuple(d.get("fixes", ())),
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
class HostFinding:
    """A ``host-api-error`` of :func:`simulee.exec`: a CUDA API call of the
    program's host code that misuses device memory (a copy or memset past
    an allocation's end, a use after ``cudaFree``, a double free, an invalid
    launch configuration). ``site`` is the call's ``"file:line"`` (empty
    when unknown); the call also failed as CUDA would fail it."""

    function: str
    site: str
    message: str
    kind: str = "host-api-error"
    is_bug: bool = True

    @classmethod
    def _from_report(cls, d: Dict[str, Any]) -> "HostFinding":
        return cls(d["function"], d["site"], d["message"], d["kind"])

    def __str__(self) -> str:
        return f"{self.kind}: {self.function}: {self.message}"


@dataclass(frozen=True)
class KernelVerdict:
    """One kernel's verdict over the launches a program made
    (:func:`simulee.exec`): ``"clean"``, ``"findings"`` or ``"inconclusive"``,
    the launches judged, those run with light checks only (out of bounds,
    undefined behaviour, divergence: see ``check_all``), those skipped by
    reason, and the first failure's ``cause``."""

    kernel: str
    file: str
    verdict: str
    judged_launches: int
    lightly_checked_launches: int
    skipped_launches: Dict[str, int]
    cause: str

    @classmethod
    def _from_report(cls, d: Dict[str, Any]) -> "KernelVerdict":
        counts = d["launches"]
        skipped = {"failed": counts["failed"], "non-terminating": counts["nonTerminating"],
                   "too-costly": counts["tooCostly"] - counts.get("cutShort", 0),
                   "out-of-bounds": counts["outOfBounds"]}
        return cls(d["kernel"] or "", d["file"], d["verdict"], counts["judged"], counts["lightlyChecked"],
                   skipped, d["cause"] or "")


@dataclass(frozen=True)
class Progress:
    """One search generation as the progress callback sees it."""

    kernel: str
    generation: int
    generations: int
    evaluations: int
    best_F: Optional[float] = field(default=None)
