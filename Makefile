# ddlbench — one non-recursive Makefile. Targets and variables are rows of harness/scripts/make_table.txt
# (.PHONY, the variables accepted, their checks; `make help` prints it). A variable given (command line,
# environment) is kept as its text (no $(shell ...) in it runs), checked (bad.KIND) and single-quoted (q)
# in recipes; a command-line variable without a row is refused, so NODE=64 is not silently ignored.
ROWS      := $(shell awk '$$1 == "var" { print $$2 ":" $$3 } $$1 == "target" { print "t:" $$2 }' \
               harness/scripts/make_table.txt)
CHECKS    := $(filter-out t:%,$(ROWS))
DATA_VARS := $(foreach r,$(CHECKS),$(firstword $(subst :, ,$r)))
CMDLINE   := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v))
GIVEN     := $(foreach v,$(DATA_VARS),$(if $(filter command line environment,$(origin $v)),$v))
$(if $(filter-out $(DATA_VARS),$(CMDLINE)),$(error $(firstword $(filter-out $(DATA_VARS),$\
    $(CMDLINE))): not a variable of this Makefile (make help lists them)))
$(foreach v,$(GIVEN),$(eval $(if $(filter $v,$(CMDLINE)),override) $v := $$(value $v)))
q  = '$(subst ','\'',$1)'
qv = $(call q,$($1))
envs = $(foreach v,$1,$v=$(call qv,$v))
digits := 0 1 2 3 4 5 6 7 8 9
alnum  := $(digits) $(shell awk 'BEGIN { for (i = 97; i <= 122; i++) printf "%c %c ", i, i - 32 }')
comma  := ,
space  := $(subst ,, )
# the control characters make does not take for blanks (those, and newlines, split $(words))
ctrl   := $(shell awk 'BEGIN { for (i = 1; i < 32; i++) if (i < 9 || i > 13) printf "%c ", i; printf "%c", 127 }')
without = $(if $2,$(call without,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
# every other environment variable (SLURM_JOB_ID, ...) as simple text too: no $(shell ...) in it runs
ENV_VARS  := $(foreach v,$(filter-out $(GIVEN) MAKEFLAGS MFLAGS MAKELEVEL,$(.VARIABLES)),$\
               $(if $(filter environment,$(origin $v)),$v))
$(foreach v,$(ENV_VARS),$(if $(call without,$v,$(alnum) _),,$(eval $v := $$(value $v))))
bad.text  = $(or $(filter-out 1,$(words x$(subst $(space),x,$($1))x)),$\
            $(strip $(foreach c,$(ctrl),$(findstring $c,$($1)))))
exp.text  = one line without control characters
bad.path  = $(or $(filter-out 1,$(words $($1))),$(call without,$($1),$(alnum) . / _ - +))
exp.path  = a path of letters, digits and . / _ - +
bad.opath = $(if $($1),$(call bad.path,$1))
exp.opath = $(exp.path) (or nothing)
bad.flags = $(call without,$(subst $(space),,$($1)),$(alnum) . / _ - + = : $(comma))
exp.flags = options of letters, digits and . / _ - + = : , (e.g. --ranks 2 -e 4M --resume -q)
bad.tool  = $(strip $(foreach c,; & | < > $$ `,$(findstring $c,$($1))))
exp.tool  = a command or flags without ; & | < > $$ `
bad.enum  = $(if $($1),$(or $(filter-out 1,$(words $($1))),$(filter-out $(subst |, ,$2),$($1))),$\
            $(if $(filter |% %|,$2),,empty))
exp.enum  = $(if $(filter |% %|,$2),$(subst |,,$2) or nothing,one of $(subst |,$(comma) ,$2))
bad.secs  = $(or $(filter-out 1,$(words $($1))),$(call without,$($1),$(digits)),$\
            $(filter 0%,$($1)),$(if $(shell [ $($1) -le 86400 ] 2>/dev/null && echo ok),,no))
exp.secs  = an integer in 1..86400
# check VAR,KIND,GOALS: text first (no control character is echoed), then KIND, for GOALS only
kind  = $(if $(findstring |,$1),enum,$1)
check = $(if $(filter $1,$(GIVEN)),$(if $(call bad.text,$1),$(error $1: expected $(exp.text)),$\
        $(if $(and $(if $(filter-out -,$3),$(filter $(subst +, ,$3),$(MAKECMDGOALS)),y),$\
        $(call bad.$(call kind,$2),$1,$2)),$\
        $(error $1: expected $(call exp.$(call kind,$2),$1,$2)$(comma) got "$($1)"))))
$(foreach r,$(CHECKS),$(call check,$(word 1,$(subst :, ,$r)),$(word 2,$(subst :, ,$r)),$\
    $(or $(word 3,$(subst :, ,$r)),-)))

.DEFAULT_GOAL := all # else `make` alone would build the meta.o rule below, the first target
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
LIB_REAL   := collectives/allreduce_mpi.c collectives/switch_none.c
HOST_BACK  := $(LIB_REAL) $(addprefix kernels/,reduce.c mem_host.c gemm_blas.c compute_host.c \
              sgd.c layers.c layers_xfmr.c im2col.c) harness/train/engine_thread.c \
              $(addprefix harness/common/,watchdog.c counters.c)
SIM_BACK   := collectives/allreduce_mpi_sim.c $(addprefix kernels/,reduce_sim.c mem_sim.c \
              gemm_sim.c compute_sim.c sgd_sim.c layers_sim.c layers_xfmr_sim.c) harness/train/engine_sim.c \
              $(addprefix harness/common/,watchdog_sim.c counters_sim.c)
CUDA_OUT   := $(addprefix kernels/,devmem_none.c gemm_blas.c compute_host.c mem_pool.c \
              layers_nodev.c)
HOST_SRC   := $(filter-out $(SIM_BACK),$(SRC))
SIM_SRC    := $(filter-out $(HOST_BACK),$(SRC))
# libddl: the collectives and the kernels they call (LIBK).
LIB_COMMON := $(filter-out $(HOST_BACK) $(SIM_BACK),$(filter collectives/%,$(SRC)))
LIBK       := kernels/reduce.c kernels/mem_host.c kernels/devmem_none.c
MAIN_SRC   := harness/cli/main.c
# Tests: one file per module (test_cuda*: CUDA section); TEST_INTERNAL link libddl's raw objects.
TEST_SRC   := $(filter-out tests/test_cuda%,$(wildcard tests/test_*.c))
TEST_INTERNAL := test_grid test_partition test_links test_rdb test_nccl_ring test_dtree test_nvls
# Include paths per directory: harness/ never sees the collectives' private headers; kernels/ only kernels/.
COLL_INC  := -Iinclude -Icollectives -Ikernels
KERN_INC  := -Ikernels
HARN_INC  := -Iinclude -Ikernels $(addprefix -Iharness/,cli common bench train sim calib) $(CJSON_CFLAGS)
TEST_INC  := $(HARN_INC) -Icollectives -Itests
DIR_INC    = $(HARN_INC)
$(BUILD)/collectives/%.o $(SIM_BUILD)/collectives/%.o $(BUILD)/pic/collectives/%.o: DIR_INC = $(COLL_INC)
$(BUILD)/kernels/%.o $(SIM_BUILD)/kernels/%.o $(BUILD)/pic/kernels/%.o: DIR_INC = $(KERN_INC)
$(BUILD)/tests/%.o: DIR_INC = $(TEST_INC)
# The layer kernels: `omp simd` reductions (no OpenMP runtime); GCC 12's -O2 leaves them scalar else.
KERN_VEC  := -fopenmp-simd -fvect-cost-model=dynamic
$(BUILD)/kernels/layers.o $(BUILD)/kernels/im2col.o: CFLAGS += $(KERN_VEC)
# Provenance: the commit, fixed at build time (meta.c); PAPI counters where PAPI is found (not in sim).
DDL_COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
PAPI_CFLAGS := $(shell pkg-config --cflags papi 2>/dev/null)
PAPI_LIBS   := $(shell pkg-config --libs papi 2>/dev/null || { test -f /usr/include/papi.h && echo -lpapi; })
ifneq ($(strip $(PAPI_LIBS)),)
LDLIBS      += $(PAPI_LIBS)
$(BUILD)/harness/common/counters.o: CFLAGS += -DDDL_HAVE_PAPI $(PAPI_CFLAGS)
endif
GIT_HEAD := $(wildcard $(shell git rev-parse --git-path HEAD --git-path "$$(git symbolic-ref -q HEAD)" 2>/dev/null))
$(BUILD)/harness/common/meta.o $(SIM_BUILD)/harness/common/meta.o: $(GIT_HEAD)
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
.PHONY: $(patsubst t:%,%,$(filter t:%,$(ROWS)))
all: $(EXE) $(LIBDDL) $(TEST_BIN)
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DIR_INC) $(BLAS_CFLAGS) -c $< -o $@
# libddl.a: one partial link, every hidden symbol made local: it exports ddl_* only (tests/lib_symbols.sh)
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
test: all registry-extra
	$(call envs,MPIRUN BUILD) sh tests/run.sh
clean:
	rm -rf $(call q,$(BUILD))
help:
	@env $(foreach v,$(DATA_VARS) EXE LIBDDL SIM_EXE CUDA_BUILD,$(call q,h_$v=$($v))) \
	    awk -f harness/scripts/make_help.awk harness/scripts/make_table.txt Makefile

# ---- Simulation build (SimGrid SMPI; smpirun runs it): no -march, no real kernel is compiled -----
SMPICC    ?= smpicc
SIM_CFLAGS = $(OPT) -g -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -MMD -MP
# switch_sim.cpp: the reducing switches' traffic as SimGrid activities (collectives/switch.h), s4u is C++
SIM_OBJ   := $(SIM_SRC:%.c=$(SIM_BUILD)/%.o) $(SIM_BUILD)/collectives/switch_sim.o
SMPICXX   ?= smpicxx
SIM_EXE   := $(SIM_BUILD)/ddlbench-sim
sim: $(SIM_EXE)
$(SIM_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) $(DIR_INC) -c $< -o $@
$(SIM_BUILD)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(SMPICXX) $(OPT) -g -std=c++17 -Wall -Wextra -MMD -MP $(DIR_INC) -c $< -o $@
$(SIM_EXE): $(SIM_OBJ)
	$(SMPICC) -o $@ $^ $(CJSON_LIBS) -lm -lpthread -lstdc++
sim-repro: $(EXE) tests/sim/parallel_contexts.c
	sh tests/sim/parallel_contexts.sh
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- Registry test build (tests/registry_extra.sh): one file plus one row is an algorithm --------
# registry.c with -DDDL_TEST_EXTRA_ALGO and tests/extra/allreduce_star.c replace registry.o in $(EXTRA_LIB).
EXTRA_BUILD := $(BUILD)/extra
EXTRA_OBJ   := $(EXTRA_BUILD)/collectives/registry.o $(EXTRA_BUILD)/tests/extra/allreduce_star.o
EXTRA_LIB   := $(EXTRA_BUILD)/libddl.a
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

# ---- The main job: the scaling study (sweep.sh: simulated outside an allocation, else real; emu: emulated) ----
# sweep.sh --help: its defaults and limits; make passes only the variables given and builds what the backend runs.
SWEEP_VARS    := NODES GPUS_PER_NODE MODELS GLOBAL_BATCH ALGOS BUCKET_MB PLATFORM PROFILE TRAIN_ARGS RATE DELAY JOBS \
                 PRECISION
BACKEND       ?= $(if $(SLURM_JOB_ID)$(LSB_JOBID)$(PBS_JOBID),mpi,sim)
DEVICE        ?= $(if $(filter mpi,$(BACKEND)),$(shell sh harness/scripts/pick_device.sh $(BUILD)))
DRY_RUN       := $(findstring --dry-run,$(SWEEP_FLAGS))
RUN_DEPS      := $(if $(DRY_RUN),,$(EXE) $(if $(filter mpigpu,$(BACKEND)$(DEVICE)),$(CUDA_BUILD)/ddlbench,$\
                     $(if $(filter sim,$(BACKEND)),$(SIM_EXE))))
REALISM       ?= ideal
# under mpi on GPUs the CUDA build, no build for a dry run; REALISM=study: RUN/realism too (make_run.sh)
run: $(RUN_DEPS)
	BUILD=$(call qv,BUILD) sh harness/scripts/make_run.sh $(call qv,RUN) $(call qv,REALISM) $(call qv,BACKEND) \
	    $(call qv,OUT) $(if $(DRY_RUN),1,0) BACKEND=$(call qv,BACKEND) BUILD=$(call qv,BUILD) \
	    $(foreach v,$(SWEEP_VARS),$(if $(filter $v,$(GIVEN)),$v=$(call qv,$v))) \
	    $(if $(filter mpi,$(BACKEND))$(filter DEVICE,$(GIVEN)),DEVICE=$(call qv,DEVICE)) \
	    $(if $(filter 1,$(FORCE)),--force) $(if $(filter mpi,$(BACKEND)),--allreduce) $(SWEEP_FLAGS)

# ---- The PMPI interposer (interpose/, docs/DESIGN.md): any MPI program through libddl ------------
# $(PMPI_SO) = interpose/*.c + libddl's objects with -fPIC, one partial link in which libddl's own MPI calls
# are renamed PMPI_* (no re-entry) and hidden symbols made local; only MPI_* is exported. pmpi_client: a plain
# MPI program tests/pmpi.sh runs under it.
PMPI_SO     := $(BUILD)/libddl_mpi.so
PIC_BUILD   := $(BUILD)/pic
PMPI_OBJ    := $(patsubst %.c,$(PIC_BUILD)/%.o,$(wildcard interpose/*.c))
PIC_LIB     := $(PIC_BUILD)/libddl_pmpi.o
PMPI_RENAME := $(foreach f,Allreduce Reduce_scatter_block Allgather,--redefine-sym MPI_$f=PMPI_$f)
all: $(PMPI_SO) $(BUILD)/tests/pmpi_client
$(PIC_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC $(DIR_INC) -c $< -o $@
$(PIC_BUILD)/interpose/%.o $(BUILD)/interpose/%.o: DIR_INC = -Iinclude
$(PIC_LIB): $(patsubst %.c,$(PIC_BUILD)/%.o,$(LIB_COMMON) $(LIB_REAL) $(LIBK))
	$(LD) -r -o $@ $^
	$(OBJCOPY) --localize-hidden $(PMPI_RENAME) $@
$(PMPI_SO): $(PMPI_OBJ) $(PIC_LIB) interpose/exports.map
	$(CC) -shared $(LDFLAGS) -Wl,--version-script=interpose/exports.map -o $@ $(PMPI_OBJ) $(PIC_LIB) -lm -lpthread
$(BUILD)/tests/pmpi_client: tests/pmpi/client.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP -fvisibility=hidden,$(CFLAGS)) -o $@ $< -lm
$(BUILD)/tests/test_pmpi_route: $(BUILD)/interpose/route.o
$(BUILD)/tests/test_pmpi_route.o: DIR_INC = $(TEST_INC) -Iinterpose
pmpi-bench: $(PMPI_SO)
	$(call envs,BUILD MPIRUN) sh harness/scripts/pmpi_bench.sh

# ---- MPICH: the library and tests also build and run with MPICH (CI runs this; check_mpich.sh) ---
MPICH_BUILD ?= $(BUILD)/mpich
check-mpich:
	MAKE=$(call q,$(MAKE_COMMAND)) sh harness/scripts/check_mpich.sh $(call qv,MPICH_BUILD)

# ---- Benchmarks (docs/BENCHMARKS.md) -------------------------------------------------------------
bench: $(EXE)
	$(call envs,BUILD MPIRUN) sh harness/scripts/bench.sh
study nccl-compare jitter: $(EXE) $(SIM_EXE)
	sh harness/scripts/$(subst -,_,$@).sh --build $(call qv,BUILD)
# issue 46's benchmark: the best algorithm against the NVLink bound (1 node) and the per-node NIC bound
SIM_BENCH_FLAGS ?= --platform dgxh100 --profile h100 --nodes 1,4,16,32 \
    --algos ring,rhd,ddl,ddl-pipe,nccl-ring,nccl-tree,nvls --min-bytes 256M --max-bytes 256M
sim-bench: $(EXE) $(SIM_EXE)
	sh harness/scripts/sim_bench.sh --build $(call qv,BUILD) $(SIM_BENCH_FLAGS)
fidelity: $(EXE) $(SIM_EXE)
	$(call envs,MPIRUN) sh harness/scripts/fidelity.sh --build $(call qv,BUILD) --backend $(call qv,BACKEND) \
	    $(FIDELITY_FLAGS)
cluster-bench: $(EXE)
	$(call envs,NODES GPUS_PER_NODE RATE DELAY BUILD MPIRUN $(filter MAX,$(CMDLINE))) sh harness/scripts/cluster_bench.sh

# ---- Results: charts and report (results/README.md) ----------------------------------------------
RUN ?= $(if $(OUT),$(OUT),results/latest)
plots:
	BUILD=$(call qv,BUILD) sh plots/plots.sh $(call qv,RUN) $(if $(OVERLAY),$(call qv,OVERLAY))
report:
	BUILD=$(call qv,BUILD) sh harness/scripts/report.sh $(call qv,RUN)

# ---- CUDA build (docs/GPU.md) --------------------------------------------------------------------
# With nvcc (PATH, else $(CUDA_HOME)/bin) and CUDA not 0, `make` also builds $(CUDA_BUILD)/ and the CUDA
# tests. nvcc 13 targets sm_75 and newer: no P100 (sm_60) or V100 (sm_70) in CUDA_ARCH.
CUDA      ?= 1
CUDA_HOME ?= /usr/local/cuda
ifeq ($(origin NVCC),undefined)
NVCC := $(if $(filter 0,$(CUDA)),,$(or $(shell command -v nvcc 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/nvcc)))
endif
CUDA_ARCH ?= -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
             -gencode=arch=compute_90,code=compute_90
CUDA_EXE   := $(CUDA_BUILD)/ddlbench
CUDA_LIB   := $(CUDA_BUILD)/libddl.a
CUDA_TEST  := $(addprefix $(BUILD)/tests/,test_cuda test_cuda_compute test_link_cuda)
ifneq ($(strip $(NVCC)),)
CUDA_LIBDIR := $(or $(wildcard $(dir $(NVCC))../lib64),$(CUDA_HOME)/lib64)
NVCC_FLAGS ?= $(OPT) -g -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-Wextra,-fvisibility=hidden -MMD -MP -Ikernels
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
endif
gpu-check: $(if $(strip $(NVCC)),$(CUDA_EXE) $(CUDA_TEST))
	$(if $(strip $(NVCC)),$(call envs,BUILD MPIRUN) sh harness/scripts/gpu_check.sh $(call q,$(CUDA_EXE)),@echo \
	    "SKIP: no CUDA device (this build has no CUDA: nvcc not found on PATH or in" \
	    "CUDA_HOME=$(CUDA_HOME)$(comma) or CUDA=0)")
gpu-bundle:
	bash harness/scripts/gpu_bundle.sh

# ---- Reliability: fuzzing, memcheck, fault tests -------------------------------------------------
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   ?= $(BUILD)/fuzz
FUZZ_SRC     := fuzz/fuzz_parsers.c \
                $(addprefix harness/common/,opts.c parse.c outfile.c tree.c kv.c textfile.c csv.c gbatch.c) \
                $(wildcard harness/sim/platform*.c) harness/sim/profile.c harness/sim/study_file.c \
                harness/sim/study_terms.c harness/train/shard_mem.c harness/train/wire.c \
                collectives/grid.c collectives/errors.c kernels/sim_rates.c
FUZZ_EXE     := $(FUZZ_BUILD)/fuzz_parsers
mpi_flags     = $(shell $(MPICC) --showme:$1 2>/dev/null || $(MPICC) -$1_info 2>/dev/null | cut -d' ' -f2-)
VALGRIND     ?= valgrind
$(FUZZ_EXE): $(FUZZ_SRC) $(wildcard harness/*/*.h collectives/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -D_POSIX_C_SOURCE=200809L $(TEST_INC) $(call mpi_flags,compile) $(FUZZ_SRC) -o $@ $(call mpi_flags,link) -lm
fuzz: $(FUZZ_EXE)
	@sh harness/scripts/fuzz.sh $(call qv,FUZZ_BUILD) $(call qv,FUZZ_SECONDS) $(call q,$(CURDIR)/fuzz/corpus)
# valgrind decodes no AVX-512: memcheck gets its own build for x86-64-v3 (AVX2) in $(BUILD)/vg
memcheck:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/vg ARCH_FLAGS=-march=x86-64-v3 CUDA=0 $(BUILD)/vg/ddlbench
	BUILD=$(call q,$(BUILD)/vg) $(call envs,MPIRUN VALGRIND) sh tests/memcheck/memcheck.sh
faults: $(EXE) $(SIM_EXE)
	for t in faults resilience; do $(call envs,BUILD MPIRUN) sh tests/$$t.sh || exit 1; done
