"""The ``simulee`` command that installing the package puts on the PATH: it
runs the CLI binary the wheel carries next to this file (python/CMakeLists.txt
installs it with exec's runtime and the CUDA headers beside it), with the
same arguments, as the same process."""

import os
import sys
from pathlib import Path


def main() -> None:
    binary = Path(__file__).with_name("simulee")
    if not binary.is_file():
        sys.exit("simulee: error: this simulee package was built without the command "
                 "(its build had SIMULEE_BUILD_CLI=OFF)")
    os.execv(binary, [str(binary), *sys.argv[1:]])
