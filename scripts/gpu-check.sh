#!/bin/bash
# The prepared GPU check: builds what it needs and runs the GPU suite through
# hpcab-runner directly, writing its log and every run's outputs to OUTDIR.
#
#   scripts/gpu-check.sh OUTDIR
#
# Cases (scripts/gpu-check.py): tsvc_2_s000 as a correct, an incorrect, a racing and a
# left-running CUDA kernel, each for residency host and device, against the C reference's
# outputs for the same draws; a device-resident gemm against its C baseline (outputs compared,
# speedup reported); the census of kernels left running. A summary table ends the log.
#
# Self-contained: no network. It uses, in this order,
#   HPCAB_RUNNER  an hpcab-runner binary (else BUILD_DIR/hpcab-runner, else it configures and
#                 builds that target with cmake/ninja into BUILD_DIR, default build/)
#   NVCC          nvcc (else nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   CUDART        the libcudart the runner dlopen()s (else the newest libcudart.so.* under
#                 the CUDA toolkit's lib64, else the loader cache)
#   CUDA_ARCH     nvcc -arch (else native, else sm_90)
#   GPU_CHECK_DEV_ROOT  where device nodes are looked for (default /dev; tests point it at an
#                 empty folder to take the no-GPU path on any machine)
# Exit status: 0 every case as expected, or no GPU ("SKIP: no GPU" printed, nothing run);
# 1 some case unexpected; 2 the tools are missing or a build failed (GPU present).
set -u
out=${1:?usage: scripts/gpu-check.sh OUTDIR}
case "$out" in -h|--help) sed -n '2,26p' "$0"; exit 0 ;; esac
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
log=$out/gpu-check.log
: >"$log"
say() { echo "$*" | tee -a "$log"; }
die() { say "FAIL: $*"; exit 2; }
start=$(date +%s)

dev=${GPU_CHECK_DEV_ROOT:-/dev}
if ! ls "$dev"/nvidia[0-9]* >/dev/null 2>&1; then
  say "SKIP: no GPU (no $dev/nvidia0..N)"
  exit 0
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi -L >>"$log" 2>&1 || { say "SKIP: no GPU (nvidia-smi -L failed)"; exit 0; }
fi
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || die "no nvcc (set NVCC)"
cuda_home=$(cd "$(dirname "$nvcc")/.." && pwd)
cudart=${CUDART:-}
if [ -z "$cudart" ]; then
  cudart=$(ls "$cuda_home"/lib64/libcudart.so.* "$cuda_home"/targets/*/lib/libcudart.so.* 2>/dev/null |
    sort -V | tail -1)
fi
if [ -z "$cudart" ]; then
  cudart=$(ldconfig -p 2>/dev/null | awk '/libcudart\.so/ {print $NF; exit}')
fi
[ -n "$cudart" ] || die "no libcudart found (set CUDART)"
say "nvcc: $("$nvcc" --version | tail -1); runtime: $cudart"

runner=${HPCAB_RUNNER:-}
build=${BUILD_DIR:-$repo/build}
if [ -z "$runner" ]; then
  runner=$build/hpcab-runner
  if [ ! -x "$runner" ]; then
    say "building hpcab-runner in $build"
    { cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
      ninja -C "$build" hpcab-runner hpcab; } >>"$log" 2>&1 || die "cannot build hpcab-runner (see $log)"
  fi
fi
[ -x "$runner" ] || die "no runner at $runner"

libs=$out/libs
mkdir -p "$libs"
arch=${CUDA_ARCH:-native}
probe="$libs/probe.so"
if ! "$nvcc" -arch="$arch" -shared -Xcompiler -fPIC -o "$probe" "$repo/scripts/gpu/gemm.cu" >>"$log" 2>&1; then
  arch=sm_90
fi
say "building the CUDA libraries (-arch=$arch)"
nv() { "$nvcc" -O3 -arch="$arch" -shared -Xcompiler -fPIC,-pthread -cudart shared "$@" >>"$log" 2>&1; }
for v in 0 1 2 3; do
  nv -DVARIANT=$v -o "$libs/s000_$v.so" "$repo/scripts/gpu/s000.cu" || die "nvcc s000 variant $v"
  nv -DVARIANT=$v -DDEVICE_RESIDENT -o "$libs/s000_${v}_dev.so" "$repo/scripts/gpu/s000.cu" ||
    die "nvcc s000 variant $v (device)"
done
nv -o "$libs/gemm_dev.so" "$repo/scripts/gpu/gemm.cu" || die "nvcc gemm"
cc=${CC:-cc}
# A corpus reference.c is single-source: `hpcab corpus reference` instantiates it at each
# precision (common/reference_build.h), one C file each, linked into one library.
hpcab=${HPCAB:-$build/hpcab}
[ -x "$hpcab" ] || ninja -C "$build" hpcab >>"$log" 2>&1 || die "no hpcab at $hpcab (see $log)"
ref_lib() {  # ID LIBRARY
  for p in fp64 fp32; do
    "$hpcab" --corpus "$repo/corpus" corpus reference "$1" --precision $p >"$libs/$1_$p.c" || return 1
  done
  $cc -O2 -shared -fPIC -o "$2" "$libs/$1_fp64.c" "$libs/$1_fp32.c" -lm
}
ref_lib tsvc_2_s000 "$libs/s000_ref.so" >>"$log" 2>&1 || die "cc s000"
ref_lib gemm "$libs/gemm_ref.so" >>"$log" 2>&1 || die "cc gemm"

# The CUDA libraries need libcudart.so.N: the runner loads it first (by path), and the loader
# path covers a machine whose loader cache does not list the toolkit.
cudart_dir=$(dirname "$cudart")
export LD_LIBRARY_PATH="$cudart_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
say "running the suite"
python3 "$repo/scripts/gpu-check.py" --runner "$runner" --cudart "$cudart" --libs "$libs" \
  --corpus "$repo/corpus" --out "$out" ${GPU_CHECK_ARGS:-} 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
say "gpu-check: exit $rc after $(( $(date +%s) - start )) s"
exit "$rc"
