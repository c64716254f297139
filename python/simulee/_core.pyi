"""Type stubs of simulee._core, the C++ extension under the `simulee`
package. Scripts use the package (simulee.load, run, analyze, scan), which
wraps these plain values into its documented classes."""

from typing import Any, Callable, Dict, List, Optional, Tuple

class Error(Exception):
    """Bad input; str(error) is the CLI's message after 'simulee: error: '."""

FINDING_KINDS: Tuple[str, ...]
"""Every finding kind, in the order of the reports' summaries."""
BUILD_RUNTIME_DIR: str
"""Where exec's runtime was built (the package's own copy comes first)."""

def cuda_path() -> Optional[str]:
    """The CUDA installation .cu files compile against, or None."""

class ProgramHandle:
    """A loaded, lowered kernel file."""
    @property
    def path(self) -> str: ...
    def kernels(self) -> List[Dict[str, Any]]: ...
    def instruction_text(self, id: int) -> str: ...

def load(path: str, defines: List[str], include_dirs: List[str], opt: int) -> ProgramHandle:
    """Loads a .cu, .ll or .bc file; raises Error with the loader's message."""

class LaunchResult:
    """One simulated launch (simulee run)."""
    @property
    def kernel(self) -> str: ...
    @property
    def thread_instructions(self) -> int: ...
    @property
    def has_tuples(self) -> bool: ...
    @property
    def verdict(self) -> str: ...
    @property
    def cause(self) -> str: ...
    def findings(self) -> List[Dict[str, Any]]: ...
    def launch(self) -> Dict[str, Any]: ...
    def outputs(self) -> Dict[str, Any]: ...
    def accesses(self) -> Dict[str, Any]: ...
    def barriers(self) -> Dict[str, Any]: ...
    def report(self, format: str) -> str: ...

def run(
    program: ProgramHandle,
    kernel: Optional[str],
    grid: Tuple[int, int, int],
    block: Tuple[int, int, int],
    args: List[Tuple[str, str, Optional[bytes]]],
    shared_bytes: int,
    independent_threads: bool,
    record: str,
    seed: int,
    budget: int,
) -> LaunchResult:
    """Runs one launch and judges it, with the GIL released; Ctrl-C stops it."""

class SearchRequest:
    """The settings of one kernel's search (simulee FILE's options)."""
    grid: Optional[Tuple[int, int, int]]
    block: Optional[Tuple[int, int, int]]
    args: List[Tuple[str, str, Optional[bytes]]]
    shared_bytes: int
    independent_threads: bool
    record: str
    population: int
    generations: int
    accept: float
    seed: int
    jobs: int
    max_threads: int
    budget: int
    explore: bool
    def __init__(self) -> None: ...

class AnalysisResult:
    """The search and detection of one kernel."""
    @property
    def kernel(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def launches(self) -> int: ...
    @property
    def judged_launches(self) -> int: ...
    @property
    def failed_launches(self) -> int: ...
    @property
    def non_terminating_launches(self) -> int: ...
    @property
    def too_costly_launches(self) -> int: ...
    @property
    def out_of_bounds_launches(self) -> int: ...
    @property
    def first_launch_error(self) -> str: ...
    @property
    def verdict_text(self) -> str: ...
    @property
    def thread_instructions(self) -> int: ...
    @property
    def best_F(self) -> float: ...
    def best_launch(self) -> Optional[Dict[str, Any]]: ...
    def findings(self) -> List[Dict[str, Any]]: ...
    def history(self) -> Dict[str, Any]: ...
    def report(self, format: str) -> str: ...

def analyze_kernel(
    program: ProgramHandle,
    kernel: str,
    request: SearchRequest,
    progress: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> AnalysisResult:
    """Searches launches of one kernel and judges each, with the GIL released;
    `progress` is called with the GIL after each generation; Ctrl-C stops it."""

class ExecSettings:
    """What simulee exec builds and runs, and what its runtime checks."""
    files: List[str]
    program_args: List[str]
    defines: List[str]
    include_dirs: List[str]
    libraries: List[str]
    library_dirs: List[str]
    cuda_path: str
    opt: int
    runtime_dir: str
    strict: bool
    lockstep: bool
    all_blocks: bool
    record: str
    budget: int
    search: int
    checked_launches: int
    sm: int
    capture_output: bool
    def __init__(self) -> None: ...

def exec_program(settings: ExecSettings) -> Dict[str, Any]:
    """Builds and runs a whole CUDA program against simulee's runtime, with
    the GIL released; Ctrl-C kills it. The runtime's JSON report, the
    counts behind the verdict, the program's status and captured output."""
