# Two entry points, see README.md:
#   make demo   set up and run the main job on a bundled simulated machine
#   make test   set up and run the whole test suite
# and, for servers without a network, make wheelhouse (below).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup demo test bench clean wheelhouse

PYCHECK := import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)

$(STAMP): pyproject.toml setup.py
	@$(PYTHON) -c '$(PYCHECK)' || { echo "ascend-doctor needs Python >= 3.9, and $(PYTHON) is $$($(PYTHON) -V 2>&1); run make with PYTHON=python3.11 (or another 3.9+)"; exit 1; }
	@if [ -x $(BIN)/python ] && ! $(BIN)/python -c '$(PYCHECK)'; then echo "removing $(VENV): it was made with an older Python"; rm -rf $(VENV); fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# The main job on a bundled simulated machine: Linux 6.6 with HDK 25.5 and vLLM-Ascend, whose
# service hung while loading weights. check finds the risk; diagnose explains the pasted log.
# Then a simulated 64-node fleet whose rolling upgrade stopped after one rack: fleet finds what differs.
DEMO_SIM := kernel-6-hdk-25.5-weight-hang
DEMO_LOG := Loading safetensors checkpoint shards:   0% Completed | 0/163 [00:00<?, ?it/s]\nTimeoutError: Timed out waiting for engines to send initial message on input socket.

demo: $(STAMP)
	$(BIN)/ascend-doctor check --sim $(DEMO_SIM) --fail-on never
	printf '%b\n' '$(DEMO_LOG)' | $(BIN)/ascend-doctor diagnose --sim $(DEMO_SIM) --top 1 - || test $$? -eq 1
	$(BIN)/ascend-doctor explain 561000
	$(BIN)/ascend-doctor fleet --sim rolling-upgrade-64 || test $$? -eq 1

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Offline install (README, "Install on a server without a network"): every wheel ascend-doctor needs for one
# machine type and Python version in one folder, wheelhouse/ascend-doctor-<version>-py<X.Y>-<ARCH>/, with
# install.sh. ARCH: aarch64 (Kunpeng servers) or x86_64. WHEEL_PYTHON: an interpreter of the server's Python
# version (pip reads the dependencies' markers with the interpreter it runs in: python3.9 for openEuler 22.03).
# MANYLINUX: the newest glibc the wheels may need, 2_17 (manylinux2014) runs on every supported distribution.
ARCH         ?= $(shell uname -m)
WHEEL_PYTHON ?= $(PYTHON)
MANYLINUX    ?= 2_17

wheelhouse: $(STAMP)
	@set -e; \
	pyver=$$($(WHEEL_PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	version=$$($(BIN)/python -c 'import ascend_doctor; print(ascend_doctor.__version__)'); \
	dest=wheelhouse/ascend-doctor-$$version-py$$pyver-$(ARCH); \
	rm -rf $$dest; mkdir -p $$dest; \
	$(BIN)/python -m pip wheel --quiet --no-deps -w $$dest . 2>/dev/null || $(BIN)/python -m pip wheel --no-deps -w $$dest .; \
	$(WHEEL_PYTHON) -m pip download --quiet --only-binary=:all: --implementation cp --python-version $$pyver \
	    --platform manylinux_$(MANYLINUX)_$(ARCH) -d $$dest $$dest/ascend_doctor-*.whl; \
	cp diagnose/_pkg/wheelhouse-install.sh $$dest/install.sh; \
	echo $$pyver > $$dest/PYTHON_VERSION; echo $(ARCH) > $$dest/ARCH; \
	echo "wrote $$dest ($$(ls $$dest/*.whl | wc -l) wheels): copy the folder to the server and run sh install.sh there"

clean:
	rm -rf $(VENV) build *.egg-info
