# Type stubs of the public API. The classes and functions are annotated
# where they are defined (_launch.py, _analysis.py, _scan.py, _types.py);
# this file fixes what `import simulee` exports.
from ._analysis import VERDICTS as VERDICTS
from ._analysis import KernelReport as KernelReport
from ._analysis import Report as Report
from ._analysis import analyze as analyze
from ._analysis import combine_verdicts as combine_verdicts
from ._core import Error as Error
from ._launch import Launch as Launch
from ._launch import Model as Model
from ._launch import Program as Program
from ._launch import load as load
from ._launch import run as run
from ._scan import FINDING_KINDS as FINDING_KINDS
from ._scan import scan as scan
from ._types import Finding as Finding
from ._types import Kernel as Kernel
from ._types import LaunchSettings as LaunchSettings
from ._types import Parameter as Parameter
from ._types import Progress as Progress
from ._types import Site as Site

__version__: str
__all__: list[str]
