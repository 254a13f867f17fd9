#!/usr/bin/python3
"""check.py — an unmodified mpi4py + numpy program, run by tests/pmpi.sh with and without
build/libddl_mpi.so preloaded (Debian's /usr/bin/python3 with python3-mpi4py and python3-numpy).

  check.py run OUTDIR THRESHOLD   (under mpirun) comm.Allreduce, Reduce_scatter_block and Allgather
        over sizes (0, 1, small, large), int32/int64/float32/float64, SUM/MAX/MIN and a user op,
        in place and not, on COMM_WORLD, a split and a dup. Each rank saves its results to
        OUTDIR/rankR.npz; results every rank must hold alike are compared bitwise across ranks; comm
        rank 0 prints "expect NAME allreduce=A reduce_scatter_block=B allgather=C": the calls
        libddl must take with THRESHOLD bytes (tests/pmpi.sh matches them with the library's
        DDL_MPI_VERBOSE lines, so a run where nothing was routed fails).
  check.py compare DIR_A DIR_B    integers and MAX/MIN/gathers equal exactly; float sums within the
        reduction-order tolerance of their type.
"""
import sys

try:
    import numpy as np
    import mpi4py
    # mpi4py asks MPI_THREAD_MULTIPLE by default, under which the library passes everything to MPI
    mpi4py.rc.thread_level = "serialized"
    from mpi4py import MPI
except ImportError as err:
    print(f"check.py: {err}: /usr/bin/python3 needs python3-mpi4py and python3-numpy "
          "(apt-get install python3-mpi4py python3-numpy)")
    sys.exit(3)

DTYPES = {"int32": (np.int32, MPI.INT), "int64": (np.int64, MPI.LONG),
          "float32": (np.float32, MPI.FLOAT), "float64": (np.float64, MPI.DOUBLE)}
REDUCED = ("int32", "float32", "float64")   # the types libddl reduces (int64 it only gathers)
SIZES = (0, 1, 100, 40000)                  # elements per rank's block: 40000 is above 64 KiB


def user_op(np_type):
    def add(inbuf, outbuf, datatype):
        out = np.frombuffer(outbuf, dtype=np_type)
        out += np.frombuffer(inbuf, dtype=np_type)
    return MPI.Op.Create(add, commute=True)


def data(rng, np_type, n):
    if np.issubdtype(np_type, np.integer):
        return rng.integers(-1000, 1000, size=n).astype(np_type)
    return rng.standard_normal(n).astype(np_type)


class Case:
    def __init__(self, comm, name, threshold, out):
        self.comm, self.name, self.threshold, self.out = comm, name, threshold, out
        self.p, self.rank = comm.Get_size(), comm.Get_rank()
        self.expect = {"allreduce": 0, "reduce_scatter_block": 0, "allgather": 0}
        self.failed = 0

    def routed(self, coll, dtype, op, nbytes):
        if nbytes == 0 or nbytes < self.threshold:
            return
        if coll != "allgather" and (dtype not in REDUCED or op == "user"):
            return
        self.expect[coll] += 1

    def same_everywhere(self, key, arr):
        mine = arr.tobytes()
        if any(other != mine for other in self.comm.allgather(mine)):
            self.failed += 1
            print(f"FAIL {key}: ranks hold different bits", flush=True)

    def reductions(self, rng, ops):
        for dname, (np_type, _) in DTYPES.items():
            es = np.dtype(np_type).itemsize
            for oname, op in ops[dname].items():
                for n in SIZES:
                    for place in ("out", "in"):
                        key = f"{self.name}/allreduce/{dname}/{oname}/{n}/{place}"
                        x = data(rng, np_type, n)
                        if place == "in":
                            res = x.copy()
                            self.comm.Allreduce(MPI.IN_PLACE, res, op=op)
                        else:
                            res = np.empty_like(x)
                            self.comm.Allreduce(x, res, op=op)
                        self.routed("allreduce", dname, oname, n * es)
                        self.out[key] = res
                        self.same_everywhere(key, res)
                        key = f"{self.name}/reduce_scatter_block/{dname}/{oname}/{n}/{place}"
                        x = data(rng, np_type, self.p * n)
                        if place == "in":
                            buf = x.copy()
                            self.comm.Reduce_scatter_block(MPI.IN_PLACE, buf, op=op)
                            res = buf[:n]
                        else:
                            res = np.empty(n, dtype=np_type)
                            self.comm.Reduce_scatter_block(x, res, op=op)
                        self.routed("reduce_scatter_block", dname, oname, self.p * n * es)
                        self.out[key] = res

    def gathers(self, rng):
        for dname, (np_type, _) in DTYPES.items():
            es = np.dtype(np_type).itemsize
            for n in SIZES:
                for place in ("out", "in"):
                    key = f"{self.name}/allgather/{dname}/-/{n}/{place}"
                    x = data(rng, np_type, n)
                    res = np.zeros(self.p * n, dtype=np_type)
                    if place == "in":
                        res[self.rank * n:(self.rank + 1) * n] = x
                        self.comm.Allgather(MPI.IN_PLACE, res)
                    else:
                        self.comm.Allgather(x, res)
                    self.routed("allgather", dname, "-", self.p * n * es)
                    self.out[key] = res
                    self.same_everywhere(key, res)

    def report(self):
        if self.rank == 0:
            e = self.expect
            print(f"expect {self.comm.Get_name()} allreduce={e['allreduce']} "
                  f"reduce_scatter_block={e['reduce_scatter_block']} allgather={e['allgather']}", flush=True)


def run(outdir, threshold):
    world = MPI.COMM_WORLD
    rank = world.Get_rank()
    split = world.Split(rank % 2, rank)
    split.Set_name(f"split{rank % 2}")
    dup = world.Dup()
    dup.Set_name("dup")
    ops = {d: {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "user": user_op(t)}
           for d, (t, _) in DTYPES.items()}
    out, failed = {}, 0
    for comm, name in ((world, "world"), (split, "split"), (dup, "dup")):
        case = Case(comm, name, threshold, out)
        # the same stream on every rank of a comm would hide misplaced blocks: seed by rank
        rng = np.random.default_rng(1000 * rank + len(name))
        case.reductions(rng, ops)
        case.gathers(rng)
        case.report()
        failed += case.failed
    for d in ops.values():
        d["user"].Free()
    split.Free()
    dup.Free()
    np.savez(f"{outdir}/rank{rank}.npz", **{k.replace("/", "|"): v for k, v in out.items()})
    failed = world.allreduce(failed)
    if rank == 0:
        print(f"run: {len(out)} results per rank, {failed} failed", flush=True)
    return 1 if failed else 0


def close(key, a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    coll, dname, op = key.split("|")[1:4]
    if np.issubdtype(a.dtype, np.integer) or coll == "allgather" or op in ("max", "min"):
        return a.tobytes() == b.tobytes()
    # two summation orders of p terms of size |s| differ by at most about p·eps·|s| each
    eps = np.finfo(a.dtype).eps
    return bool(np.allclose(a, b, rtol=8 * eps, atol=8 * eps * max(1.0, float(np.abs(a).max(initial=0)))))


def compare(dir_a, dir_b):
    import glob
    import os
    names = sorted(os.path.basename(f) for f in glob.glob(f"{dir_a}/rank*.npz"))
    checked, bad = 0, 0
    for name in names:
        a, b = np.load(f"{dir_a}/{name}"), np.load(f"{dir_b}/{name}")
        if sorted(a.files) != sorted(b.files):
            print(f"FAIL {name}: different result sets")
            bad += 1
            continue
        for key in a.files:
            checked += 1
            if not close(key, a[key], b[key]):
                bad += 1
                print(f"FAIL {name} {key.replace('|', '/')}: results differ")
    print(f"compare: {len(names)} ranks, {checked} results, {bad} differ")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2], int(sys.argv[3])))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    print("usage: check.py run OUTDIR THRESHOLD | check.py compare DIR_A DIR_B", file=sys.stderr)
    sys.exit(2)
