# fairbench — the front door. `make help` lists the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# The pinned Node (.node-version) and Bun (scripts/setup.sh), installed by `make setup`, come first on PATH.
export PATH := $(CURDIR)/.cache/node/node_modules/node/bin:$(CURDIR)/.cache/bun/bin:$(PATH)

IMPL ?=
API ?=
IMAGES ?=
RUNTIME ?=
CONFORMANCE ?=
REPORT ?=
SHORT ?=
ONLY ?=
MUTANTS ?=
# make bench's and make k6-operator's options are declared once, in bench/src/plan/option-table.ts
# (make help lists them): the commands read them from the variables given to make, which make
# passes to the recipe as environment variables, so no recipe names them.
ifneq ($(RUNTIME),)
export FAIRBENCH_RUNTIME := $(RUNTIME)
endif
# A tools bundle for a machine that reaches neither the Go module proxy, PyPI nor Maven Central
# (make bundle writes one; docs/commands.md): make setup takes what it would build or download there from it.
TOOLS_BUNDLE ?=
export TOOLS_BUNDLE

# A test that hangs fails after 5 minutes instead of holding up the run, and the runner exits
# once the tests are done even if one leaked a server (its exit handler then kills it).
NODE_TEST := node --test --test-reporter=spec --test-timeout=300000 --test-force-exit
# Under make test (scripts/test.sh) also a TAP copy of the results ($(1): its file's name), for its closing counts.
NODE_TEST_TAP = $(if $(FAIRBENCH_TEST_RUN),--test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=$(FAIRBENCH_TEST_RUN)/$(1).tap)

# bench/test is by stage (bench/test/<stage>/*.test.ts, mirroring bench/src); hosts/ needs root
# and is make multi-host's, fixtures/ holds no tests.
BENCH_TESTS := $(sort $(filter-out bench/test/hosts/%,$(wildcard bench/test/*/*.test.ts)))
# The stages whose tests start no load generator and time no window run two files at once with the
# harness's; the others (execute, load, calibration, and any stage added later) one at a time.
BENCH_TESTS_UNTIMED := $(sort $(wildcard $(patsubst %,bench/test/%/*.test.ts,checklist cli k6-operator plan record report stats)))
BENCH_TESTS_TIMED := $(filter-out $(BENCH_TESTS_UNTIMED),$(BENCH_TESTS))

.PHONY: help setup bundle images images-if-possible test lint unit harness-tests conformance pact pact-mutants cheats mutants fuzz resilience serve bench calibrate bench-smoke lab-up lab-down multi-host k6-operator k6-operator-merge report screenshot options papers papers-page matrix readme checklist work-table clean

help: ## List the targets
	@echo "  make bench IMPL=express API=forum   the standard profile (docs/commands.md says how long): a representative subset with intervals and verdicts; report: results/report/<runId>.html"
	@echo "  make bench IMPL=express,hapi  the two side by side on the APIs both serve; PROFILE=quick (= QUICK=1) a smoke run of the pipeline whose numbers mean nothing (its length: the plan it prints first), PROFILE=paper the full published matrix"
	@echo "  make bench IMPL=express,express@bun API=forum   runtimes as an axis: <impl>@<variant> is the implementation on another runtime its impl.yaml declares (express@bun, spring@jdk21)"
	@echo "  make bench IMPL=express:main,express API=forum   revisions as an axis: <impl>:<revision> is the implementation's folder at a git revision (a change against the code before it, in one run)"
	@echo "  make bench IMPL=express~5.2.1,express API=forum  framework versions as an axis: <impl>~<version> pins its framework package (impl.yaml framework.package) in a copy"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {printf "  \033[1m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)
	@echo
	@echo "  Variables: IMPL=express[,…] (or express@bun: a runtime variant, impl.yaml variants; express:main: at a git revision; express~5.2.1: its framework package at another version)  API=forum[,…]  RUNTIME=local|containers  IMAGES=node[,…]  DB_POOL_SIZE=100"
	@if [ -x .cache/node/node_modules/node/bin/node ]; then node bench/src/cli/options.ts; else echo "  make bench's and make k6-operator's options: bench/docs/options.md (after make setup, make help lists them here)"; fi
	@echo "  make bench: a stress case (e.g. sports' CASES=rest/closed/stress) ramps until its stop conditions or its cap, then checks the recovery; QUICK=1 runs its scaled-down shape"
	@echo "              exit code 3 = finished, some cases failed (make shows: Error 3)"
	@echo "  Usage errors (an unknown IMPL or API, a value out of range) are one line naming the accepted values, exit code 2 (make shows: Error 2)"
	@echo "  Environment: FAIRBENCH_IMAGES=official uses the registry's official images instead of make images'"

setup: ## Install everything (apt packages incl. Podman and Chromium, pinned Node, npm workspaces, FerretDB, Schemathesis, k6, Bun, Temurin 21 for spring@jdk21); idempotent, cached; TOOLS_BUNDLE=<dir> takes what comes from the Go module proxy, PyPI and Maven Central from a tools bundle
	@bash scripts/setup.sh
	@node harness/src/cli/reap.ts

bundle: setup ## Write a tools bundle (the Go binaries, impl/spring's Maven repository, the Python wheels, SHA256SUMS) into .cache/tools-bundle, for make setup TOOLS_BUNDLE= on a machine that cannot reach those registries
	@bash scripts/tools-bundle.sh make .cache .cache/tools-bundle
	@echo "tools bundle: $(CURDIR)/.cache/tools-bundle ($$(du -sh .cache/tools-bundle | cut -f1)); copy it to the other machine and run make setup TOOLS_BUNDLE=<its path> there"

test: ## Everything CI runs: set-up, lint, images, harness tests, then in one pool of lanes (two at once, never two of one implementation, docs/testing.md) each implementation's own tests, the mutation check (each planted defect against the cases that must catch it), fuzzing (short form), conformance of every implementation (in containers when a runtime works), resilience (short form, each implementation once per database), the k6 scripts' pacts, their verification and the defects only they catch, the QUICK forum benchmark across network namespaces (make multi-host) and the QUICK benchmark smoke (a lane per API: its first implementation, or each where the API's smoke says everyImplementation); at the end each phase's time and the counts of what it checked (results/test-run/)
	@bash scripts/test.sh

images: setup ## Build the containers runtime's local images (Debian by debootstrap; node, java, bun, mariadb, postgresql, ferretdb); cached by input hash
	@node harness/src/cli/images.ts $(IMAGES)

# make test: the images where Podman works; where it does not, a loud line and the local runtime.
images-if-possible: setup
	@node harness/src/cli/images.ts --if-possible

lint: setup ## Lint the specs (Redocly, graphql-js), typecheck the harness (tsc --strict), its format (Prettier), code (ESLint) and layering (dependency-cruiser: no runtime import circle, nothing below apis/ imports it, harness imports nothing above it, conformance neither pact nor bench, bench/src/stats no other bench folder, bench/src by stage) and layout (at most 15 source files a folder, every workspace import declared), the paths that docs, comments, schema descriptions and YAML name (each must exist; docs/testing.md), lint the GitHub workflow (actionlint + shellcheck)
	@node_modules/.bin/redocly lint spec/openapi.yaml --config spec/redocly.yaml --format stylish
	@node conformance/src/cli/lint-graphql.ts
	@node_modules/.bin/tsc -p tsconfig.json
	@echo "typecheck: ok"
	@node_modules/.bin/prettier --check --log-level warn '{apis,bench,conformance,harness,pact}/**/*.{ts,js}' && echo "format: ok"
	@node_modules/.bin/eslint --max-warnings 0 apis bench conformance harness pact && echo "eslint: ok"
	@node_modules/.bin/depcruise apis bench conformance harness pact --config .dependency-cruiser.cjs --output-type err
	@node harness/src/cli/check-paths.ts
	@node harness/src/cli/lint-layout.ts
	@.cache/bin/actionlint
	@echo "workflows: ok"

unit: harness-tests ## The harness tests (make harness-tests), then each implementation's own tests
	@node harness/src/cli/impl-tests.ts

harness-tests: setup ## Harness tests: the harness's, the suite's, the contracts' and the benchmark's untimed stages two files at once, then the APIs' and the benchmark's stages that time k6 windows one at a time (seeding, MariaDB/PostgreSQL/FerretDB provisioning local and in containers, processes, case files, bench runner and profiles, statistics, report and its browser test in headless Chromium)
	@$(NODE_TEST) $(call NODE_TEST_TAP,harness-tests-1) --test-concurrency=2 harness/test/*.test.ts harness/test/*/*.test.ts conformance/test/*.test.ts pact/test/*.test.ts $(BENCH_TESTS_UNTIMED)
	@$(NODE_TEST) $(call NODE_TEST_TAP,harness-tests-2) --test-concurrency=1 apis/*/test/*.test.ts $(BENCH_TESTS_TIMED)

conformance: setup ## Run the conformance suite (IMPL=…, API=…, RUNTIME=local|containers; default: containers when a runtime works); writes results/conformance/
	@node conformance/src/cli/conformance.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API))

pact: setup ## Contract tests: each API's k6 script against its pact (Pact's mock server), then provider verification of IMPL × API (default: every pair); writes results/pact/ and the matrix's pact columns; PACT_BROKER_URL optional
	@node pact/src/cli/pact.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API))

pact-mutants: setup ## Contract mutation check: each defect in apis/*/pact/mutants/<impl>.yaml (IMPL=… picks implementations) must fail its provider verification; CONFORMANCE=1 also runs the suite on each (does it catch it too?); SHORT=1 (make test) only the defects the suite misses
	@node pact/src/cli/mutants.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API)) $(if $(filter 1 true yes,$(CONFORMANCE)),--conformance) $(if $(filter 1 true yes,$(SHORT)),--short)

cheats: setup ## Planted cheats: each of apis/*/cheats/<impl>.yaml (IMPL=…, API=… pick) benchmarked as make bench IMPL=<impl>+<cheat> QUICK=1 would, without the database-alone cases: the gate must pass it (conformance misses it) and the run must fail its case with missing work (proof of work catches it)
	@node bench/src/cli/cheats.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API))

mutants: setup ## Mutation check: the suite must fail on each defect in apis/*/conformance/mutants/<impl>.yaml (API=x: only that API's; IMPL=y: only that implementation's; MUTANTS=id,…: only those defects)
	@node conformance/src/cli/mutants.ts $(if $(API),--api $(API)) $(if $(IMPL),--impl $(IMPL)) $(if $(MUTANTS),--mutant $(MUTANTS))

fuzz: setup ## Property-based fuzzing (Schemathesis) of IMPL against the specs; FUZZ_SEED=1 by default; SHORT=1 make test's short form (10 examples per operation, not 100)
	@node conformance/src/cli/fuzz.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API)) $(if $(filter 1 true yes,$(SHORT)),--short)

resilience: setup ## Resilience scenarios (database stall, lost writes, SIGTERM; conformance/resilience/scenarios.yaml) for IMPL × API on local databases; SHORT=1 the short form, MUTANTS=1 its planted defects; writes results/conformance/<impl>/<api>.resilience.json
	@node conformance/src/cli/resilience.ts $(if $(IMPL),--impl $(IMPL)) $(if $(API),--api $(API)) $(if $(filter 1 true yes,$(SHORT)),--short) $(if $(ONLY),--only $(ONLY)) $(if $(filter 1 true yes,$(MUTANTS)),--mutants)

serve: setup ## Run IMPL on a freshly seeded database for API (conformance data) until Ctrl-C
	@node conformance/src/cli/serve.ts --impl '$(IMPL)' --api '$(API)'

bench: setup ## Benchmark IMPL (or IMPL=a,b, alternating) on every API it serves, or on API=… (gate, seed, k6, baseline; the HTML report, CSV and verdicts at the end); its options are listed below
	@node bench/src/cli/bench.ts

calibrate: setup ## The harness against known differences: a calibration server (bench/src/calibration/, no implementation) A/B at EXTRA=0,5,10 % more CPU per request, COMPARISONS=20,10,10 each, PAIRS=12 interleaved slices of SLICE=1.5 s, the first GUARD=0.3 s of each left out (bench/docs/precision.md)
	@node bench/src/cli/calibrate.ts $(if $(EXTRA),--extra '$(EXTRA)') $(if $(COMPARISONS),--comparisons '$(COMPARISONS)') $(if $(PAIRS),--pairs $(PAIRS)) \
	  $(if $(SLICE),--slice $(SLICE)) $(if $(GUARD),--guard $(GUARD)) $(if $(WARMUP),--warmup $(WARMUP)) $(if $(VUS),--vus $(VUS)) $(if $(COST_US),--cost-us $(COST_US)) $(if $(PIN),--pin $(PIN))

bench-smoke: setup ## The QUICK benchmark of each API's smoke cases (bench.smoke in its api.yaml) for every implementation that serves it (make test: the first implementation of each API, or each where its smoke says everyImplementation)
	@node bench/src/cli/smoke.ts

lab-up: setup ## A network lab on this machine for TOPOLOGY= (root): database, implementation and GENERATORS (default 2) load generators each in its own network namespace; writes results/lab/topology.yaml (docs/several-machines.md)
	@node bench/src/cli/lab.ts up $(if $(GENERATORS),--generators $(GENERATORS))

lab-down: setup ## Remove the network lab make lab-up made
	@node bench/src/cli/lab.ts down

multi-host: setup ## The QUICK forum benchmark across network namespaces (database, implementation, two k6 instances sharing the load by execution segments, one reached over SSH), its merged result against a single-instance run, and no namespace left (root; skipped loudly otherwise)
	@$(NODE_TEST) bench/test/hosts/*.test.ts

k6-operator: setup ## Write k6-operator TestRuns (ConfigMap with the k6 archive + TestRun) of API's cases for a Kubernetes cluster (API BASE_URL PARALLELISM and the options below); writes results/k6-operator/<api>/<runId>/, nothing runs here
	@node bench/src/cli/k6-operator.ts

k6-operator-merge: setup ## Merge a k6-operator TestRun's runner results copied from the claim (DIR=<the case's directory>: <TestRun>-<i>/summary.json + samples.csv each) exactly, as make bench merges its k6 instances; prints the figures, writes DIR/merged.json
	@node bench/src/cli/k6-operator-merge.ts $(if $(DIR),--dir '$(DIR)')

papers: setup ## Check every paper's claims (apis/*/bench/claims.yaml): each paper's pair with PROFILE=papers (its time: docs/commands.md; a paper whose docs/papers/<api>.json is current is skipped, a stopped run resumed; API=<api>: that paper alone), then docs/papers.md and the README's line
	@node bench/src/cli/papers.ts $(if $(API),--api $(API))

options: setup ## Rewrite the options table of bench/docs/options.md from bench/src/plan/option-table.ts (the one declaration of make bench's and make k6-operator's options)
	@node bench/src/cli/options.ts --docs

papers-page: ## Regenerate docs/papers.md and the README's line from the committed compact results docs/papers/*.json alone (runs nothing; an auditor's diff)
	@node bench/src/cli/papers.ts --page

matrix: ## Print the compliance matrix from the verdicts in results/conformance/ and results/pact/ (a pact and a resilience column per API)
	@cat results/conformance/matrix.md 2>/dev/null || echo "no verdicts yet: run make conformance"

work-table: ## The work per answer each implementation did in the runs under results/bench, per served case and database counter, beside the API's work model (proof of work; RUN=<runId>, else each implementation's newest run per API; API=…)
	@node bench/src/cli/work-table.ts $(if $(API),--api $(API)) $(if $(RUN),--run $(RUN))

checklist: ## What adding IMPL=<name> still lacks: every step of docs/adding-an-implementation.md (per API where it is one) with its state, done, missing or stale (a verdict the gate would not reuse), why, and the command that does it; runs nothing, also before impl/<name> exists
	@node bench/src/cli/checklist.ts --impl '$(IMPL)'

readme: setup ## Copy the compliance matrix (as make matrix prints it, from the verdicts on disk) into the README's generated block; a cell no verdict on disk renews (a pair not run in this clone) keeps its previous text
	@node conformance/src/cli/readme.ts

report: setup ## Render every result under results/bench/ into results/report/index.html (static, self-contained) and print its path
	@node bench/src/cli/report.ts

screenshot: setup ## Photograph a rendered report in headless Chromium into docs/report.png (the README's picture): REPORT=results/report/<runId>.html, default the newest
	@node bench/src/cli/screenshot.ts $(if $(REPORT),--report '$(REPORT)')

clean: ## Remove results and run state (keeps the caches of slow builds)
	rm -rf results .cache/run
