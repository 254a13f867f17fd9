# gpu_env.sh (copied to .gpu/env.sh by gpu_bundle.sh) — the environment for running ddlbench's CUDA build on a GPU
# machine that has the NVIDIA
# driver and CUDA (or PyTorch's pip CUDA libraries) but no Open MPI, from the bundle that
# gpu_bundle.sh (make gpu-bundle) writes into the checkout (.gpu/: Debian 12's Open MPI 4.1.4 runtime, unpacked).
# Source it (sh, dash or bash) from the checkout root:      . .gpu/env.sh
# or from anywhere, naming the bundle:   GPU_BUNDLE=/path/to/checkout/.gpu; . "$GPU_BUNDLE/env.sh"
# It also defines two functions (docs/GPU.md):
#   gpu_info          the machine, the GPU, the loopback interface, which libraries the build finds
#   gpu_mpi_probe [EXE]  2 ranks through the bundle's Open MPI; turns vader's single-copy mechanism off
#                     when the machine refuses it. Call it in this shell (redirect it, don't pipe it).
# Variables it reads: GPU_BUNDLE (default: this file's folder, else ./.gpu); GPU_FALLBACK=1|0 forces
# the carried zlib/libuuid/libudev/libatomic on|off (default: only where the system lacks one).

if [ -z "${GPU_BUNDLE:-}" ]; then
    if [ -n "${BASH_SOURCE:-}" ]; then GPU_BUNDLE=$(dirname -- "$BASH_SOURCE"); else GPU_BUNDLE=.gpu; fi
fi
_gm=$(CDPATH='' cd -- "$GPU_BUNDLE" 2>/dev/null && pwd)
if [ -z "$_gm" ] || [ ! -f "$_gm/mpi/usr/bin/orterun" ]; then
    echo "env.sh: no bundle at $GPU_BUNDLE (expected mpi/usr/bin/orterun there): run gpu_bundle.sh (make gpu-bundle)," \
         "carry .gpu, and source this file from the checkout root" >&2
    unset _gm
    # shellcheck disable=SC2317
    return 1 2>/dev/null || exit 1
fi
GPU_BUNDLE=$_gm
export GPU_BUNDLE
_gm=$GPU_BUNDLE/mpi
_gl=$_gm/usr/lib/x86_64-linux-gnu

# File modes may not survive every copy: the launcher and the carried executables must be executable.
for _gf in "$_gm"/usr/bin/orterun "$_gm"/usr/bin/orted "$_gm"/usr/bin/ompi_info \
           "$GPU_BUNDLE"/../build/cuda/ddlbench "$GPU_BUNDLE"/../build/tests/test_cuda; do
    [ -f "$_gf" ] && [ ! -x "$_gf" ] && chmod +x "$_gf" 2>/dev/null
done

# Open MPI and PMIx find their components, help files and configuration relative to these prefixes
# (Debian built them for /usr; OPAL_PREFIX relocates the whole installation).
export OPAL_PREFIX="$_gm/usr"
export OPAL_SYSCONFDIR="$_gm/etc/openmpi"           # Debian's sysconfdir (/etc/openmpi) is not under the prefix
export PMIX_PREFIX="$_gl/pmix2"
export PMIX_MCA_mca_base_component_path="$_gl/pmix2/lib/pmix"  # the ranks honour it (mpirun needs none)
export HWLOC_PLUGINS_PATH="$_gm/hwloc-plugins"       # absent on purpose: load no plugins of a system hwloc
export PATH="$_gm/usr/bin:$PATH"

# Library path: the bundle first; the carried core libraries (fallback/) only when the system lacks one
# of them; then CUDA (/usr/local/cuda), whatever the caller had, the driver folders of GPU containers,
# and, last, PyTorch's pip CUDA libraries (nvidia/*/lib) where cuBLAS / cudart are not installed.
_gp=$_gl:$_gl/ucx:$_gl/pmix2/lib
for _gf in "$_gm"/fallback/*.so.?; do
    case ${GPU_FALLBACK:-auto} in
    1) _gp=$_gp:$_gm/fallback; break ;;
    0) break ;;
    esac
    if ! { /sbin/ldconfig -p || ldconfig -p; } 2>/dev/null | grep -q "[[:space:]]${_gf##*/} "; then
        _gp=$_gp:$_gm/fallback; break
    fi
done
for _gf in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do [ -d "$_gf" ] && _gp=$_gp:$_gf; done
[ -n "${LD_LIBRARY_PATH:-}" ] && _gp=$_gp:$LD_LIBRARY_PATH
for _gf in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do [ -d "$_gf" ] && _gp=$_gp:$_gf; done
for _gr in /opt/torch /usr/local/lib/python3*/dist-packages/nvidia /usr/local/lib/python3*/site-packages/nvidia \
           /usr/lib/python3/dist-packages/nvidia; do
    [ -d "$_gr" ] || continue
    for _gf in $(find "$_gr" \( -name 'libcublas.so.*' -o -name 'libcublasLt.so.*' -o -name 'libcudart.so.*' \) \
                 2>/dev/null | sed 's|/[^/]*$||' | sort -u); do
        case :$_gp: in *:"$_gf":*) ;; *) _gp=$_gp:$_gf ;; esac
    done
done
export LD_LIBRARY_PATH="$_gp"

# Open MPI on one machine, as root, more ranks than GPUs or cores, shared memory only (no network
# probing); the same exclusions as Debian's openmpi-mca-params.conf (also carried, in OPAL_SYSCONFDIR).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi OMPI_MCA_osc=^ucx,pt2pt
export OMPI_MCA_btl_base_warn_component_unused=0
{ [ -d /dev/shm ] && [ -w /dev/shm ]; } || export OMPI_MCA_btl_vader_backing_directory=/tmp
export OPENBLAS_NUM_THREADS=1
unset _gm _gl _gp _gf _gr

# gpu_info: what machine this is and whether the carried build can run on it (one line per fact).
gpu_info() {
    echo "== $(date -u +%FT%TZ) $(uname -srm)"
    grep -h '^PRETTY_NAME' /etc/os-release 2>/dev/null
    _gi=$(ldd --version 2>&1 | head -n 1); echo "$_gi"
    echo "${_gi##* }" | awk -F. '{ exit !($1 > 2 || ($1 == 2 && $2 >= 36)) }' ||
        echo "WARNING: glibc older than 2.36: Debian 12's libevent in the bundle will not load"
    echo "cpus: $(nproc) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
    grep -qw avx2 /proc/cpuinfo || echo "WARNING: no AVX2: the x86-64-v3 build will not run here"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    else echo "nvidia-smi: not found (no NVIDIA driver here?)"; fi
    if [ ! -r /sys/class/net/lo/flags ]; then echo "WARNING: no loopback interface: mpirun needs one"
    elif [ $(( $(cat /sys/class/net/lo/flags) & 1 )) -eq 1 ]; then echo "loopback: up"
    else echo "WARNING: loopback is down: mpirun needs it up (ip link set lo up)"; fi
    echo "mpirun: $(mpirun --version 2>&1 | head -n 1)"
    [ -f "$GPU_BUNDLE/BUILD_INFO.txt" ] && cat "$GPU_BUNDLE/BUILD_INFO.txt"
    echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    for _gi in build/cuda/ddlbench build/tests/test_cuda; do
        [ -f "$_gi" ] || { echo "$_gi: missing"; continue; }
        ldd "$_gi" 2>&1 | grep -E 'not found|libcublas|libcudart|libmpi\.' |
            sed "s|^[[:space:]]*|$_gi: |; s| (0x.*||" || true
    done
    unset _gi
}

# gpu_mpi_probe [EXE]: 2 ranks, host buffers, one 4 MB allreduce (messages this large use vader's
# CMA single copy, which a container may refuse). If that fails, retry with single copy off and keep
# that setting (exported). Returns 0 when 2 ranks work. Default EXE: build/cuda/ddlbench.
gpu_mpi_probe() {
    _ge=${1:-build/cuda/ddlbench}
    [ -x "$_ge" ] || { echo "mpi probe: $_ge: not found or not executable"; return 2; }
    for _gc in default none; do
        [ "$_gc" = none ] && export OMPI_MCA_btl_vader_single_copy_mechanism=none
        if _go=$(timeout 60 mpirun --oversubscribe --bind-to none -np 2 "$_ge" allreduce -b 4M -e 4M \
                 -a ring -w 1 -n 2 --timeout 20 2>&1); then _gs=0; else _gs=$?; fi
        if [ $_gs -eq 0 ]; then
            [ "$_gc" = default ] && echo "mpi probe: 2 ranks ok (vader single copy: default)" ||
                echo "mpi probe: 2 ranks ok only with OMPI_MCA_btl_vader_single_copy_mechanism=none (kept)"
            unset _ge _gc _go _gs
            return 0
        fi
        echo "$_go" | tail -n 12
    done
    unset OMPI_MCA_btl_vader_single_copy_mechanism
    echo "mpi probe: 2 ranks FAILED (exit $_gs): the 2-rank steps of gpu_check.sh will fail too"
    unset _ge _gc _go _gs
    return 1
}
