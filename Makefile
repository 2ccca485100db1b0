# Only for the ShogiBench worker (nodchip/ShogiBench, Client/worker.py): when its
# ./shogitest-ob is missing or older than the server's shogitest_min_version, it downloads
# this repository, runs `make openbench` in it, and moves the binary `shogitest` it finds here
# to Client/shogitest-ob. Run under that name, saikoro reads shogitest's command line (see
# docs/farm.md). Everything else builds with cargo.
.RECIPEPREFIX = >
CARGO ?= cargo
CARGO_TARGET_DIR ?= target

ifeq ($(OS),Windows_NT)
    EXE ?= shogitest.exe
    BIN := saikoro.exe
else
    EXE ?= shogitest
    BIN := saikoro
endif

all:
> @echo "This Makefile is for the ShogiBench worker (make openbench); build with cargo build --release."
> @exit 1

openbench:
> $(CARGO) build --release --locked --target-dir "$(CARGO_TARGET_DIR)"
> cp "$(CARGO_TARGET_DIR)/release/$(BIN)" "$(EXE)"

.PHONY: all openbench
