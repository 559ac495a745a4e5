# The two commands of the README: `make run` and `make test`.
.PHONY: setup run serve sim test lint package

CARGO ?= cargo

setup:
	@scripts/setup.sh

# The desktop window where there is a display, the headless server otherwise.
run: setup
	$(CARGO) run --release -- $(ARGS)

# A simulated UCS Manager on 127.0.0.1:9000 (admin / password), to try everything without hardware.
sim:
	$(CARGO) run --release -p bootsmith-sim -- $(ARGS)

# The headless server only.
serve: setup
	$(CARGO) run --release -- serve $(ARGS)

# bootsmith_<version>_amd64.deb and the .rpm (Tauri's bundler, from a release build); the
# script prints where they are.
package: setup
	scripts/package.sh

lint:
	cd ui && npm run --silent check
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	PKG_CONFIG_LIBDIR=/nonexistent $(CARGO) clippy --workspace --all-targets --no-default-features -- -D warnings

# Everything: lint (Rust and the web interface's types), the web interface's unit tests, the
# data key in a real OS keyring, unit and integration tests, the headless build (no WebKit at
# all), the REST API against its OpenAPI document (Schemathesis, on loopback only), a Python
# client generated from that document running the walkthrough and TypeScript compiled against
# the types generated from it (scripts/client-test.sh), and the real-window test under a
# virtual display; then the packages: built, linted, installed, upgraded, served and removed
# on this machine (scripts/package-test.sh).
test: setup lint
	cd ui && npm test
	scripts/keyring-test.sh
	@# sushy-tools, the Redfish emulator the Redfish tests run against: named here, so they
	@# fail rather than skip when it is missing (run alone, without it, they skip loudly).
	@# pykickstart's ksvalidator, which every kickstart Bootsmith makes must pass: named the same way.
	BOOTSMITH_SUSHY_PYTHON=$$(scripts/redfish-venv.sh) BOOTSMITH_KSVALIDATOR=$$(scripts/pykickstart-venv.sh) PKG_CONFIG_LIBDIR=/nonexistent scripts/cargo-test.sh --workspace --no-default-features
	scripts/api-fuzz.sh
	scripts/client-test.sh
	BOOTSMITH_SUSHY_PYTHON=$$(scripts/redfish-venv.sh) BOOTSMITH_KSVALIDATOR=$$(scripts/pykickstart-venv.sh) xvfb-run -a -s "-screen 0 1280x900x24" scripts/cargo-test.sh --workspace
	scripts/package-test.sh
