#!/bin/bash
# gpu_bundle.sh — `make gpu-bundle`: prepare a ddlbench checkout for a GPU machine that has CUDA but no Open MPI and no
# network (docs/GPU.md). Run it from the checkout root on a Debian 12 (amd64) machine
# with apt-get, nvcc and Open MPI:        bash harness/scripts/gpu_bundle.sh [--no-build] [--debs DIR]
# It writes .gpu/ (ignored through .git/info/exclude; never commit it):
#   .gpu/mpi/             Debian 12's Open MPI 4.1.4 runtime and the libraries it loads (dpkg -x)
#   .gpu/env.sh           the environment to source on the GPU machine (harness/scripts/gpu_env.sh)
#   .gpu/BUILD_INFO.txt   commit, tools, package versions
# builds build/cuda/ddlbench and build/tests/test_cuda with portable x86-64-v3 host code, checks the
# bundle (every library the executables need is inside it; 2 ranks run with the system's Open MPI
# hidden), and prints the device tool's `carry` list and the sizes.
#   --no-build   keep build/ as it is (it must hold build/cuda/ddlbench and build/tests/test_cuda
#                made with ARCH_FLAGS=-march=x86-64-v3)
#   --debs DIR   keep the downloaded .deb files in DIR and reuse those already there
set -euo pipefail

# The Open MPI runtime and everything it loads, as verified on the GPU machine (Ubuntu 24.04).
MPI_PKGS="openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7
    libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 libibverbs1 ibverbs-providers
    librdmacm1 libnl-3-200 libnl-route-3-200 libmunge2 libnuma1 libpapi7.0 libpfm4 libcjson1"
# Core libraries an image normally has: carried in mpi/fallback/, used only where the system lacks one.
FALLBACK_PKGS="zlib1g libuuid1 libudev1 libatomic1"
ARCH=-march=x86-64-v3       # AVX2; -march=native here may emit AVX-512 that the GPU machine's CPU lacks
LIMIT_MB=64                 # what the device tool carries: the working tree plus the carry paths

die() { echo "gpu_bundle.sh: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=1 debs=
while [ $# -gt 0 ]; do
    case $1 in
    --no-build) build=0 ;;
    --debs) [ $# -ge 2 ] || die "--debs: expected a folder"; debs=$2; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown option \"$1\" (expected --no-build, --debs DIR or --help)" ;;
    esac
    shift
done
[ -f "$here/gpu_env.sh" ] || die "gpu_env.sh is missing beside this script ($here)"
if [ -n "$debs" ]; then mkdir -p "$debs" && debs=$(cd "$debs" && pwd) || die "--debs $debs: cannot use it"; fi
top=$(git rev-parse --show-toplevel 2>/dev/null) || die "run it from the ddlbench checkout (not a git tree)"
cd "$top"
[ -f harness/scripts/gpu_check.sh ] && [ -f Makefile ] ||
    die "$top is not a ddlbench checkout (no harness/gpu_check.sh)"
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || die "needs a Debian amd64 machine (dpkg, apt-get)"
command -v objdump >/dev/null || die "needs objdump (binutils)"
tmp=$(mktemp -d -t gpu-bundle.XXXXXX)
trap 'rm -rf "$tmp" "$top/.gpu/mpi.new"' EXIT

# (a) never committed: /.gpu/ in the clone's own exclude file (not .gitignore, which is tracked)
ex=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$ex")"
grep -qxF '/.gpu/' "$ex" 2>/dev/null || echo '/.gpu/' >>"$ex"
mkdir -p .gpu
git check-ignore -q .gpu/ || die ".gpu/ is not ignored by git (check $ex)"
git check-ignore -q build/ || die "build/ is not ignored by git: the device tool carries ignored paths only"

# (b) the packages: download what DIR lacks, unpack, keep the runtime only
dl=${debs:-$tmp/debs}
mkdir -p "$dl"
deb_of() { ls "$dl/${1}_"*.deb 2>/dev/null | sort -V | tail -n 1; }
need=""
for p in $MPI_PKGS $FALLBACK_PKGS; do [ -n "$(deb_of "$p")" ] || need="$need $p"; done
update() {
    echo "apt-get update ..."
    apt-get update -qq >"$tmp/apt.log" 2>&1 || { tail -n 5 "$tmp/apt.log"; die "apt-get update failed"; }
}
unknown() { for p in $need; do apt-cache show "$p" >/dev/null 2>&1 || echo "$p"; done; }
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root $need) >"$tmp/apt.log" 2>&1; }
if [ -n "$need" ]; then
    updated=0
    if [ -n "$(unknown)" ]; then update; updated=1; fi
    [ -z "$(unknown)" ] || die "not in the package lists:$(unknown | tr '\n' ' ')(Debian 12 names expected)"
    echo "apt-get download:$need"
    if ! download; then                      # stale package lists name versions the mirror no longer has
        [ $updated = 0 ] && update && download || { tail -n 10 "$tmp/apt.log"; die "apt-get download failed"; }
    fi
fi
new=.gpu/mpi.new
rm -rf "$new" "$tmp/fb"
mkdir -p "$new/fallback" "$tmp/fb"
for p in $MPI_PKGS; do dpkg -x "$(deb_of "$p")" "$new"; done
for p in $FALLBACK_PKGS; do dpkg -x "$(deb_of "$p")" "$tmp/fb"; done
find "$tmp/fb" \( -type f -o -type l \) -name 'lib*.so*' -exec cp -a {} "$new/fallback/" \;
L=$new/usr/lib/x86_64-linux-gnu
if [ -d "$new/lib" ]; then cp -a "$new/lib/." "$new/usr/lib/"; rm -rf "${new:?}/lib"; fi   # libnl-3-200: /lib
rm -rf "$new"/usr/share/doc "$new"/usr/share/man "$new"/usr/share/lintian "$new"/usr/share/bug
rm -f "$L"/libmpi_mpifh* "$L"/libmpi_usempi* "$L"/libmpi_java*    # Fortran, Java: need libgfortran, a JVM
# the links Debian's maintainer scripts make (update-alternatives), which dpkg -x does not run
ln -sfn orterun "$new/usr/bin/mpirun"
ln -sfn orterun "$new/usr/bin/mpiexec"
psm=$(cd "$new/usr/lib" && ls libpsm1/libpsm_infinipath.so.1.* | head -n 1)
ln -sfn "../$psm" "$L/libpsm_infinipath.so.1"
rm -rf .gpu/mpi
mv "$new" .gpu/mpi

# (c) the build: -B, because objects made earlier with -march=native would otherwise be kept
if [ $build = 1 ]; then
    echo "make -B -j2 ARCH_FLAGS=$ARCH ..."
    make -B -j2 ARCH_FLAGS=$ARCH >"$tmp/build.log" 2>&1 || { tail -n 30 "$tmp/build.log"; die "make failed"; }
fi
for f in build/cuda/ddlbench build/tests/test_cuda; do
    [ -x "$f" ] || die "$f is missing: build it (make ARCH_FLAGS=$ARCH with nvcc on PATH) or drop --no-build"
done
avx512='%zmm|%[xy]mm(1[6-9]|2[0-9]|3[01])\b|%k[1-7]\b'      # registers only AVX-512 has
n=$(objdump -d build/cuda/ddlbench build/tests/test_cuda | grep -cE "$avx512" || true)
[ "$n" = 0 ] || die "$n AVX-512 instructions in the executables: rebuild with ARCH_FLAGS=$ARCH (drop --no-build)"

# (d) the environment file and what was built from what
cp "$here/gpu_env.sh" .gpu/env.sh
dirty=$(git status --porcelain --untracked-files=no | wc -l)
{
    echo "bundle: gpu_bundle.sh $(date -u +%FT%TZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "ddlbench $(git log -1 --format=%h) ($(git rev-parse HEAD))$([ "$dirty" = 0 ] ||
          echo ", $dirty tracked files changed since")"
    if [ $build = 1 ]; then
        nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
        nv=$("$nv" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
        echo "build: make -B -j2 ARCH_FLAGS=$ARCH; nvcc $nv, gcc $(gcc -dumpfullversion)"
    else
        echo "build: not rebuilt (--no-build); build/cuda/ddlbench of $(date -u -r build/cuda/ddlbench +%FT%TZ)"
    fi
    printf 'packages (Debian, dpkg -x):'
    for p in $MPI_PKGS $FALLBACK_PKGS; do printf ' %s=%s' "$p" "$(dpkg-deb -f "$(deb_of "$p")" Version)"; done
    echo
} >.gpu/BUILD_INFO.txt

# (e) checks: every library the bundle and the executables need is in the bundle, except glibc,
# libstdc++, libgcc_s (the system's) and cuBLAS/cudart (CUDA's); then 2 ranks with the system's Open MPI
# hidden (a private mount namespace: needs root and unshare) in an empty environment, under sh.
base="ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libgcc_s.so.1
      libstdc++.so.6"
have="$base $(find .gpu/mpi \( -type f -o -type l \) -name '*.so*' -printf '%f ')"
elves=".gpu/mpi build/cuda/ddlbench build/tests/test_cuda"
unres=$({ find $elves -type f -exec objdump -p {} + 2>/dev/null || true; } |
    awk -v have="$have" 'BEGIN { n = split(have, h, " "); for (i = 1; i <= n; i++) ok[h[i]] = 1 }
        / file format / { f = $1; sub(/:$/, "", f) }
        $1 == "NEEDED" && !($2 in ok) && $2 !~ /^libcu(blas|blasLt|dart)\.so/ { print $2 " (" f ")" }' | sort -u)
[ -z "$unres" ] || die "libraries needed but not in the bundle (add their packages to MPI_PKGS):
$unres"
echo "libraries: the bundle is complete (outside it: glibc, libstdc++, libgcc_s, cuBLAS, cudart)"
cat >"$tmp/hide.sh" <<'EOF'
# hide.sh CMD...: run CMD with the system's Open MPI stack hidden (inside unshare -m)
e=$(dirname "$0")/empty
mkdir -p "$e"
for d in /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/lib/x86_64-linux-gnu/hwloc \
         /usr/lib/x86_64-linux-gnu/ucx /usr/lib/x86_64-linux-gnu/libibverbs /usr/lib/libpsm1 /etc/openmpi \
         /etc/libibverbs.d /usr/share/openmpi /usr/share/papi; do
    [ -d "$d" ] && { mount --bind "$e" "$d" || exit 97; }
done
for f in $(ls .gpu/mpi/usr/lib/x86_64-linux-gnu | grep '\.so') mpirun mpiexec orterun orted ompi_info; do
    for p in /usr/lib/x86_64-linux-gnu/$f /usr/bin/$f; do
        [ -e "$p" ] && { mount --bind /dev/null "$p" || exit 97; }
    done
done
exec "$@"
EOF
smoke='. .gpu/env.sh && echo "mpirun: $(mpirun --version 2>&1 | head -n 1)" && gpu_mpi_probe build/cuda/ddlbench'
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
   unshare -m sh -c "mount --bind '$tmp' '$tmp'" 2>/dev/null; then
    how="system Open MPI hidden"; run="unshare -m sh $tmp/hide.sh"
else
    how="system Open MPI NOT hidden (needs root and unshare -m)"; run=""
fi
out=$($run env -i PATH=/usr/bin:/bin HOME="$HOME" sh -c "$smoke" 2>&1) ||
    { echo "$out"; die "smoke test failed ($how)"; }
echo "smoke test ($how, empty environment, sh):"
echo "$out" | sed 's/^/  /'

# (f) what to carry and how big it is
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
tree=$({ git ls-files -z -co --exclude-standard | du -cb --files0-from=- 2>/dev/null || true; } |
       tail -n 1 | cut -f1)
tree=${tree:-0}
gpu=$(du -sb .gpu | cut -f1)
carry='[".gpu", "build"]'
total=$((tree + gpu + $(du -sb build | cut -f1)))
if [ $((total * 4)) -gt $((LIMIT_MB * 1048576 * 3)) ]; then      # over 3/4 of the limit: carry less of build/
    carry='[".gpu", "build/cuda", "build/tests/test_cuda", "build/tests/test_cuda_compute"]' # all gpu_check.sh runs
    kept=$(du -scb build/cuda build/tests/test_cuda build/tests/test_cuda_compute | tail -n 1 | cut -f1)
    total=$((tree + gpu + kept))
fi
echo
du -sh .gpu build build/cuda
echo "working tree (tracked + untracked, not ignored) $(mib "$tree") MiB;" \
     "with the carry paths $(mib "$total") MiB (device tool limit: $LIMIT_MB MiB)"
[ $total -lt $((LIMIT_MB * 1048576)) ] || die "too big for the device tool: clean build/ or the working tree"
echo "carry: $carry"
echo "device command (one line; docs/GPU.md):"
echo '. .gpu/env.sh; { gpu_info; gpu_mpi_probe; } >"$OUT/env.txt" 2>&1;' \
     'GPU_CHECK_OUT="$OUT/gpu" sh harness/scripts/gpu_check.sh build/cuda/ddlbench >"$OUT/gpu_check.txt" 2>&1' 
[ $build = 0 ] || echo "note: build/ now holds x86-64-v3 objects; \`make -B\` makes a -march=native build again"
