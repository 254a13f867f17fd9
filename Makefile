# ddlbench — one non-recursive Makefile. `make help` lists targets and variables.
MPICC   ?= mpicc
ifeq ($(origin CC),default)
CC := $(MPICC)
endif
MPIRUN  ?= mpirun
BUILD   ?= build
ARCH_FLAGS ?= -march=native
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c11 -Wall -Wextra $(ARCH_FLAGS) -D_POSIX_C_SOURCE=200809L -MMD -MP -fvisibility=hidden
OBJCOPY ?= objcopy
SIM_BUILD ?= $(BUILD)/sim
CUDA_BUILD := $(BUILD)/cuda
LDLIBS  += -lm -lpthread
BLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
BLAS_LIBS   := $(shell pkg-config --libs openblas 2>/dev/null || echo -lopenblas)

ifeq ($(SANITIZE),1)
BUILD   := $(BUILD)/san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

# ---- Sources, by flavour ---------------------------------------------------------------------------
# Every file is named once here; nothing is globbed, so no file is dropped or picked up by accident.
# Three flavours compile the same sources and differ only in the backend files listed per flavour:
#   host  mpicc, BLAS, CPU kernels                     -> $(BUILD)/ddlbench, $(BUILD)/libddl.a
#   cuda  the host objects with the CUDA backends       -> $(BUILD)/cuda/ddlbench, $(BUILD)/cuda/libddl.a
#   sim   smpicc -DDDL_SIM, injected compute (SimGrid)  -> $(BUILD)/sim/ddlbench-sim
# libddl: the collectives (collectives/) and the kernels they call (LIBK_*).
LIB_COMMON := collectives/allreduce_auto.c collectives/allreduce_ddl.c collectives/allreduce_rhd.c \
              collectives/allreduce_ring.c collectives/context.c collectives/cost.c collectives/device.c \
              collectives/errors.c collectives/exchange.c collectives/grid.c collectives/location.c \
              collectives/registry.c \
              collectives/topology.c
LIB_REAL   := collectives/allreduce_mpi.c
LIB_SIMB   := collectives/allreduce_mpi_sim.c
LIBK_HOST  := kernels/reduce.c kernels/mem_host.c kernels/devmem_none.c
LIBK_CUDA  := kernels/reduce.c kernels/mem_host.c                    # + kernels/devmem_cuda.cu reduce_cuda.cu
LIBK_SIM   := kernels/reduce_sim.c kernels/mem_sim.c kernels/devmem_none.c
# The other kernels: GEMM, SGD, the compute clock, the memory-bound layer kernels (layers.h: host
# layers.c + im2col.c, device layers_cuda.cu + layers_cuda_window.cu, simulated layers_sim.c;
# layers_nodev.c = no device).
KERN_HOST  := kernels/gemm_blas.c kernels/compute_host.c kernels/sgd.c kernels/sim_rates.c \
              kernels/layers.c kernels/im2col.c kernels/layers_nodev.c
KERN_CUDA  := kernels/sgd.c kernels/sim_rates.c kernels/layers.c kernels/im2col.c # + gemm_cublas.cu compute_cuda.cu layers_cuda.cu
KERN_SIM   := kernels/gemm_sim.c kernels/compute_sim.c kernels/sgd_sim.c kernels/sim_rates.c \
              kernels/layers_sim.c kernels/layers_nodev.c
CUDA_CU    := kernels/devmem_cuda.cu kernels/reduce_cuda.cu kernels/gemm_cublas.cu kernels/compute_cuda.cu \
              kernels/layers_cuda.cu kernels/layers_cuda_window.cu
CUDA_LIBCU := kernels/devmem_cuda.cu kernels/reduce_cuda.cu
# The harness, by role (harness/DESIGN in docs/DESIGN.md): cli/ front-ends, common/ services, bench/
# the collective benchmark, train/ the training step, sim/ machines and the cost model.
HARN_COMMON := harness/cli/cli_allreduce.c harness/cli/cli_calibrate.c harness/cli/cli_calibrate_net.c harness/cli/cli_cost.c \
               harness/cli/cli_gpucheck.c harness/cli/cli_gpucheck_step.c harness/cli/cli_kernels.c harness/cli/cli_list.c \
               harness/cli/cli_model.c harness/cli/cli_model_train.c harness/cli/cli_platform.c harness/cli/cli_study.c harness/cli/cli_train.c \
               harness/cli/cli_train_run.c \
               harness/common/device_pick.c harness/common/guard.c harness/common/meta.c harness/common/parse.c \
               harness/bench/bench_allreduce.c harness/bench/bench_data.c harness/bench/bench_stats.c \
               harness/train/bucket.c harness/train/model_resnet.c harness/train/model_bytes.c \
               harness/train/step_full.c harness/train/step_mem.c harness/train/trainer.c \
               harness/sim/cost_hook.c harness/sim/model_cost.c harness/sim/model_step.c harness/sim/platform.c harness/sim/platform_file.c \
               harness/sim/fit.c harness/sim/study.c harness/sim/profile.c
HARN_REAL  := harness/train/engine_thread.c harness/common/watchdog.c harness/common/counters.c
HARN_SIMB  := harness/train/engine_sim.c harness/common/watchdog_sim.c harness/common/counters_sim.c
MAIN_SRC   := harness/cli/main.c
HARN_DIRS  := harness/cli harness/common harness/bench harness/train harness/sim
# Tests: one file per module. test_grid and test_partition test library internals and link its raw
# objects; the others link the sealed libddl.a. test_cuda and test_link_cuda: CUDA section.
TEST_SRC   := tests/test_allreduce.c tests/test_api.c tests/test_bucket.c tests/test_cost.c tests/test_engine.c \
              tests/test_gemm.c tests/test_grid.c tests/test_meta.c tests/test_model.c tests/test_model_step.c tests/test_parse.c \
              tests/test_partition.c tests/test_platform.c tests/test_platform_file.c tests/test_fit.c tests/test_jitter.c \
              tests/test_profile.c tests/test_reduce.c \
              tests/test_link.c tests/test_compute.c tests/test_step_full.c
TEST_INTERNAL := test_grid test_partition

# Per-directory include paths: harness/ sees the public ddl.h and the kernel headers, never the
# collectives' private coll.h and partition.h; kernels/ see only kernels/.
COLL_INC  := -Iinclude -Icollectives -Ikernels
KERN_INC  := -Ikernels
HARN_INC  := -Iinclude -Ikernels $(addprefix -I,$(HARN_DIRS))
TEST_INC  := $(HARN_INC) -Icollectives -Itests
DIR_INC    = $(HARN_INC)
$(BUILD)/collectives/%.o $(SIM_BUILD)/collectives/%.o: DIR_INC = $(COLL_INC)
$(BUILD)/kernels/%.o $(SIM_BUILD)/kernels/%.o: DIR_INC = $(KERN_INC)
$(BUILD)/tests/%.o: DIR_INC = $(TEST_INC)
# The layer kernels: `omp simd` reductions (no OpenMP runtime) and GCC's dynamic vector cost model,
# so loops of unknown length vectorise at -O2 too (GCC 12's default -O2 model leaves them scalar).
KERN_VEC  := -fopenmp-simd -fvect-cost-model=dynamic
$(BUILD)/kernels/layers.o $(BUILD)/kernels/im2col.o: CFLAGS += $(KERN_VEC)

# Provenance and hardware counters (harness/common/meta.c, counters.c; see the "Results" section)
DDL_COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
PAPI_CFLAGS := $(shell pkg-config --cflags papi 2>/dev/null)
PAPI_LIBS   := $(shell pkg-config --libs papi 2>/dev/null || { test -f /usr/include/papi.h && echo -lpapi; })
ifneq ($(strip $(PAPI_LIBS)),)
LDLIBS      += $(PAPI_LIBS)
endif

obj        = $(patsubst %.c,$(BUILD)/%.o,$(1))
LIB_OBJ   := $(call obj,$(LIB_COMMON) $(LIB_REAL) $(LIBK_HOST))
LIBK_OBJ  := $(call obj,$(LIBK_HOST))
KERN_OBJ  := $(call obj,$(KERN_HOST))
HARN_OBJ  := $(call obj,$(HARN_COMMON) $(HARN_REAL))
MAIN_OBJ  := $(call obj,$(MAIN_SRC))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

LIBDDL    := $(BUILD)/libddl.a
EXE       := $(BUILD)/ddlbench

.PHONY: all test clean help
all: $(EXE) $(LIBDDL) $(TEST_BIN)

# -fvisibility=hidden everywhere; ddl.h marks the API (DDL_API) visible. The library is one partial
# link of its objects with every hidden symbol made local (objcopy --localize-hidden), so libddl.a
# exports ddl_* and nothing else (tests/lib_symbols.sh checks it with nm).
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DIR_INC) $(BLAS_CFLAGS) -c $< -o $@

define seal
	@mkdir -p $(dir $@)
	$(LD) -r -o $@.o $^
	$(OBJCOPY) --localize-hidden $@.o
	rm -f $@ && $(AR) rcs $@ $@.o && rm -f $@.o
endef
$(LIBDDL): $(LIB_OBJ)
	$(seal)

# The sealed library hides its kernels: the harness links its own copy of them (LIBK_OBJ).
EXE_LIBK := $(LIBK_OBJ)
$(EXE): $(MAIN_OBJ) $(HARN_OBJ) $(KERN_OBJ) $(EXE_LIBK) $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(HARN_OBJ) $(KERN_OBJ) $(EXE_LIBK) $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)
$(addprefix $(BUILD)/tests/,$(TEST_INTERNAL)): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
# test_link: the sealed library alone, as a framework would link it (no harness, no kernels).
$(BUILD)/tests/test_link: $(BUILD)/tests/test_link.o $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread

test: all
	MPIRUN="$(MPIRUN)" BUILD="$(BUILD)" sh tests/run.sh

clean:
	rm -rf $(BUILD)

help:
	@echo "ddlbench — allreduce algorithms and synthetic data-parallel training on MPI"
	@echo
	@echo "Targets:"
	@echo "  all (default)  build $(EXE), $(LIBDDL) (API: include/ddl.h; exports ddl_* only) and the tests"
	@echo "  test           build and run every test (unit + MPI); ends with 'N passed, N failed'"
	@echo "  faults         kill and hang ranks on purpose (tests/faults.sh): non-zero exit in time, no partial CSV, sweep --resume"
	@echo "  fuzz           libFuzzer (clang) over the text parsers for FUZZ_SECONDS=$(FUZZ_SECONDS) s (fuzz/)"
	@echo "  memcheck       2-rank train + allreduce under valgrind; errors or definite leaks in our code fail"
	@echo "  bench          allreduce sweep 1K-256M at 2 and 4 ranks (all algorithms + Open MPI ring/Rabenseifner)"
	@echo "                 and the reduction-kernel benchmark -> results/bench/ (docs/BENCHMARKS.md)"
	@echo "  fidelity       calibrate (p2p + kernels), then allreduce 1K-64M and training steps real vs simulated"
	@echo "                 at 2 and 4 ranks -> results/fidelity/ (ends: fidelity: median |error| X%, max Y% ...)"
	@echo "  study          the 2017 study at 256 GPUs with bands over its unknowns (overlap, IB ports), where"
	@echo "                 95%/88%/89% fall; simulator spot checks -> results/study/report.md"
	@echo "  jitter         efficiency (median, min-max) against train --jitter at 256 simulated GPUs -> results/jitter/"
	@echo "  run            the scaling study: ResNet-50 (batch 32) and ResNet-101-22K (batch 20) on 1 GPU and"
	@echo "                 1..NODES nodes, every algorithm -> results/<run-id>/scaling.csv (results/latest)"
	@echo "  plots          charts of a run (RUN=$(RUN)): efficiency, images/s, busbw, step breakdown"
	@echo "                 -> RUN/*.png and *.svg (gnuplot; plots/plots.sh); OVERLAY=dir draws a second run on them"
	@echo "                 (e.g. BACKEND=model rows, dashed and open, over a simulated run)"
	@echo "  report         RUN/report.md: efficiency tables beside the study's, where the time goes"
	@echo "  sim            build $(SIM_EXE) with smpicc (SimGrid SMPI simulation, -DDDL_SIM)"
	@echo "  registry-extra test build with one more algorithm (tests/extra/allreduce_star.c) in $(BUILD)/extra/"
	@echo "  gpu-check      on a machine with an NVIDIA GPU: cuBLAS, reduction and layer-kernel checks and rates,"
	@echo "                 ResNet-50 steps (batch 256 beside PyTorch), device-buffer allreduce, a device profile"
	@echo "                 (docs/GPU.md); SKIP line without one"
	@echo "  sim-repro      why SimGrid's parallel contexts (contexts/nthreads) stay off: the reproducer (tests/sim/)"
	@echo "  check-mpich    build the library and tests with MPICH (mpicc.mpich) and run them at 2 ranks"
	@echo "  clean          remove $(BUILD)/"
	@echo "  help           this text"
	@echo
	@echo "Variables:"
	@echo "  MPICC=$(MPICC)   MPI compiler wrapper (MPICH: MPICC=mpicc.mpich MPIRUN=mpirun.mpich BUILD=build/mpich)"
	@echo "  MPIRUN=$(MPIRUN)  MPI launcher used by the tests"
	@echo "  BUILD=$(BUILD)   output folder"
	@echo "  SANITIZE=1      AddressSanitizer + UndefinedBehaviorSanitizer build (in BUILD/san)"
	@echo "  ARCH_FLAGS=$(ARCH_FLAGS)  target flags for the vectorised kernels"
	@echo "  CUDA=0          never build the CUDA parts (default: built into $(CUDA_BUILD)/ when nvcc is found)"
	@echo "  NVCC=$(NVCC) CUDA_HOME=$(CUDA_HOME) CUDA_ARCH=\"$(CUDA_ARCH)\""
	@echo "  run: NODES=$(NODES) GPUS_PER_NODE=$(GPUS_PER_NODE) BACKEND=$(BACKEND) (sim|mpi|model) PLATFORM=$(PLATFORM) PROFILE=$(PROFILE)"
	@echo "       ALGOS=$(ALGOS) MODELS=$(MODELS) BUCKET_MB=$(BUCKET_MB) TRAIN_ARGS=\"$(TRAIN_ARGS)\" OUT=dir"
	@echo "       JOBS=n (launches at once; default: the core count)  FORCE=1 (run a sweep estimated at over an hour)"
	@echo "       SWEEP_FLAGS=\"--resume -q\"   (see sh harness/scripts/sweep.sh --help)"
	@echo "  fidelity: FIDELITY_FLAGS=\"--ranks 2 -e 4M --repeats 1\"   (see sh harness/scripts/fidelity.sh --help)"

# ---- Simulation build (SimGrid SMPI) -------------------------------------------------------------
# `make sim` compiles the sim flavour's sources (the lists above) with smpicc and -DDDL_SIM into
# $(SIM_BUILD). smpicc accepts -MMD; -march is left out because no real kernel is compiled here. Run
# it with smpirun (see tests/sim_model.sh).
SMPICC    ?= smpicc
SIM_CFLAGS = $(OPT) -g -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -DDDL_SIM -MMD -MP
SIM_SRC   := $(LIB_COMMON) $(LIB_SIMB) $(LIBK_SIM) $(KERN_SIM) $(HARN_COMMON) $(HARN_SIMB) $(MAIN_SRC)
SIM_OBJ   := $(SIM_SRC:%.c=$(SIM_BUILD)/%.o)
SIM_EXE   := $(SIM_BUILD)/ddlbench-sim

.PHONY: sim
sim: $(SIM_EXE)

$(SIM_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) $(DIR_INC) -c $< -o $@

$(SIM_EXE): $(SIM_OBJ)
	$(SMPICC) -o $@ $^ -lm -lpthread

# tests/sim/parallel_contexts.c: a standalone SMPI reproducer, built and run by its script (not part of
# `make test`: a SimGrid race, nondeterministic) — why simlaunch.sh keeps contexts/nthreads at 1.
SIM_REPRO := tests/sim/parallel_contexts.c
.PHONY: sim-repro
sim-repro: $(EXE) $(SIM_REPRO)
	sh tests/sim/parallel_contexts.sh

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- Registry test build (tests/registry_extra.sh) ------------------------------------------------
# Proves that an algorithm is one file plus one row: collectives/registry.c compiled again with
# -DDDL_TEST_EXTRA_ALGO lists tests/extra/allreduce_star.c's row. That registry and the star replace
# registry.o in $(EXTRA_BUILD)/libddl.a (sealed like $(LIBDDL)); ddlbench and test_allreduce are
# relinked against it there. $(LIBDDL) and $(EXE) never contain the star. Self-contained: needs only
# LIB_OBJ, MAIN_OBJ, HARN_OBJ, KERN_OBJ, EXE_LIBK, COLL_INC, seal, BLAS_LIBS and LDLIBS from above.
EXTRA_BUILD := $(BUILD)/extra
EXTRA_OBJ   := $(EXTRA_BUILD)/collectives/registry.o $(EXTRA_BUILD)/tests/extra/allreduce_star.o
EXTRA_LIB   := $(EXTRA_BUILD)/libddl.a
EXTRA_BINS  := $(EXTRA_BUILD)/ddlbench $(EXTRA_BUILD)/tests/test_allreduce

.PHONY: registry-extra
registry-extra: $(EXTRA_BINS)
test: registry-extra

$(EXTRA_BUILD)/collectives/registry.o: collectives/registry.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(COLL_INC) -DDDL_TEST_EXTRA_ALGO -c $< -o $@

$(EXTRA_BUILD)/tests/extra/allreduce_star.o: tests/extra/allreduce_star.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(COLL_INC) -c $< -o $@

$(EXTRA_LIB): $(filter-out $(BUILD)/collectives/registry.o,$(LIB_OBJ)) $(EXTRA_OBJ)
	$(seal)

$(EXTRA_BUILD)/ddlbench: $(MAIN_OBJ) $(HARN_OBJ) $(KERN_OBJ) $(EXE_LIBK) $(EXTRA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)

$(EXTRA_BUILD)/tests/test_allreduce: $(BUILD)/tests/test_allreduce.o $(HARN_OBJ) $(KERN_OBJ) $(EXE_LIBK) $(EXTRA_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)

# ---- The main job: the scaling study (harness/scripts/sweep.sh) -----------------------------------------
# Outside a batch allocation it simulates (SMPI) NODES nodes of GPUS_PER_NODE GPUs on PLATFORM with
# PROFILE's compute rates; inside one (SLURM_JOB_ID, LSB_JOBID, PBS_JOBID) it runs the real build.
NODES         ?= 2
GPUS_PER_NODE ?= 4
BACKEND       ?= $(if $(SLURM_JOB_ID)$(LSB_JOBID)$(PBS_JOBID),mpi,sim)
PLATFORM      ?= minsky
PROFILE       ?= p100
ALGOS         ?= mpi,ring,rhd,ddl,auto
BUCKET_MB     ?= 25
ifeq ($(BACKEND),mpi)
MODELS        ?= resnet50:8
TRAIN_ARGS    ?= --image-size 64 --steps 5 --warmup 1
RUN_DEPS      := $(EXE)
else ifeq ($(BACKEND),model)
MODELS        ?= resnet50:32,resnet101-22k:20
TRAIN_ARGS    ?=
RUN_DEPS      := $(EXE)
else
# One timed step, no warm-up: the simulation is deterministic and its first step equals the second
# (tests/sim_speed.sh checks it), so a warm-up step would only double the wall time.
MODELS        ?= resnet50:32,resnet101-22k:20
TRAIN_ARGS    ?= --steps 1 --warmup 0
RUN_DEPS      := $(EXE) $(SIM_EXE)
endif
RUN_DEPS      := $(if $(findstring --dry-run,$(SWEEP_FLAGS)),,$(RUN_DEPS))  # a dry run builds nothing
# Bad values stop `make run` with one line before anything is built (sweep.sh checks the rest).
ifneq ($(filter run,$(MAKECMDGOALS)),)
ifeq ($(shell echo '$(NODES)' | grep -Ex '[1-9][0-9]*'),)
$(error NODES: expected a positive integer, got "$(NODES)")
endif
ifeq ($(shell echo '$(GPUS_PER_NODE)' | grep -Ex '[1-9][0-9]*'),)
$(error GPUS_PER_NODE: expected a positive integer, got "$(GPUS_PER_NODE)")
endif
ifeq ($(shell echo '$(BACKEND)' | grep -Ex 'sim|mpi|model'),)
$(error BACKEND: expected sim, mpi or model, got "$(BACKEND)")
endif
endif
.PHONY: run
run: $(RUN_DEPS)
	sh harness/scripts/sweep.sh --backend $(BACKEND) --nodes $(NODES) --gpus-per-node $(GPUS_PER_NODE) \
	    --models $(MODELS) --algos $(ALGOS) --bucket-mb $(BUCKET_MB) --platform $(PLATFORM) \
	    --profile $(PROFILE) --train-args "$(TRAIN_ARGS)" --build $(BUILD) $(if $(OUT),--out $(OUT)) \
	    $(if $(JOBS),--jobs $(JOBS)) $(if $(filter 1,$(FORCE)),--force) $(SWEEP_FLAGS)
	$(if $(findstring --dry-run,$(SWEEP_FLAGS)),,sh harness/scripts/report.sh $(RUN))
	$(if $(findstring --dry-run,$(SWEEP_FLAGS)),,sh plots/plots.sh $(RUN))

# ---- MPICH: the library and tests also build and run with MPICH (CI runs this) ------------------
# MPICH's progress engine spins, so on 2 shared cores only a few ranks are practical here.
MPICH_BUILD ?= $(BUILD)/mpich
.PHONY: check-mpich
check-mpich:
	$(MAKE) --no-print-directory MPICC=mpicc.mpich BUILD=$(MPICH_BUILD) CUDA=0 $(MPICH_BUILD)/tests/test_allreduce $(MPICH_BUILD)/tests/test_api >/dev/null
	MPIRUN=mpirun.mpich sh harness/scripts/mpilaunch.sh 2 $(MPICH_BUILD)/tests/test_allreduce
	MPIRUN=mpirun.mpich sh harness/scripts/mpilaunch.sh 2 $(MPICH_BUILD)/tests/test_api

# ---- Benchmarks (docs/BENCHMARKS.md) ------------------------------------------------------------
# `make bench`: harness/scripts/bench.sh runs `ddlbench kernels` and the `ddlbench allreduce` sweeps and
# writes results/bench/allreduce.csv plus the ratio table against MPI_Allreduce.
.PHONY: bench
bench: $(EXE)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh harness/scripts/bench.sh

# `make fidelity`: calibrate this machine (p2p and kernel sweeps), then the allreduce (every algorithm,
# 1K..64M) and training steps real and simulated at 2 and 4 ranks -> results/fidelity/ (points.csv,
# fidelity.png, summary.txt; harness/scripts/fidelity.sh). FIDELITY_FLAGS e.g. "--ranks 2 -e 4M".
FIDELITY_FLAGS ?=
# `make study`: the 2017 study with bands (ddlbench study; simulator spot checks) -> results/study/.
# `make jitter`: efficiency against --jitter at 256 simulated GPUs -> results/jitter/.
.PHONY: study jitter
study: $(EXE) $(SIM_EXE)
	sh harness/scripts/study.sh --build $(BUILD)
jitter: $(EXE) $(SIM_EXE)
	sh harness/scripts/jitter.sh --build $(BUILD)
.PHONY: fidelity
fidelity: $(EXE) $(SIM_EXE)
	MPIRUN="$(MPIRUN)" sh harness/scripts/fidelity.sh --build $(BUILD) $(FIDELITY_FLAGS)

# ---- Results: provenance, counters, charts, report (results/README.md) --------------------------
# Every CSV starts with `# key: value` lines (harness/common/meta.c); the commit is fixed at build time.
# PAPI counters (harness/common/counters.c) are compiled in when pkg-config or /usr/include finds PAPI;
# the simulation build never counts. `make plots` draws a run's charts (plots/plots.sh, gnuplot) and
# harness/scripts/report.sh writes its report.md; `make run` does both at the end.
GIT_HEAD_FILES := $(wildcard .git/HEAD .git/$(shell git symbolic-ref -q HEAD 2>/dev/null))
$(BUILD)/harness/common/meta.o $(SIM_BUILD)/harness/common/meta.o: $(GIT_HEAD_FILES)
$(BUILD)/harness/common/meta.o: CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'
$(SIM_BUILD)/harness/common/meta.o: SIM_CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'
ifneq ($(strip $(PAPI_LIBS)),)
$(BUILD)/harness/common/counters.o: CFLAGS += -DDDL_HAVE_PAPI $(PAPI_CFLAGS)
endif

RUN ?= $(if $(OUT),$(OUT),results/latest)
.PHONY: plots report
plots:
	sh plots/plots.sh $(RUN) $(OVERLAY)
report:
	sh harness/scripts/report.sh $(RUN)

# ---- CUDA build (docs/GPU.md) -------------------------------------------------------------------
# When nvcc is found (on PATH, else $(CUDA_HOME)/bin) and CUDA is not 0, `make` also builds
# $(CUDA_BUILD)/ddlbench and $(BUILD)/tests/test_cuda: the same objects as the CPU build with the CUDA
# backends in place of their host twins (gemm_blas -> gemm_cublas, compute_host -> compute_cuda,
# devmem_none -> devmem_cuda + reduce_cuda). Without nvcc nothing here is built and the CPU build is
# unchanged. nvcc 13 targets sm_75 and newer, so P100 (sm_60) and V100 (sm_70) are not in the list.
CUDA      ?= 1
CUDA_HOME ?= /usr/local/cuda
ifeq ($(origin NVCC),undefined)
NVCC := $(if $(filter 0,$(CUDA)),,$(or $(shell command -v nvcc 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/nvcc)))
endif
CUDA_ARCH ?= -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
             -gencode=arch=compute_90,code=compute_90
CUDA_EXE   := $(CUDA_BUILD)/ddlbench
CUDA_LIB   := $(CUDA_BUILD)/libddl.a
CUDA_TEST  := $(BUILD)/tests/test_cuda $(BUILD)/tests/test_cuda_compute $(BUILD)/tests/test_link_cuda
ifneq ($(strip $(NVCC)),)
CUDA_LIBDIR := $(or $(wildcard $(dir $(NVCC))../lib64),$(CUDA_HOME)/lib64)
NVCC_FLAGS ?= $(OPT) -g -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-Wextra,-fvisibility=hidden -MMD -MP -Ikernels
CUDA_LIB_OBJ := $(call obj,$(LIB_COMMON) $(LIB_REAL) $(LIBK_CUDA)) $(CUDA_LIBCU:%.cu=$(CUDA_BUILD)/%.o)
CUDA_OBJ   := $(call obj,$(HARN_COMMON) $(HARN_REAL) $(KERN_CUDA)) $(filter-out $(CUDA_LIBCU:%.cu=$(CUDA_BUILD)/%.o),$(CUDA_CU:%.cu=$(CUDA_BUILD)/%.o)) \
              $(call obj,$(LIBK_CUDA)) $(CUDA_LIBCU:%.cu=$(CUDA_BUILD)/%.o)
CUDA_LIBS  := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcublas -lcudart -lstdc++
all: $(CUDA_EXE) $(CUDA_LIB) $(CUDA_TEST)

$(CUDA_BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

$(CUDA_LIB): $(CUDA_LIB_OBJ)
	$(seal)

$(CUDA_EXE): $(MAIN_OBJ) $(CUDA_OBJ) $(CUDA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS) $(CUDA_LIBS)

$(BUILD)/tests/test_cuda: $(BUILD)/tests/test_cuda.o $(CUDA_OBJ) $(CUDA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS) $(CUDA_LIBS)
# test_cuda_compute: the layer kernels on the device against the host ones (layers.c, im2col.c).
$(BUILD)/tests/test_cuda_compute: $(BUILD)/tests/test_cuda_compute.o $(CUDA_OBJ) $(CUDA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS) $(CUDA_LIBS)

# test_link_cuda: the CUDA libddl.a alone with the CUDA runtime, as a framework would link it.
$(BUILD)/tests/test_link_cuda: $(BUILD)/tests/test_link.o $(CUDA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread $(CUDA_LIBS)

.PHONY: gpu-check
gpu-check: $(CUDA_EXE) $(CUDA_TEST)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh harness/scripts/gpu_check.sh $(CUDA_EXE)
else
.PHONY: gpu-check
gpu-check:
	@echo "SKIP: no CUDA device (this build has no CUDA: nvcc not found on PATH or in CUDA_HOME=$(CUDA_HOME), or CUDA=0)"
endif

# ---- Reliability: fuzzing, memcheck, fault tests ---------------------------------------
# `make fuzz`: libFuzzer (clang) over the text parsers (fuzz/fuzz_parsers.c), FUZZ_SECONDS in total,
# starting from fuzz/corpus; a crash or a wrong accept stops it with the input in $(FUZZ_BUILD).
# `make memcheck`: a 2-rank `ddlbench train` and `ddlbench allreduce` under valgrind, our errors and
# definite leaks fatal (Open MPI's own noise suppressed). `make faults`: tests/faults.sh.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= $(BUILD)/fuzz
FUZZ_SRC     := fuzz/fuzz_parsers.c harness/common/parse.c harness/sim/profile.c harness/sim/platform.c \
                harness/sim/platform_file.c collectives/grid.c \
                collectives/errors.c
FUZZ_EXE     := $(FUZZ_BUILD)/fuzz_parsers
MPI_COMPILE  := $(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -compile_info 2>/dev/null | cut -d' ' -f2-)
MPI_LINK     := $(shell $(MPICC) --showme:link 2>/dev/null || $(MPICC) -link_info 2>/dev/null | cut -d' ' -f2-)
VALGRIND     ?= valgrind
MEMCHECK_SUPP := $(wildcard /usr/share/openmpi/openmpi-valgrind.supp)

.PHONY: fuzz memcheck faults
$(FUZZ_EXE): $(FUZZ_SRC) $(wildcard harness/*/*.h collectives/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -D_POSIX_C_SOURCE=200809L $(TEST_INC) $(MPI_COMPILE) $(FUZZ_SRC) -o $@ $(MPI_LINK) -lm

fuzz: $(FUZZ_EXE)
	@mkdir -p $(FUZZ_BUILD)/corpus
	@cd $(FUZZ_BUILD) && rm -f crash-* && ./fuzz_parsers -max_total_time=$(FUZZ_SECONDS) -max_len=512 \
	    -print_final_stats=1 corpus $(CURDIR)/fuzz/corpus >fuzz.log 2>&1; rc=$$?; \
	    grep -E '^(stat::number_of_executed_units|stat::new_units_added|SUMMARY|Done)' fuzz.log; \
	    if [ $$rc -ne 0 ]; then tail -n 30 fuzz.log; echo "fuzz: FAILED, input in $(FUZZ_BUILD)/crash-*"; exit 1; fi
	@echo "fuzz: $(FUZZ_SECONDS) s over parse_size/int/list, profile_parse, coll_grid/patterns_parse, platform bw/lat, platform files: nothing found"

# valgrind decodes no AVX-512: memcheck gets its own build for x86-64-v3 (AVX2) in $(BUILD)/vg
memcheck:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/vg ARCH_FLAGS=-march=x86-64-v3 CUDA=0 $(BUILD)/vg/ddlbench
	BUILD="$(BUILD)/vg" MPIRUN="$(MPIRUN)" VALGRIND="$(VALGRIND)" SUPP="$(MEMCHECK_SUPP)" sh tests/memcheck/memcheck.sh

faults: $(EXE) $(SIM_EXE)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh tests/faults.sh
