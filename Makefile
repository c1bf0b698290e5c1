# The two commands a newcomer runs: `make run` and `make test`. Each installs missing Debian
# packages first (scripts/install-deps.sh), then configures and builds.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
# The images test (label images: builds and runs the container images, minutes even with a warm
# cache, ~20 min cold) runs in `make test-images`, not in `make test`; the 60 s libFuzzer run
# (label soak: a second, clang+sanitizer build of the judge, ~3 min on 2 CPUs) in `make bench`
# and `make fuzz-check`. `make test` keeps the fuzz regression replay (request_fuzz_replay).
CTEST_ARGS ?= -LE "images|soak"

.PHONY: all deps configure build run test test-images images bench bench-throughput validity fuzz fuzz-check format clean corpus-check adversarial

all: build

# CUDA=1: also Debian's CUDA toolkit (contrib non-free, ~5 GB), for the CUDA build tests.
CUDA ?= 0
deps:
	@CUDA=$(CUDA) scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: CMakeLists.txt | deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Starts the judge on 127.0.0.1:8800 (state in var/) and grades a few kernels with the demo client.
run: build
	@BUILD_DIR=$(BUILD_DIR) scripts/run-demo.sh

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The judge and agent OCI images (deploy/containers/Dockerfile) with buildah, from a Debian 12
# base made by mmdebstrap from deb.debian.org (no image registry): localhost/hpcab-{judge,agent}
# and their OCI archives and digests in var/images/. Warm cache: a second run reuses the base
# and the package layers. Needs root. Options: IMAGES_ARGS='--role judge', '--tag v1',
# '--no-archive', '--help' (scripts/make-images.sh); docs/deploy.md "Container images".
images: deps
	@scripts/make-images.sh $(IMAGES_ARGS)

# The images for real (tests/images/images_test.sh): make images, then the judge started from
# its image grades tsvc_2_s000 (ok, incorrect) and a Python gemm (ok) over HTTP, and /health
# names the image's digest. Skips where images cannot be built or run here.
test-images: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L images

# The whole corpus: reference.c against reference.py with the linter, then every reference
# resubmitted to a real judge at each precision (must be ok, never suspect). `make test` runs a
# fixed sample of the second part.
corpus-check: build
	@$(BUILD_DIR)/hpcab --corpus corpus corpus check --record corpus/checked.tsv
	@HPCAB_ALL_KERNELS=1 $(BUILD_DIR)/tests/judge_e2e_tests --gtest_filter='ReferenceE2E.*'

# Every attack of tests/adversarial against a judge with its default timed sizes (make test runs
# them at the presets, min_call_ms 0): each must still earn nothing. ~10 min on 2 CPUs.
adversarial: build
	@HPCAB_ADVERSARIAL_DEFAULTS=1 $(BUILD_DIR)/tests/adversarial_tests

# Figures: generator and comparator throughput, one /submit's latency breakdown and HTTP
# throughput under 64 connections against a private judge, then the bounded load test (64
# clients, 30 s, mixed /health /task /score), which fails on any 5xx or lost grade, then the
# outage drill (an identity arm whose judge is killed and restarted mid-arm; fails on a lost
# episode, a double grade or a success rate below 100%; DRILL_* variables shorten it, see
# scripts/outage-drill.sh), then the validity benchmark (below), then the throughput benchmark
# (below).
bench: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L soak
	@$(BUILD_DIR)/hpcab-bench
	@BUILD_DIR=$(BUILD_DIR) scripts/bench-judge.sh
	@BUILD_DIR=$(BUILD_DIR) LOAD_DURATION=30 LOAD_CLIENTS=64 scripts/load-judge.sh
	@BUILD_DIR=$(BUILD_DIR) scripts/outage-drill.sh
	@BUILD_DIR=$(BUILD_DIR) python3 scripts/validity.py $(VALIDITY_ARGS)
	@BUILD_DIR=$(BUILD_DIR) python3 scripts/bench-throughput.py $(BENCH_THROUGHPUT_ARGS)

# The throughput benchmark alone (also the last step of bench): per kernel class the overhead of
# /submit and /score, grades per hour of a mixed stream from 4 concurrent clients (latency, queue
# wait, the judge's CPU and memory) under three slot settings with the A/A credits, and the judges
# a campaign needs (docs/deploy.md "Sizing a campaign"); ~10-15 min on 2 CPUs. Prints figures (and
# $(BUILD_DIR)/bench-throughput.json), asserts nothing about them. Options:
# BENCH_THROUGHPUT_ARGS='--quick' (smoke, ~2-5 min), '--duration 300 --clients 8',
# '--original-url http://host:port' (side by side with an original judge), '--help'.
bench-throughput: build
	@BUILD_DIR=$(BUILD_DIR) python3 scripts/bench-throughput.py $(BENCH_THROUGHPUT_ARGS)

# The validity benchmark alone (also the last step of bench): references resubmitted (A/A),
# honest faster and 2x-slower candidates against their directly timed true ratios (A/B), /submit
# wall time and judge overhead, against a private judge with defaults; ~10-20 min on 2 CPUs.
# Prints figures (and $(BUILD_DIR)/validity.json), asserts nothing about them. Options:
# VALIDITY_ARGS='--quick' (smoke), '--aa 5 --ab 5', '--kernels tsvc_2_s000,relu', '--preset M',
# '--route score' (the same figures for /score, the route an agent iterates on), '--help'.
# LOAD=mem: the same run with a busy neighbour process streaming memory throughout.
validity: build
	@BUILD_DIR=$(BUILD_DIR) python3 scripts/validity.py $(if $(LOAD),--load $(LOAD)) $(VALIDITY_ARGS)

# libFuzzer over request parsing and body validation (clang build in $(BUILD_DIR)/fuzz) until
# Ctrl-C; new corpus in $(BUILD_DIR)/fuzz/corpus, crashes in $(BUILD_DIR)/fuzz/artifacts.
fuzz: deps
	@FUZZ_BUILD_DIR=$(BUILD_DIR)/fuzz scripts/fuzz.sh
# The same for 60 s with every regression input (ctest request_fuzz_60s, label soak; also the
# first step of bench): fails on a crash, a sanitizer report or a regression input failing again.
fuzz-check: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -L soak

format:
	@find common judge harness report tests -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	@rm -rf $(BUILD_DIR)
