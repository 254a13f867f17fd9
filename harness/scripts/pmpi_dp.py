#!/usr/bin/python3
"""pmpi_dp.py — a data-parallel training loop as an mpi4py user writes it, nothing of ddlbench in it:
an MLP (784-512-512-10, ReLU, softmax cross-entropy) on synthetic data, numpy forward and backward
on each rank's own batch, the gradients (one contiguous float32 vector, as DDP's buckets) summed by
comm.Allreduce in place and averaged each step, then SGD. harness/scripts/pmpi_bench.sh runs it with
and without build/libddl_mpi.so preloaded.

  pmpi_dp.py [STEPS] [WARMUP]    rank 0 prints one line: median step and Allreduce times (ms), the
                                 gradient's size and the final loss (equal with and without the
                                 library, to float32 rounding)
"""
import sys
import time

import numpy as np
from mpi4py import MPI

SIZES = (784, 512, 512, 10)
BATCH = 64


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    comm = MPI.COMM_WORLD
    rank, p = comm.Get_rank(), comm.Get_size()
    init = np.random.default_rng(0)              # the same initial weights on every rank
    shapes = [(SIZES[i], SIZES[i + 1]) for i in range(len(SIZES) - 1)]
    n = sum(a * b + b for a, b in shapes)
    params, grads = np.empty(n, np.float32), np.empty(n, np.float32)
    weights, biases, gws, gbs, off = [], [], [], [], 0
    for a, b in shapes:                          # views into the two flat vectors
        weights.append(params[off:off + a * b].reshape(a, b)); gws.append(grads[off:off + a * b].reshape(a, b))
        off += a * b
        biases.append(params[off:off + b]); gbs.append(grads[off:off + b])
        off += b
    for w, b in zip(weights, biases):
        w[...] = init.standard_normal(w.shape).astype(np.float32) * np.float32(np.sqrt(2.0 / w.shape[0]))
        b[...] = 0
    data = np.random.default_rng(1 + rank)       # each rank its own shard
    centers = np.random.default_rng(99).standard_normal((SIZES[-1], SIZES[0])).astype(np.float32)
    step_t, comm_t, loss = [], [], 0.0
    for step in range(warmup + steps):
        labels = data.integers(0, SIZES[-1], BATCH)
        x = centers[labels] + data.standard_normal((BATCH, SIZES[0])).astype(np.float32)
        comm.Barrier()
        t0 = time.perf_counter()
        acts = [x]
        for i, (w, b) in enumerate(zip(weights, biases)):
            z = acts[-1] @ w + b
            acts.append(np.maximum(z, 0) if i < len(weights) - 1 else z)
        z = acts[-1] - acts[-1].max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        loss = float(-np.log(prob[np.arange(BATCH), labels] + 1e-12).mean())
        delta = prob
        delta[np.arange(BATCH), labels] -= 1
        delta /= BATCH
        for i in range(len(weights) - 1, -1, -1):
            np.matmul(acts[i].T, delta, out=gws[i])
            gbs[i][...] = delta.sum(axis=0)
            if i:
                delta = (delta @ weights[i].T) * (acts[i] > 0)
        t1 = time.perf_counter()
        comm.Allreduce(MPI.IN_PLACE, grads, op=MPI.SUM)
        t2 = time.perf_counter()
        params -= np.float32(0.05 / p) * grads
        t3 = time.perf_counter()
        if step >= warmup:
            step_t.append(t3 - t0)
            comm_t.append(t2 - t1)
    mine = np.array([np.median(step_t), np.median(comm_t)])
    worst = np.empty(2)
    comm.Allreduce(mine, worst, op=MPI.MAX)      # 16 bytes: below the threshold, MPI's own
    if rank == 0:
        print(f"dp: ranks {p} steps {steps} gradient {n} float32 ({n * 4 / 2**20:.2f} MiB) "
              f"step_ms {worst[0] * 1e3:.3f} allreduce_ms {worst[1] * 1e3:.3f} loss {loss:.6f}", flush=True)


if __name__ == "__main__":
    main()
