#!/usr/bin/env bash
# Assembles the CUDA installation simulee compiles .cu files against from
# NVIDIA's PyPI wheels: the runtime headers, CCCL (Thrust, CUB, libcu++),
# cuRAND's device API and libdevice, laid out as one CUDA path
# (include/, nvvm/libdevice/, bin/) in DEST (default build/cuda), which
# simulee finds without flags. Only the wheels' headers and libdevice are
# kept; the download (~80 MB) is cached in ~/.cache/simulee/wheels.
# Safe to run again: does nothing when DEST already holds these versions.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-build/cuda}"

# CUDA 12.4: the newest release clang 19 knows. cccl 12.4.127 (without
# .post1) is a yanked, broken release.
wheels=(
  nvidia-cuda-runtime-cu12==12.4.127
  nvidia-cuda-cccl-cu12==12.4.127.post1
  nvidia-curand-cu12==10.3.5.147
  nvidia-cuda-nvcc-cu12==12.4.131
)
stamp="$dest/.simulee-wheels"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${wheels[*]}" ]; then
  exit 0
fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/simulee/wheels"
mkdir -p "$cache"
# Header-only use: the x86_64 wheels serve every host.
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux2014_x86_64 --python-version 3 -d "$cache" "${wheels[@]}"

rm -rf "$dest.tmp"
python3 - "$cache" "$dest.tmp" "${wheels[@]}" <<'PY'
import os, sys, zipfile
cache, dest, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
for spec in specs:
    name, version = spec.split("==")
    prefix = name.replace("-", "_") + "-" + version + "-"
    found = [f for f in os.listdir(cache) if f.startswith(prefix) and f.endswith(".whl")]
    if not found:
        sys.exit(f"cuda-headers: no wheel for {spec} in {cache}")
    with zipfile.ZipFile(os.path.join(cache, found[0])) as wheel:
        for member in wheel.namelist():
            parts = member.split("/")
            # nvidia/<component>/include/... and nvidia/cuda_nvcc/nvvm/libdevice/...
            if len(parts) < 4 or parts[0] != "nvidia" or member.endswith("/"):
                continue
            keep = (parts[2] == "include" and not member.endswith(".py")
                    or parts[2:4] == ["nvvm", "libdevice"])
            if not keep:
                continue
            target = os.path.join(dest, *parts[2:])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(wheel.read(member))
os.makedirs(os.path.join(dest, "bin"), exist_ok=True)  # clang's CUDA detection wants bin/
PY
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "${wheels[*]}" > "$stamp"
echo "cuda-headers: NVIDIA's CUDA 12.4 headers and libdevice in $dest"
