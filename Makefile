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
CFLAGS  += -std=c11 -Wall -Wextra $(ARCH_FLAGS) -D_POSIX_C_SOURCE=200809L -MMD -MP \
           -Icollectives -Ikernels -Iharness
LDLIBS  += -lm -lpthread
BLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
BLAS_LIBS   := $(shell pkg-config --libs openblas 2>/dev/null || echo -lopenblas)

ifeq ($(SANITIZE),1)
BUILD   := $(BUILD)/san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

# The simulation seam: files ending in _sim.c are the SMPI backends; REAL_ONLY are their real twins.
SIM_ONLY  := $(wildcard */*_sim.c)
REAL_ONLY := $(filter-out $(SIM_ONLY),$(wildcard kernels/gemm_*.c kernels/mem_*.c kernels/compute_*.c kernels/sgd.c kernels/reduce.c harness/comm_engine_*.c))

LIB_SRC   := $(filter-out $(SIM_ONLY),$(wildcard collectives/*.c) $(wildcard kernels/reduce*.c kernels/half*.c kernels/mem_*.c kernels/devmem_none.c))
KERN_SRC  := $(filter-out $(LIB_SRC) $(SIM_ONLY),$(wildcard kernels/*.c))
HARN_SRC  := $(filter-out harness/main.c $(SIM_ONLY),$(wildcard harness/*.c))

# Provenance and hardware counters (harness/meta.c, harness/counters.c; see the "Results" section)
DDL_COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
PAPI_CFLAGS := $(shell pkg-config --cflags papi 2>/dev/null)
PAPI_LIBS   := $(shell pkg-config --libs papi 2>/dev/null || { test -f /usr/include/papi.h && echo -lpapi; })
ifneq ($(strip $(PAPI_LIBS)),)
LDLIBS      += $(PAPI_LIBS)
endif
TEST_SRC  := $(filter-out tests/test_cuda.c,$(wildcard tests/test_*.c))  # test_cuda: CUDA section

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
KERN_OBJ  := $(KERN_SRC:%.c=$(BUILD)/%.o)
HARN_OBJ  := $(HARN_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

LIBDDL    := $(BUILD)/libddl.a
EXE       := $(BUILD)/ddlbench

.PHONY: all test clean help
all: $(EXE) $(LIBDDL) $(TEST_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BLAS_CFLAGS) -c $< -o $@

$(LIBDDL): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(EXE): $(BUILD)/harness/main.o $(HARN_OBJ) $(KERN_OBJ) $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(HARN_OBJ) $(KERN_OBJ) $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)

test: all
	MPIRUN="$(MPIRUN)" BUILD="$(BUILD)" sh tests/run.sh

clean:
	rm -rf $(BUILD)

help:
	@echo "ddlbench — allreduce algorithms and synthetic data-parallel training on MPI"
	@echo
	@echo "Targets:"
	@echo "  all (default)  build $(EXE), $(LIBDDL) (collectives API: collectives/ddl.h) and the tests"
	@echo "  test           build and run every test (unit + MPI); ends with 'N passed, N failed'"
	@echo "  faults         kill and hang ranks on purpose (tests/faults.sh): non-zero exit in time, no partial CSV, sweep --resume"
	@echo "  fuzz           libFuzzer (clang) over the text parsers for FUZZ_SECONDS=$(FUZZ_SECONDS) s (fuzz/)"
	@echo "  memcheck       2-rank train + allreduce under valgrind; errors or definite leaks in our code fail"
	@echo "  bench          allreduce sweep 1K-256M at 2 and 4 ranks (all algorithms + Open MPI ring/Rabenseifner)"
	@echo "                 and the reduction-kernel benchmark -> results/bench/ (docs/BENCHMARKS.md)"
	@echo "  run            the scaling study: ResNet-50 (batch 32) and ResNet-101-22K (batch 20) on 1 GPU and"
	@echo "                 1..NODES nodes, every algorithm -> results/<run-id>/scaling.csv (results/latest)"
	@echo "  plots          charts of a run (RUN=$(RUN)): efficiency, images/s, busbw, step breakdown"
	@echo "                 -> RUN/*.png and *.svg (gnuplot; plots/plots.sh)"
	@echo "  report         RUN/report.md: efficiency tables beside the study's, where the time goes"
	@echo "  sim            build $(SIM_EXE) with smpicc (SimGrid SMPI simulation, -DDDL_SIM)"
	@echo "  gpu-check      on a machine with an NVIDIA GPU: cuBLAS and reduction checks and rates, a ResNet-50"
	@echo "                 step, device-buffer allreduce, a device profile (docs/GPU.md); SKIP line without one"
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
	@echo "  run: NODES=$(NODES) GPUS_PER_NODE=$(GPUS_PER_NODE) BACKEND=$(BACKEND) (sim|mpi) PLATFORM=$(PLATFORM) PROFILE=$(PROFILE)"
	@echo "       ALGOS=$(ALGOS) MODELS=$(MODELS) BUCKET_MB=$(BUCKET_MB) TRAIN_ARGS=\"$(TRAIN_ARGS)\" OUT=dir"
	@echo "       SWEEP_FLAGS=\"--resume -q\"   (see sh harness/sweep.sh --help)"

# ---- Simulation build (SimGrid SMPI) -------------------------------------------------------------
# `make sim` compiles the same sources with smpicc and -DDDL_SIM into $(SIM_BUILD): every _sim.c
# backend (SIM_ONLY) replaces its real twins (REAL_ONLY, and X.c / X_*.c of
# every X_sim.c). smpicc accepts -MMD; -march is left out
# because no real kernel is compiled here. Run it with smpirun (see tests/sim_model.sh).
SMPICC    ?= smpicc
SIM_BUILD ?= $(BUILD)/sim
SIM_CFLAGS = $(OPT) -g -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -DDDL_SIM -MMD -MP \
             -Icollectives -Ikernels -Iharness
SIM_TWINS := $(foreach f,$(SIM_ONLY),$(wildcard $(f:_sim.c=.c) $(f:_sim.c=_*.c)))  # X.c, X_*.c of X_sim.c
SIM_SRC   := $(filter-out $(REAL_ONLY) $(SIM_TWINS),$(LIB_SRC) $(KERN_SRC) $(HARN_SRC)) $(SIM_ONLY)
SIM_OBJ   := $(SIM_SRC:%.c=$(SIM_BUILD)/%.o)
SIM_EXE   := $(SIM_BUILD)/ddlbench-sim

.PHONY: sim
sim: $(SIM_EXE)

$(SIM_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_EXE): $(SIM_BUILD)/harness/main.o $(SIM_OBJ)
	$(SMPICC) -o $@ $^ -lm -lpthread

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- The main job: the scaling study (harness/sweep.sh) -----------------------------------------
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
else
MODELS        ?= resnet50:32,resnet101-22k:20
TRAIN_ARGS    ?= --steps 1 --warmup 1
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
ifeq ($(shell echo '$(BACKEND)' | grep -Ex 'sim|mpi'),)
$(error BACKEND: expected sim or mpi, got "$(BACKEND)")
endif
endif
.PHONY: run
run: $(RUN_DEPS)
	sh harness/sweep.sh --backend $(BACKEND) --nodes $(NODES) --gpus-per-node $(GPUS_PER_NODE) \
	    --models $(MODELS) --algos $(ALGOS) --bucket-mb $(BUCKET_MB) --platform $(PLATFORM) \
	    --profile $(PROFILE) --train-args "$(TRAIN_ARGS)" --build $(BUILD) $(if $(OUT),--out $(OUT)) $(SWEEP_FLAGS)
	$(if $(findstring --dry-run,$(SWEEP_FLAGS)),,sh harness/report.sh $(RUN))
	$(if $(findstring --dry-run,$(SWEEP_FLAGS)),,sh plots/plots.sh $(RUN))

# ---- MPICH: the library and tests also build and run with MPICH (CI runs this) ------------------
# MPICH's progress engine spins, so on 2 shared cores only a few ranks are practical here.
MPICH_BUILD ?= $(BUILD)/mpich
.PHONY: check-mpich
check-mpich:
	$(MAKE) --no-print-directory MPICC=mpicc.mpich BUILD=$(MPICH_BUILD) CUDA=0 $(MPICH_BUILD)/tests/test_allreduce $(MPICH_BUILD)/tests/test_api >/dev/null
	MPIRUN=mpirun.mpich sh harness/mpilaunch.sh 2 $(MPICH_BUILD)/tests/test_allreduce
	MPIRUN=mpirun.mpich sh harness/mpilaunch.sh 2 $(MPICH_BUILD)/tests/test_api

# ---- Benchmarks (docs/BENCHMARKS.md) ------------------------------------------------------------
# `make bench`: harness/bench.sh runs `ddlbench kernels` and the `ddlbench allreduce` sweeps and
# writes results/bench/allreduce.csv plus the ratio table against MPI_Allreduce.
.PHONY: bench
bench: $(EXE)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh harness/bench.sh

# ---- Results: provenance, counters, charts, report (results/README.md) --------------------------
# Every CSV starts with `# key: value` lines (harness/meta.c); the commit is fixed at build time.
# PAPI counters (harness/counters.c) are compiled in when pkg-config or /usr/include finds PAPI;
# the simulation build never counts. `make plots` draws a run's charts (plots/plots.sh, gnuplot) and
# harness/report.sh writes its report.md; `make run` does both at the end.
GIT_HEAD_FILES := $(wildcard .git/HEAD .git/$(shell git symbolic-ref -q HEAD 2>/dev/null))
$(BUILD)/harness/meta.o $(SIM_BUILD)/harness/meta.o: $(GIT_HEAD_FILES)
$(BUILD)/harness/meta.o: CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'
$(SIM_BUILD)/harness/meta.o: SIM_CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'
ifneq ($(strip $(PAPI_LIBS)),)
$(BUILD)/harness/counters.o: CFLAGS += -DDDL_HAVE_PAPI $(PAPI_CFLAGS)
endif

RUN ?= $(if $(OUT),$(OUT),results/latest)
.PHONY: plots report
plots:
	sh plots/plots.sh $(RUN)
report:
	sh harness/report.sh $(RUN)

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
CUDA_BUILD := $(BUILD)/cuda
CUDA_EXE   := $(CUDA_BUILD)/ddlbench
CUDA_TEST  := $(BUILD)/tests/test_cuda
ifneq ($(strip $(NVCC)),)
CUDA_LIBDIR := $(or $(wildcard $(dir $(NVCC))../lib64),$(CUDA_HOME)/lib64)
NVCC_FLAGS ?= $(OPT) -g -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-Wextra -MMD -MP -Icollectives -Ikernels -Iharness
CUDA_OBJ   := $(patsubst %.cu,$(CUDA_BUILD)/%.o,$(wildcard kernels/*.cu))
CUDA_HOST  := $(filter-out $(BUILD)/kernels/gemm_blas.o $(BUILD)/kernels/compute_host.o \
                           $(BUILD)/kernels/devmem_none.o,$(HARN_OBJ) $(KERN_OBJ) $(LIB_OBJ))
CUDA_LIBS  := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcublas -lcudart -lstdc++
all: $(CUDA_EXE) $(CUDA_TEST)

$(CUDA_BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@

$(CUDA_EXE): $(BUILD)/harness/main.o $(CUDA_HOST) $(CUDA_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS) $(CUDA_LIBS)

$(CUDA_TEST): $(BUILD)/tests/test_cuda.o $(CUDA_HOST) $(CUDA_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS) $(CUDA_LIBS)

.PHONY: gpu-check
gpu-check: $(CUDA_EXE) $(CUDA_TEST)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh harness/gpu_check.sh $(CUDA_EXE)
else
.PHONY: gpu-check
gpu-check:
	@echo "SKIP: no CUDA device (this build has no CUDA: nvcc not found on PATH or in CUDA_HOME=$(CUDA_HOME), or CUDA=0)"
endif

# ---- Reliability (issue 8): fuzzing, memcheck, fault tests ---------------------------------------
# `make fuzz`: libFuzzer (clang) over the text parsers (fuzz/fuzz_parsers.c), FUZZ_SECONDS in total,
# starting from fuzz/corpus; a crash or a wrong accept stops it with the input in $(FUZZ_BUILD).
# `make memcheck`: a 2-rank `ddlbench train` and `ddlbench allreduce` under valgrind, our errors and
# definite leaks fatal (Open MPI's own noise suppressed). `make faults`: tests/faults.sh.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= $(BUILD)/fuzz
FUZZ_SRC     := fuzz/fuzz_parsers.c harness/parse.c harness/profile.c harness/platform.c collectives/grid.c \
                collectives/errors.c
FUZZ_EXE     := $(FUZZ_BUILD)/fuzz_parsers
MPI_COMPILE  := $(shell $(MPICC) --showme:compile 2>/dev/null || $(MPICC) -compile_info 2>/dev/null | cut -d' ' -f2-)
MPI_LINK     := $(shell $(MPICC) --showme:link 2>/dev/null || $(MPICC) -link_info 2>/dev/null | cut -d' ' -f2-)
VALGRIND     ?= valgrind
MEMCHECK_SUPP := $(wildcard /usr/share/openmpi/openmpi-valgrind.supp)

.PHONY: fuzz memcheck faults
$(FUZZ_EXE): $(FUZZ_SRC) $(wildcard harness/*.h collectives/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -D_POSIX_C_SOURCE=200809L -Icollectives -Ikernels -Iharness $(MPI_COMPILE) $(FUZZ_SRC) -o $@ $(MPI_LINK) -lm

fuzz: $(FUZZ_EXE)
	@mkdir -p $(FUZZ_BUILD)/corpus
	@cd $(FUZZ_BUILD) && rm -f crash-* && ./fuzz_parsers -max_total_time=$(FUZZ_SECONDS) -max_len=512 \
	    -print_final_stats=1 corpus $(CURDIR)/fuzz/corpus >fuzz.log 2>&1; rc=$$?; \
	    grep -E '^(stat::number_of_executed_units|stat::new_units_added|SUMMARY|Done)' fuzz.log; \
	    if [ $$rc -ne 0 ]; then tail -n 30 fuzz.log; echo "fuzz: FAILED, input in $(FUZZ_BUILD)/crash-*"; exit 1; fi
	@echo "fuzz: $(FUZZ_SECONDS) s over parse_size/int/list, profile_parse, coll_grid/patterns_parse, platform bw/lat: nothing found"

# valgrind decodes no AVX-512: memcheck gets its own build for x86-64-v3 (AVX2) in $(BUILD)/vg
memcheck:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/vg ARCH_FLAGS=-march=x86-64-v3 CUDA=0 $(BUILD)/vg/ddlbench
	BUILD="$(BUILD)/vg" MPIRUN="$(MPIRUN)" VALGRIND="$(VALGRIND)" SUPP="$(MEMCHECK_SUPP)" sh tests/memcheck/memcheck.sh

faults: $(EXE) $(SIM_EXE)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh tests/faults.sh
