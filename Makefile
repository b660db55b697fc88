# Two commands do all the set-up on a fresh machine: `make demo` and `make test`.
PY ?= python3
OUT ?= out
EXAMPLE ?= ldraw_models/tank.mpd

.PHONY: setup demo test bench clean

# System libraries (open3d needs libusb; off-screen VTK uses EGL with Mesa; the HTML test uses Chromium),
# then brikscan itself with its test tools. Re-running is cheap: installed packages are skipped.
setup:
	@missing=$$(for p in $$(cat .ci/apt-packages.txt); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing system packages: $$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	$(PY) -m pip install -q --disable-pip-version-check -e ".[test]"

# The main job on a bundled example, offline and without an LDraw library: the stat card, a render, and
# the HTML card (open $(OUT)/tank-card.html in a browser).
demo: setup
	@mkdir -p $(OUT)
	brikscan info $(EXAMPLE)
	brikscan stats $(EXAMPLE) --card $(OUT)/tank-card.html
	brikscan view $(EXAMPLE) --roles --png $(OUT)/tank-roles.png
	@echo "demo outputs in $(OUT)/"

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) bench/run.py

clean:
	rm -rf $(OUT) .pytest_cache build *.egg-info
