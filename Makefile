# Builds Plugboard as OpenBench's workers build an engine: `make -j EXE=NAME`
# in this folder, then they move the file NAME alone into their Engines folder.
# The bundled plugins stay in PLUGINS, whose path is built into NAME, so NAME
# finds them wherever it goes. `ARGS` are built in as the first command-line
# arguments, since OpenBench runs the engine with none: `ARGS="--eval nnue"`
# tests the network, `ARGS="--search mysearch"` a search plugin of your own.
# `EVALFILE=FILE` (OpenBench's network field) adds `--eval nnue --option
# EvalFile=FILE`. CC/CXX, which OpenBench may pass, are not used: cargo builds.
#
#     make EXE=plugboard-dev ARGS="--eval nnue"
#     ./plugboard-dev bench       # the signature and speed, last line "N nodes M nps"
EXE ?= plugboard
ARGS ?=
ifneq ($(strip $(EVALFILE)),)
ARGS += --eval nnue --option EvalFile=$(abspath $(EVALFILE))
endif
PLUGINS ?= $(HOME)/.cache/plugboard/openbench/$(notdir $(EXE))-plugins

.PHONY: all
all:
	PLUGBOARD_BUNDLED_PLUGINS="$(abspath $(PLUGINS))" PLUGBOARD_DEFAULT_ARGS="$(strip $(ARGS))" cargo build --release
	mkdir -p "$(PLUGINS)"
	cp target/release/libplugboard_*.so "$(PLUGINS)/"
	cp target/release/plugboard "$(EXE)"
