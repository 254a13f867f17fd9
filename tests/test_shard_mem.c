/* test_shard_mem.c — per-rank memory under sharding (harness/train/shard_mem.c) against the ZeRO
 * paper's Figure 1 (Ψ = 7.5B parameters, Nd = 64, mixed-precision Adam, K = 12): 120 GB for the
 * baseline, 31.4 GB with the optimizer state sharded, 16.6 GB with the gradients too, 1.9 GB with
 * the parameters too (GB = 1e9 bytes, as the figure's 16Ψ = 120 GB says); the state bytes of each
 * optimizer; the shard padding; bad arguments. */
#include "shard_mem.h"
#include "test.h"

#include <math.h>

int main(void)
{
    static const double zero[SHARD_MODES] = { 120.0, 31.4, 16.6, 1.9 }; /* ZeRO Figure 1, GB per device */
    static const double exact[SHARD_MODES] = { 16 * 7.5, 4 * 7.5 + 12 * 7.5 / 64, 2 * 7.5 + 14 * 7.5 / 64,
                                               16 * 7.5 / 64 };
    shard_bytes s;
    for (int mode = 0; mode < SHARD_MODES; mode++) {
        CHECK(shard_mem(7500000000LL, 0, mode, OPTIM_ADAM, PREC_MIXED, 64, &s) == 0, "shard_mem %d", mode);
        double gb = s.total / 1e9;
        CHECK(fabs(gb - exact[mode]) < 1e-9 && fabs(gb - zero[mode]) < 0.05, "%s: %.4f GB, ZeRO Figure 1 says %.1f",
              shard_mode_name(mode), gb, zero[mode]);
    }
    CHECK(optim_state_bytes(OPTIM_ADAM, PREC_MIXED) == 12 && optim_state_bytes(OPTIM_LAMB, PREC_MIXED) == 12 &&
              optim_state_bytes(OPTIM_SGD, PREC_MIXED) == 8 && optim_state_bytes(OPTIM_ADAM, PREC_FP32) == 8 &&
              optim_state_bytes(OPTIM_SGD, PREC_FP32) == 4,
          "state bytes per parameter");
    /* 10 parameters over 4 ranks: shards of 3 (padded), fp32 SGD */
    CHECK(shard_mem(10, 6, SHARD_FULL, OPTIM_SGD, PREC_FP32, 4, &s) == 0 && s.params == 12 && s.grads == 12 &&
              s.state == 12 && s.total == 36 && s.gathered == 24,
          "padded shards: %g %g %g, gathered %g", s.params, s.grads, s.state, s.gathered);
    CHECK(shard_mem(10, 6, SHARD_GRADIENTS, OPTIM_SGD, PREC_FP32, 4, &s) == 0 && s.params == 40 && s.grads == 12 &&
              s.gathered == 0,
          "gradients: params whole");
    CHECK(shard_mem(10, 6, SHARD_NONE, OPTIM_SGD, PREC_FP32, 0, &s) == -1 &&
              shard_mem(10, 6, SHARD_MODES, OPTIM_SGD, PREC_FP32, 2, &s) == -1,
          "bad group or mode");
    return TEST_REPORT();
}
