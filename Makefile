# ddlbench — one non-recursive Makefile. `make help` prints the `##` block above each target or
# variable (harness/scripts/make_help.awk), so the help cannot drift from the definitions.
# ---- Variables are data: taken as text, checked, quoted ------------------------------------------
# A variable from the command line or the environment becomes a simple variable holding its text,
# so no expansion (not even make's own, exporting it to a recipe) runs a $(shell ...) in it. Data
# variables are checked (CHECKS) and single-quoted (q) wherever they reach a recipe; tool variables
# are command fragments by design, refused when they hold ; & | < > $ ` or newlines. Tested by
# tests/bad_inputs_*.sh; sweep.sh, emucluster.sh and cluster_bench.sh check the sweep's values.
TOOL_VARS := CC MPICC SMPICC NVCC FUZZ_CC LD AR OBJCOPY MPIRUN VALGRIND CFLAGS LDFLAGS OPT \
             ARCH_FLAGS CUDA_ARCH CUDA_HOME NVCC_FLAGS
DATA_VARS := NODES GPUS_PER_NODE BACKEND PLATFORM PROFILE ALGOS MODELS BUCKET_MB TRAIN_ARGS OUT \
             RUN SWEEP_FLAGS FIDELITY_FLAGS BUILD SIM_BUILD FUZZ_BUILD MPICH_BUILD FUZZ_SECONDS \
             SANITIZE SEAL CUDA RATE DELAY JOBS DEVICE PRECISION FORCE MAX OVERLAY $(TOOL_VARS)
CMDLINE := $(foreach v,$(DATA_VARS),$(if $(filter command line,$(origin $v)),$v))
GIVEN   := $(foreach v,$(DATA_VARS),$(if $(filter command line environment,$(origin $v)),$v))
$(foreach v,$(GIVEN),$(eval $(if $(filter $v,$(CMDLINE)),override) $v := $$(value $v)))
q  = '$(subst ','\'',$1)'
qv = $(call q,$($1))
digits := 0 1 2 3 4 5 6 7 8 9
alnum  := $(digits) a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M \
          N O P Q R S T U V W X Y Z
comma  := ,
space  := $(subst ,, )
define nl


endef
# CHECKS: VAR:KIND[:GOAL+GOAL]: a given VAR whose text bad.KIND faults (for those GOALs only, where
# listed) is refused with one line naming it and exp.KIND.
RUNGOALS := run+cluster-bench
CHECKS := BUILD:path SIM_BUILD:path FUZZ_BUILD:path MPICH_BUILD:path OVERLAY:opath \
          FIDELITY_FLAGS:flags $(addsuffix :tool,$(TOOL_VARS)) FUZZ_SECONDS:secs:fuzz \
          RUN:path:run+plots+report OUT:opath:$(RUNGOALS)+plots+report FORCE:one:$(RUNGOALS) \
          SWEEP_FLAGS:flags:$(RUNGOALS) PRECISION:prec:$(RUNGOALS)
without = $(if $2,$(call without,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
bad.path  = $(or $(filter-out 1,$(words $($1))),$(call without,$($1),$(alnum) . / _ - +))
exp.path  = a path of letters, digits and . / _ - +
bad.opath = $(if $($1),$(call bad.path,$1))
exp.opath = $(exp.path) (or nothing)
bad.flags = $(call without,$(subst $(space),,$($1)),$(alnum) . / _ - + = : $(comma))
exp.flags = options of letters, digits and . / _ - + = : , (e.g. --ranks 2 -e 4M --resume -q)
bad.tool  = $(or $(findstring $(nl),$($1)),$\
            $(strip $(foreach c,; & | < > $$ `,$(findstring $c,$($1)))))
exp.tool  = a command or flags without ; & | < > $$ ` or newlines
bad.one   = $(filter-out 1,$($1))
exp.one   = 1 or nothing
bad.prec  = $(filter-out fp32 tf32 bf16 fp16,$($1))$(filter-out 1,$(words $($1)))
exp.prec  = fp32, tf32, bf16 or fp16
bad.secs  = $(or $(filter-out 1,$(words $($1))),$(call without,$($1),$(digits)),$\
            $(filter 0%,$($1)),$(if $(shell [ $($1) -le 86400 ] 2>/dev/null && echo ok),,no))
exp.secs  = an integer in 1..86400
check = $(if $(and $(filter $1,$(GIVEN)),$(if $3,$(filter $(subst +, ,$3),$(MAKECMDGOALS)),y),$\
        $(call bad.$2,$1)),$(error $1: expected $(exp.$2)$(comma) got "$($1)"))
$(foreach r,$(CHECKS),$(call check,$(word 1,$(subst :, ,$r)),$(word 2,$(subst :, ,$r)),$\
    $(word 3,$(subst :, ,$r))))

## MPI compiler wrapper (MPICH: MPICC=mpicc.mpich MPIRUN=mpirun.mpich BUILD=build/mpich)
MPICC   ?= mpicc
ifeq ($(origin CC),default)
CC := $(MPICC)
endif
## MPI launcher used by the tests
MPIRUN  ?= mpirun
## output folder
BUILD   ?= build
## target flags for the vectorised kernels
ARCH_FLAGS ?= -march=native
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c11 -Wall -Wextra $(ARCH_FLAGS) -D_POSIX_C_SOURCE=200809L -MMD -MP \
           -fvisibility=hidden
OBJCOPY ?= objcopy
SIM_BUILD ?= $(BUILD)/sim
# recursive: with SANITIZE=1, BUILD gains /san below and the CUDA parts follow it
CUDA_BUILD = $(BUILD)/cuda
BLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
BLAS_LIBS   := $(shell pkg-config --libs openblas 2>/dev/null || echo -lopenblas)
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS   := $(shell pkg-config --libs libcjson 2>/dev/null)
ifeq ($(strip $(CJSON_LIBS))$(filter help clean,$(MAKECMDGOALS)),)
$(error libcjson not found by pkg-config: install it (Debian: apt-get install libcjson-dev))
endif
LDLIBS  += -lm -lpthread $(CJSON_LIBS)
## 1: AddressSanitizer + UndefinedBehaviorSanitizer build (in BUILD/san)
SANITIZE ?=
ifeq ($(SANITIZE),1)
BUILD   := $(BUILD)/san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

# ---- Sources: every .c of collectives/, kernels/, harness/*/ but the other flavours' backends ----
#   host  mpicc, BLAS, CPU kernels                 -> $(BUILD)/ddlbench, $(BUILD)/libddl.a
#   cuda  host, kernels/*.cu in place of CUDA_OUT  -> $(BUILD)/cuda/ddlbench, $(BUILD)/cuda/libddl.a
#   sim   smpicc, injected compute (SimGrid)       -> $(BUILD)/sim/ddlbench-sim (docs/DESIGN.md)
SRC        := $(sort $(wildcard collectives/*.c kernels/*.c harness/*/*.c))
LIB_REAL   := collectives/allreduce_mpi.c
HOST_BACK  := $(LIB_REAL) $(addprefix kernels/,reduce.c mem_host.c gemm_blas.c compute_host.c \
              sgd.c layers.c im2col.c) harness/train/engine_thread.c \
              $(addprefix harness/common/,watchdog.c counters.c)
SIM_BACK   := collectives/allreduce_mpi_sim.c $(addprefix kernels/,reduce_sim.c mem_sim.c \
              gemm_sim.c compute_sim.c sgd_sim.c layers_sim.c) harness/train/engine_sim.c \
              $(addprefix harness/common/,watchdog_sim.c counters_sim.c)
CUDA_OUT   := $(addprefix kernels/,devmem_none.c gemm_blas.c compute_host.c mem_pool.c \
              layers_nodev.c)
HOST_SRC   := $(filter-out $(SIM_BACK),$(SRC))
SIM_SRC    := $(filter-out $(HOST_BACK),$(SRC))
# libddl: the collectives and the kernels they call (LIBK).
LIB_COMMON := $(filter-out $(HOST_BACK) $(SIM_BACK),$(filter collectives/%,$(SRC)))
LIBK       := kernels/reduce.c kernels/mem_host.c kernels/devmem_none.c
MAIN_SRC   := harness/cli/main.c
# Tests: one file per module (test_cuda*: CUDA section); those of TEST_INTERNAL test library
# internals and link its raw objects, the others link the sealed libddl.a.
TEST_SRC   := $(filter-out tests/test_cuda%,$(wildcard tests/test_*.c))
TEST_INTERNAL := test_grid test_partition test_links
# Per-directory include paths: harness/ sees the public ddl.h and the kernel headers, never the
# collectives' private coll.h and partition.h; kernels/ see only kernels/.
COLL_INC  := -Iinclude -Icollectives -Ikernels
KERN_INC  := -Ikernels
HARN_INC  := -Iinclude -Ikernels $(addprefix -Iharness/,cli common bench train sim) $(CJSON_CFLAGS)
TEST_INC  := $(HARN_INC) -Icollectives -Itests
DIR_INC    = $(HARN_INC)
$(BUILD)/collectives/%.o $(SIM_BUILD)/collectives/%.o: DIR_INC = $(COLL_INC)
$(BUILD)/kernels/%.o $(SIM_BUILD)/kernels/%.o: DIR_INC = $(KERN_INC)
$(BUILD)/tests/%.o: DIR_INC = $(TEST_INC)
# The layer kernels: `omp simd` reductions (no OpenMP runtime) and GCC's dynamic vector cost model,
# so loops of unknown length vectorise at -O2 too (GCC 12's default -O2 model leaves them scalar).
KERN_VEC  := -fopenmp-simd -fvect-cost-model=dynamic
$(BUILD)/kernels/layers.o $(BUILD)/kernels/im2col.o: CFLAGS += $(KERN_VEC)
# Provenance (results/README.md): the commit is fixed at build time (harness/common/meta.c); PAPI
# counters (counters.c) are compiled in where pkg-config or /usr/include finds PAPI (not in sim).
DDL_COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
PAPI_CFLAGS := $(shell pkg-config --cflags papi 2>/dev/null)
PAPI_LIBS   := $(shell pkg-config --libs papi 2>/dev/null || \
                 { test -f /usr/include/papi.h && echo -lpapi; })
ifneq ($(strip $(PAPI_LIBS)),)
LDLIBS      += $(PAPI_LIBS)
$(BUILD)/harness/common/counters.o: CFLAGS += -DDDL_HAVE_PAPI $(PAPI_CFLAGS)
endif
GIT_HEAD_FILES := $(wildcard .git/HEAD .git/$(shell git symbolic-ref -q HEAD 2>/dev/null))
$(BUILD)/harness/common/meta.o $(SIM_BUILD)/harness/common/meta.o: $(GIT_HEAD_FILES)
$(BUILD)/harness/common/meta.o: CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'
$(SIM_BUILD)/harness/common/meta.o: SIM_CFLAGS += -DDDL_COMMIT='"$(DDL_COMMIT)"'

obj        = $(patsubst %.c,$(BUILD)/%.o,$1)
LIB_OBJ   := $(call obj,$(LIB_COMMON) $(LIB_REAL) $(LIBK))
# The sealed library hides its kernels: the harness links its own copy of them (APP_OBJ).
APP_OBJ   := $(call obj,$(filter-out collectives/% $(MAIN_SRC),$(HOST_SRC)))
MAIN_OBJ  := $(call obj,$(MAIN_SRC))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIBDDL    := $(BUILD)/libddl.a
EXE       := $(BUILD)/ddlbench
.PHONY: all test clean help sim sim-repro registry-extra run check-mpich bench study sim-bench \
        jitter fidelity cluster-bench plots report gpu-check gpu-bundle fuzz memcheck faults
## (default) build $(EXE), $(LIBDDL) (API: include/ddl.h; exports ddl_* only) and the tests
all: $(EXE) $(LIBDDL) $(TEST_BIN)
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DIR_INC) $(BLAS_CFLAGS) -c $< -o $@
# -fvisibility=hidden everywhere; ddl.h marks the API (DDL_API) visible. The library is one partial
# link of its objects with every hidden symbol made local (objcopy --localize-hidden), so libddl.a
# exports ddl_* and nothing else (tests/lib_symbols.sh checks it with nm).
define seal
	@mkdir -p $(dir $@)
	$(LD) -r -o $@.o $^
	$(OBJCOPY) --localize-hidden $@.o
	rm -f $@ && $(AR) rcs $@ $@.o && rm -f $@.o
endef
$(LIBDDL): $(LIB_OBJ)
	$(seal)
link = $(CC) $(LDFLAGS) -o $@ $^ $(BLAS_LIBS) $(LDLIBS)
$(EXE): $(MAIN_OBJ) $(APP_OBJ) $(LIBDDL)
	$(link)
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(APP_OBJ) $(LIBDDL)
	$(link)
$(addprefix $(BUILD)/tests/,$(TEST_INTERNAL)): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/tests/test_link: $(BUILD)/tests/test_link.o $(LIBDDL)
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread
## build and run every test (unit + MPI); ends with 'N passed, N failed'
test: all registry-extra
	MPIRUN=$(call qv,MPIRUN) BUILD=$(call qv,BUILD) sh tests/run.sh
## remove $(BUILD)/
clean:
	rm -rf $(call q,$(BUILD))
## this text
help:
	@echo "ddlbench — allreduce (and reduce-scatter, allgather) algorithms and synthetic" \
	    "data-parallel training on MPI"
	@env $(foreach v,$(DATA_VARS) EXE LIBDDL SIM_EXE CUDA_BUILD,$(call q,h_$v=$($v))) \
	    awk -f harness/scripts/make_help.awk Makefile

# ---- Simulation build (SimGrid SMPI; smpirun runs it: tests/sim_model.sh) -----------------------
# smpicc accepts -MMD; no -march, as no real kernel is compiled here.
SMPICC    ?= smpicc
SIM_CFLAGS = $(OPT) -g -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -MMD -MP
SIM_OBJ   := $(SIM_SRC:%.c=$(SIM_BUILD)/%.o)
SIM_EXE   := $(SIM_BUILD)/ddlbench-sim
## build $(SIM_EXE) with smpicc (SimGrid SMPI simulation): the sim flavour's sources
sim: $(SIM_EXE)
$(SIM_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) $(DIR_INC) -c $< -o $@
$(SIM_EXE): $(SIM_OBJ)
	$(SMPICC) -o $@ $^ $(CJSON_LIBS) -lm -lpthread
# a standalone SMPI reproducer, built and run by its script; not in `make test` (nondeterministic)
SIM_REPRO := tests/sim/parallel_contexts.c
## why SimGrid's parallel contexts (contexts/nthreads) stay off: the reproducer (tests/sim/)
sim-repro: $(EXE) $(SIM_REPRO)
	sh tests/sim/parallel_contexts.sh
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- Registry test build (tests/registry_extra.sh) -----------------------------------------------
# An algorithm is one file plus one row: registry.c compiled with -DDDL_TEST_EXTRA_ALGO lists
# tests/extra/allreduce_star.c; both replace registry.o in $(EXTRA_LIB), against which ddlbench,
# test_allreduce and test_collectives are relinked there. $(LIBDDL) and $(EXE) never hold the star.
EXTRA_BUILD := $(BUILD)/extra
EXTRA_OBJ   := $(EXTRA_BUILD)/collectives/registry.o $(EXTRA_BUILD)/tests/extra/allreduce_star.o
EXTRA_LIB   := $(EXTRA_BUILD)/libddl.a
## test build with one more algorithm (tests/extra/allreduce_star.c) in $(BUILD)/extra/
registry-extra: $(addprefix $(EXTRA_BUILD)/,ddlbench tests/test_allreduce tests/test_collectives)
$(EXTRA_BUILD)/collectives/registry.o: CFLAGS += -DDDL_TEST_EXTRA_ALGO
$(EXTRA_OBJ): $(EXTRA_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(COLL_INC) -c $< -o $@
$(EXTRA_LIB): $(filter-out $(BUILD)/collectives/registry.o,$(LIB_OBJ)) $(EXTRA_OBJ)
	$(seal)
$(EXTRA_BUILD)/ddlbench: $(MAIN_OBJ) $(APP_OBJ) $(EXTRA_LIB)
	$(link)
$(EXTRA_BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(APP_OBJ) $(EXTRA_LIB)
	@mkdir -p $(dir $@)
	$(link)

# ---- The main job: the scaling study (harness/scripts/sweep.sh) ----------------------------------
# Outside a batch allocation it simulates (SMPI); inside one (SLURM_JOB_ID, LSB_JOBID, PBS_JOBID) it
# runs the real build; BACKEND=emu runs the real build on an emulated cluster (emucluster.sh; root).
## nodes of the study (1 GPU, then 1..NODES nodes)
NODES         ?= 2
## GPUs (ranks) per node (default: the platform's; another needs SWEEP_FLAGS=--override-platform)
GPUS_PER_NODE ?=
## sim | mpi | emu | model (default: mpi inside a batch allocation, else sim)
BACKEND       ?= $(if $(SLURM_JOB_ID)$(LSB_JOBID)$(PBS_JOBID),mpi,sim)
## machine preset or platform file (ddlbench platform --help; default minsky)
PLATFORM      ?=
## compute rates of the simulated GPUs (default: the platform's GPU, p100 on minsky)
PROFILE       ?=
## algorithms of the sweep
ALGOS         ?= mpi,ring,rhd,ddl,auto
## bucket size in MB
BUCKET_MB     ?= 25
## emu and cluster-bench: each emulated node's NIC rate (e.g. 500mbit)
RATE          ?= none
## emu and cluster-bench: one-way delay (e.g. 100us, needs netem)
DELAY         ?= none
# DEVICE: gpu where $(BUILD)/cuda/ddlbench and GPUs are; tf32: frameworks' "fp32" on Ampere and up
ifeq ($(BACKEND),mpi)
## mpi: gpu (the CUDA build at 224x224) or cpu (the CPU build at a size a CPU finishes)
DEVICE        ?= $(shell sh harness/scripts/pick_device.sh $(BUILD))
## mpi with DEVICE=gpu: fp32 | tf32 | bf16 | fp16
PRECISION     ?= tf32
endif
RUN_DEPS      := $(EXE)
ifeq ($(BACKEND)$(DEVICE),mpigpu)
## models and batches (default: by BACKEND)
MODELS        ?= resnet50:32,resnet101-22k:20
## options for each `ddlbench train` (default: by BACKEND)
TRAIN_ARGS    ?= --precision $(PRECISION) --steps 5 --warmup 1
RUN_DEPS      += $(CUDA_BUILD)/ddlbench
else ifneq ($(filter mpi emu,$(BACKEND)),)
MODELS        ?= resnet50:8
TRAIN_ARGS    ?= --image-size 64 --steps 5 --warmup 1
else ifneq ($(BACKEND),model)
# sim: one timed step, no warm-up: the simulation is deterministic and its first step equals the
# second (tests/sim_speed.sh checks it), so a warm-up step would only double the wall time.
TRAIN_ARGS    ?= --steps 1 --warmup 0
RUN_DEPS      += $(SIM_EXE)
endif
MODELS        ?= resnet50:32,resnet101-22k:20
## results folder of `make run` (default: results/<run-id>, linked as results/latest)
OUT           ?=
## launches at once (default: the core count)
JOBS          ?=
## 1: run a sweep estimated at over an hour
FORCE         ?=
## sweep.sh options: --resume, --dry-run, -q (sh harness/scripts/sweep.sh --help)
SWEEP_FLAGS   ?=
# a dry run builds nothing
DRY_RUN       := $(findstring --dry-run,$(SWEEP_FLAGS))
RUN_DEPS      := $(if $(DRY_RUN),,$(RUN_DEPS))
## the scaling study: ResNet-50 (batch 32) and ResNet-101-22K (batch 20) on 1 GPU and 1..NODES
## nodes, every algorithm -> results/<run-id>/scaling.csv, scaling.json (results/latest), then its
## report and charts (the values' limits: ddlbench sweep-check --help; the table: ddlbench merge
## --help), the platform's own allreduce sweep (sim, model: allreduce.csv,
## harness/scripts/run_allreduce.sh). In an allocation with GPUs and the CUDA build:
## build/cuda/ddlbench train --device gpu at 224x224, PRECISION=tf32; DEVICE=cpu for the CPU build
run: $(RUN_DEPS)
	DDL_SWEEP_FROM_MAKE=1 sh harness/scripts/sweep.sh --backend $(call qv,BACKEND) \
	    --nodes $(call qv,NODES) --gpus-per-node $(call qv,GPUS_PER_NODE) \
	    --models $(call qv,MODELS) --algos $(call qv,ALGOS) --bucket-mb $(call qv,BUCKET_MB) \
	    --platform $(call qv,PLATFORM) --profile $(call qv,PROFILE) \
	    --train-args $(call qv,TRAIN_ARGS) --build $(call qv,BUILD) \
	    $(if $(OUT),--out $(call qv,OUT)) $(if $(JOBS),--jobs $(call qv,JOBS)) \
	    $(if $(filter 1,$(FORCE)),--force) $(SWEEP_FLAGS) \
	    $(if $(filter emu,$(BACKEND)),--rate $(call qv,RATE) --delay $(call qv,DELAY)) \
	    $(if $(filter mpi,$(BACKEND)),--device $(call qv,DEVICE))
	$(if $(DRY_RUN),,BUILD=$(call qv,BUILD) sh harness/scripts/run_allreduce.sh $(call qv,RUN))
	$(if $(DRY_RUN),,sh harness/scripts/report.sh $(call qv,RUN))
	$(if $(DRY_RUN),,sh plots/plots.sh $(call qv,RUN))

# ---- MPICH: the library and tests also build and run with MPICH (CI runs this) -------------------
# MPICH's progress engine spins, so on 2 shared cores only a few ranks are practical here.
MPICH_BUILD ?= $(BUILD)/mpich
MPICH_TESTS := test_allreduce test_collectives test_api
## build the library and tests with MPICH (mpicc.mpich) and run them at 2 ranks and across an
## emulated cluster (tests/cluster.sh: hydra's rsh launcher = emu_agent.sh; SKIP without root)
check-mpich:
	$(MAKE) --no-print-directory MPICC=mpicc.mpich BUILD=$(MPICH_BUILD) CUDA=0 \
	    $(addprefix $(MPICH_BUILD)/tests/,$(MPICH_TESTS)) $(MPICH_BUILD)/ddlbench >/dev/null
	for t in $(MPICH_TESTS); do MPIRUN=mpirun.mpich \
	    sh harness/scripts/mpilaunch.sh 2 $(call q,$(MPICH_BUILD))/tests/$$t || exit 1; done
	BUILD=$(call q,$(MPICH_BUILD)) MPIRUN=mpirun.mpich sh tests/cluster.sh

# ---- Benchmarks (docs/BENCHMARKS.md) -------------------------------------------------------------
## allreduce sweep 1K-256M at 2 and 4 ranks (all algorithms + Open MPI ring/Rabenseifner),
## reduce-scatter and allgather sweeps 1K-64M (all algorithms; mpi = MPI_Reduce_scatter_block,
## MPI_Allgather) and the reduction-kernel benchmark -> results/bench/ (harness/scripts/bench.sh)
bench: $(EXE)
	BUILD=$(call qv,BUILD) MPIRUN=$(call qv,MPIRUN) sh harness/scripts/bench.sh
## fidelity.sh options, split into words (e.g. "--ranks 2 -e 4M --repeats 1 --emu 1gbit")
FIDELITY_FLAGS ?=
## the 2017 study at 256 GPUs with bands over its unknowns (overlap, IB ports), where
## 95%/88%/89% fall; simulator spot checks -> results/study/report.md
study: $(EXE) $(SIM_EXE)
	sh harness/scripts/study.sh --build $(call qv,BUILD)
## simulated ring, rhd, ddl on 1, 4 and 32 DGX H200 nodes against their alpha-beta-gamma link
## bound, as ratios, with nccl-tests' Avg bus bandwidth line (32 nodes: ~17 min)
sim-bench: $(EXE) $(SIM_EXE)
	sh harness/scripts/sim_bench.sh --build $(call qv,BUILD)
## efficiency (median, min-max) against train --jitter at 256 simulated GPUs -> results/jitter/
jitter: $(EXE) $(SIM_EXE)
	sh harness/scripts/jitter.sh --build $(call qv,BUILD)
## calibrate (p2p + kernels), then allreduce 1K-64M and training steps real vs simulated at 2
## and 4 ranks and on an emulated 2x2 cluster (500mbit; root, else SKIP) -> results/fidelity/
## (ends: fidelity: median |error| X%, max Y% ...; ~30 min; harness/scripts/fidelity.sh)
fidelity: $(EXE) $(SIM_EXE)
	MPIRUN=$(call qv,MPIRUN) sh harness/scripts/fidelity.sh --build $(call qv,BUILD) \
	    --backend $(call qv,BACKEND) $(FIDELITY_FLAGS)
## cluster-bench: largest size (16M, 32M, 64M, 128M or 256M; default 64M)
MAX ?=
## the bench sweep (1K-64M) on an emulated cluster: NODES x GPUS_PER_NODE ranks (default 2 x 2),
## NICs at RATE (harness/scripts/emucluster.sh, root) -> results/cluster-bench/, ratios, link bounds
cluster-bench: $(EXE)
	NODES=$(call qv,NODES) GPUS_PER_NODE=$(call qv,GPUS_PER_NODE) RATE=$(call qv,RATE) \
	    DELAY=$(call qv,DELAY) BUILD=$(call qv,BUILD) MPIRUN=$(call qv,MPIRUN) \
	    $(if $(filter MAX,$(CMDLINE)),MAX=$(call qv,MAX)) sh harness/scripts/cluster_bench.sh

# ---- Results: charts and report (results/README.md) ----------------------------------------------
## the run `make plots` and `make report` read (default: OUT, else results/latest)
RUN ?= $(if $(OUT),$(OUT),results/latest)
## plots: a second run drawn on the charts (e.g. BACKEND=model rows, dashed and open)
OVERLAY ?=
## charts of a run (RUN): efficiency, images/s, busbw, step breakdown -> RUN/*.png and *.svg
## (gnuplot; plots/plots.sh)
plots:
	sh plots/plots.sh $(call qv,RUN) $(if $(OVERLAY),$(call qv,OVERLAY))
## RUN/report.md: efficiency tables beside the study's, where the time goes, time to train beside
## the study's 50 min / 7 h, stragglers (--per-rank)
report:
	sh harness/scripts/report.sh $(call qv,RUN)

# ---- CUDA build (docs/GPU.md) --------------------------------------------------------------------
# With nvcc (on PATH, else $(CUDA_HOME)/bin) and CUDA not 0, `make` also builds $(CUDA_BUILD)/ and
# the CUDA tests. nvcc 13 targets sm_75 and newer: no P100 (sm_60) or V100 (sm_70) in CUDA_ARCH.
## 0: never build the CUDA parts (default: built into $(CUDA_BUILD)/ when nvcc is found)
CUDA      ?= 1
## where nvcc is looked for when it is not on PATH (nvcc found: "$(NVCC)"; NVCC=path to choose)
CUDA_HOME ?= /usr/local/cuda
ifeq ($(origin NVCC),undefined)
NVCC := $(if $(filter 0,$(CUDA)),,$(or $(shell command -v nvcc 2>/dev/null),$\
            $(wildcard $(CUDA_HOME)/bin/nvcc)))
endif
## the GPU architectures nvcc compiles for
CUDA_ARCH ?= -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
             -gencode=arch=compute_90,code=compute_90
CUDA_EXE   := $(CUDA_BUILD)/ddlbench
CUDA_LIB   := $(CUDA_BUILD)/libddl.a
CUDA_TEST  := $(addprefix $(BUILD)/tests/,test_cuda test_cuda_compute test_link_cuda)
ifneq ($(strip $(NVCC)),)
CUDA_LIBDIR := $(or $(wildcard $(dir $(NVCC))../lib64),$(CUDA_HOME)/lib64)
NVCC_FLAGS ?= $(OPT) -g -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-Wextra,-fvisibility=hidden \
              -MMD -MP -Ikernels
CUDA_LIB_OBJ := $(call obj,$(filter-out $(CUDA_OUT),$(LIB_COMMON) $(LIB_REAL) $(LIBK))) \
                $(addprefix $(CUDA_BUILD)/kernels/,devmem_cuda.o reduce_cuda.o)
CUDA_OBJ   := $(filter-out $(call obj,$(CUDA_OUT)),$(APP_OBJ)) \
              $(patsubst %.cu,$(CUDA_BUILD)/%.o,$(sort $(wildcard kernels/*.cu)))
CUDA_LIBS  := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcublas -lcudart -lstdc++
all: $(CUDA_EXE) $(CUDA_LIB) $(CUDA_TEST)
$(CUDA_BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -c $< -o $@
$(CUDA_LIB): $(CUDA_LIB_OBJ)
	$(seal)
$(CUDA_EXE): $(MAIN_OBJ) $(CUDA_OBJ) $(CUDA_LIB)
	$(link) $(CUDA_LIBS)
$(BUILD)/tests/test_cuda $(BUILD)/tests/test_cuda_compute: %: %.o $(CUDA_OBJ) $(CUDA_LIB)
	$(link) $(CUDA_LIBS)
$(BUILD)/tests/test_link_cuda: $(BUILD)/tests/test_link.o $(CUDA_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread $(CUDA_LIBS)
## on a machine with an NVIDIA GPU: cuBLAS, reduction and layer-kernel checks and rates, ResNet-50
## steps (batch 256 beside PyTorch), device-buffer allreduce, a device profile, staged/host
## allreduce busbw ratio at 64-256 MB (docs/GPU.md); a SKIP line without CUDA
gpu-check: $(CUDA_EXE) $(CUDA_TEST)
	BUILD=$(call qv,BUILD) MPIRUN=$(call qv,MPIRUN) \
	    sh harness/scripts/gpu_check.sh $(call q,$(CUDA_EXE))
else
gpu-check:
	@echo "SKIP: no CUDA device (this build has no CUDA: nvcc not found on PATH or in" \
	    "CUDA_HOME=$(CUDA_HOME), or CUDA=0)"
endif
## pack build/cuda (x86-64-v3 host code) and Debian 12's Open MPI runtime into .gpu/ for a GPU
## node with CUDA but no MPI and no network (docs/GPU.md); needs apt-get, nvcc and Open MPI here
gpu-bundle:
	bash harness/scripts/gpu_bundle.sh

# ---- Reliability: fuzzing, memcheck, fault tests -------------------------------------------------
FUZZ_CC      ?= clang
## fuzz: seconds of fuzzing
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= $(BUILD)/fuzz
FUZZ_SRC     := fuzz/fuzz_parsers.c $(addprefix harness/common/,opts.c parse.c outfile.c) \
                $(addprefix harness/sim/,profile.c platform.c platform_xml.c platform_file.c) \
                collectives/grid.c collectives/errors.c
FUZZ_EXE     := $(FUZZ_BUILD)/fuzz_parsers
mpi_flags     = $(shell $(MPICC) --showme:$1 2>/dev/null || $(MPICC) -$1_info 2>/dev/null | \
                        cut -d' ' -f2-)
MPI_COMPILE  := $(call mpi_flags,compile)
MPI_LINK     := $(call mpi_flags,link)
VALGRIND     ?= valgrind
MEMCHECK_SUPP := $(wildcard /usr/share/openmpi/openmpi-valgrind.supp)
$(FUZZ_EXE): $(FUZZ_SRC) $(wildcard harness/*/*.h collectives/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L $(TEST_INC) $(MPI_COMPILE) \
	    $(FUZZ_SRC) -o $@ $(MPI_LINK) -lm
## libFuzzer (clang) over the text parsers (fuzz/fuzz_parsers.c) for FUZZ_SECONDS from fuzz/corpus;
## a crash or a wrong accept stops it with the input in $(BUILD)/fuzz
fuzz: $(FUZZ_EXE)
	@sh harness/scripts/fuzz.sh $(call qv,FUZZ_BUILD) $(call qv,FUZZ_SECONDS) \
	    $(call q,$(CURDIR)/fuzz/corpus)
# valgrind decodes no AVX-512: memcheck gets its own build for x86-64-v3 (AVX2) in $(BUILD)/vg
## 2-rank train + allreduce under valgrind; errors or definite leaks in our code fail
memcheck:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/vg ARCH_FLAGS=-march=x86-64-v3 CUDA=0 \
	    $(BUILD)/vg/ddlbench
	BUILD=$(call q,$(BUILD)/vg) MPIRUN=$(call qv,MPIRUN) VALGRIND=$(call qv,VALGRIND) \
	    SUPP=$(call q,$(MEMCHECK_SUPP)) sh tests/memcheck/memcheck.sh
## crash, hang, time out and Ctrl-C runs on purpose, resume sweeps (tests/faults.sh, resilience.sh;
## minutes: `make test` leaves the second out)
faults: $(EXE) $(SIM_EXE)
	for t in faults resilience; do \
	    BUILD=$(call qv,BUILD) MPIRUN=$(call qv,MPIRUN) sh tests/$$t.sh || exit 1; done
