# Type stubs of the public API. The classes and functions are annotated
# where they are defined (_launch.py, _analysis.py, _exec.py, _scan.py,
# _types.py);
# this file fixes what `import simulee` exports.
from ._analysis import VERDICTS as VERDICTS
from ._analysis import KernelReport as KernelReport
from ._analysis import Report as Report
from ._analysis import analyze as analyze
from ._analysis import combine_verdicts as combine_verdicts
from typing import Optional

from ._core import FINDING_KINDS as FINDING_KINDS
from ._core import Error as Error
from ._exec import ExecReport as ExecReport
from ._exec import exec as exec
from ._launch import Launch as Launch
from ._launch import Model as Model
from ._launch import Program as Program
from ._launch import load as load
from ._launch import run as run
from ._scan import scan as scan
from ._types import Finding as Finding
from ._types import HostFinding as HostFinding
from ._types import Kernel as Kernel
from ._types import KernelVerdict as KernelVerdict
from ._types import LaunchSettings as LaunchSettings
from ._types import Parameter as Parameter
from ._types import Progress as Progress
from ._types import Site as Site

def cuda_path() -> Optional[str]: ...

__version__: str
__all__: list[str]
