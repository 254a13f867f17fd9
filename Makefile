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
REAL_ONLY := $(filter-out $(SIM_ONLY),$(wildcard kernels/gemm_*.c kernels/mem_*.c kernels/compute_*.c harness/comm_engine_*.c))

LIB_SRC   := $(wildcard collectives/*.c) $(filter-out $(SIM_ONLY),$(wildcard kernels/reduce*.c kernels/half*.c))
KERN_SRC  := $(filter-out $(LIB_SRC) $(SIM_ONLY),$(wildcard kernels/*.c))
HARN_SRC  := $(filter-out harness/main.c $(SIM_ONLY),$(wildcard harness/*.c))
TEST_SRC  := $(wildcard tests/test_*.c)

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
	@echo "  bench          allreduce sweep 1K-256M at 2 and 4 ranks (all algorithms + Open MPI ring/Rabenseifner)"
	@echo "                 and the reduction-kernel benchmark -> results/bench/ (docs/BENCHMARKS.md)"
	@echo "  clean          remove $(BUILD)/"
	@echo "  help           this text"
	@echo
	@echo "Variables:"
	@echo "  MPICC=$(MPICC)   MPI compiler wrapper (MPICH: MPICC=mpicc.mpich MPIRUN=mpirun.mpich BUILD=build/mpich)"
	@echo "  MPIRUN=$(MPIRUN)  MPI launcher used by the tests"
	@echo "  BUILD=$(BUILD)   output folder"
	@echo "  SANITIZE=1      AddressSanitizer + UndefinedBehaviorSanitizer build (in $$(BUILD)/san)"
	@echo "  ARCH_FLAGS=$(ARCH_FLAGS)  target flags for the vectorised kernels"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- Benchmarks (docs/BENCHMARKS.md) ------------------------------------------------------------
# `make bench`: harness/bench.sh runs `ddlbench kernels` and the `ddlbench allreduce` sweeps and
# writes results/bench/allreduce.csv plus the ratio table against MPI_Allreduce.
.PHONY: bench
bench: $(EXE)
	BUILD="$(BUILD)" MPIRUN="$(MPIRUN)" sh harness/bench.sh
