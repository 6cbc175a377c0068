package launch

import (
	"strings"
	"testing"
)

// TestScopeCargoConfigPaths: the file cargo runs for each program its
// configuration names, by cargo's rule ("Config-relative paths"), each
// checked with cargo 1.95 started in a subdirectory (SECURITY.md, "What a
// runner reads"): a path with a slash in a configuration file is relative
// to the parent of the directory holding the file, as cargo spells the
// file's path (an included file's own, "../x.toml" included); one from
// --config KEY=VALUE or a variable is relative to the working directory;
// rustflags' paths are rustc's, relative to the workspace root.
func TestScopeCargoConfigPaths(t *testing.T) {
	crate := func(m mapFS) mapFS {
		m["Cargo.toml"] = "[package]"
		m["src/main.rs"] = "fn main(){}"
		return m
	}
	wrap := "[build]\nrustc-wrapper = \"tools/w.sh\"\n"
	sh := "#!/bin/sh\n. ./tools/common.sh\n"
	runScopeCases(t, []scopeCase{
		{name: "an included file's paths are relative to its own directory's parent", cmd: "cargo", args: []string{"run"}, launch: "srv",
			fs:     crate(mapFS{".cargo/config.toml": "include = [\"sub/inc.toml\"]\n", ".cargo/sub/inc.toml": wrap, ".cargo/tools/w.sh": "x", "tools/w.sh": "x"}),
			has:    []string{"F .cargo/sub/inc.toml", "F* .cargo/tools/w.sh"},
			hasNot: []string{"F* tools/w.sh", "T ./"}},
		{name: "include ../x.toml: cargo takes the parent lexically (.cargo)", cmd: "cargo", args: []string{"run"},
			fs:     crate(mapFS{".cargo/config.toml": "include = [\"../x.toml\"]\n", "x.toml": wrap + "[env]\nP = { value = \"lib/p.so\", relative = true }\n", ".cargo/tools/w.sh": "x", "tools/w.sh": "x"}),
			has:    []string{"F x.toml", "F* .cargo/tools/w.sh", "F .cargo/lib/p.so"},
			hasNot: []string{"F* tools/w.sh", "F lib/p.so", "T ./"}},
		{name: "include ../cfg/x.toml: its paths are the repository root's", cmd: "cargo", args: []string{"run"},
			fs:     crate(mapFS{".cargo/config.toml": "include = [{ path = \"../cfg/x.toml\", optional = true }]\n", "cfg/x.toml": wrap, "tools/w.sh": "x"}),
			has:    []string{"F cfg/x.toml", "F* tools/w.sh"},
			hasNot: []string{"F* cfg/tools/w.sh", "T ./"}},
		{name: "rustc-wrapper is one path, spaces and all", cmd: "cargo", args: []string{"run"},
			fs:     crate(mapFS{".cargo/config.toml": "[build]\nrustc-wrapper = \"tools/my wrap.sh\"\n", "tools/my wrap.sh": sh}),
			has:    []string{"F* tools/my wrap.sh", "F* tools/common.sh"},
			hasNot: []string{"F* tools/my", "T ./"}},
		{name: "a runner string is a program and its arguments", cmd: "cargo", args: []string{"run"},
			fs:     crate(mapFS{".cargo/config.toml": "[target.'cfg(unix)']\nrunner = \"tools/my run.sh\"\n", "tools/my": "x"}),
			has:    []string{"F* tools/my", "F run.sh"},
			hasNot: []string{"F* tools/my run.sh", "T ./"}},
		{name: "a linker list is refused by cargo: nothing runs", cmd: "cargo", args: []string{"run"},
			fs:     crate(mapFS{".cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\nlinker = [\"tools/ld\", \"-v\"]\n", "tools/ld": "x"}),
			hasNot: []string{"F* tools/ld", "T ./"}},
		{name: "rustflags' linker is relative to the workspace root rustc starts in", cmd: "cargo", args: []string{"run"}, launch: "crate/src",
			fs: mapFS{"crate/Cargo.toml": "[package]", "crate/src/main.rs": "fn main(){}", ".cargo/config.toml": "[build]\nrustflags = [\"-C\", \"linker=tools/ld\", \"-L\", \"native\"]\n",
				"crate/tools/ld": sh},
			has:    []string{"F* crate/tools/ld", "F crate/src/tools/ld", "F tools/ld", "F crate/native", "F* crate/tools/common.sh"},
			hasNot: []string{"T ./"}},
		{name: "credential providers run with their arguments", cmd: "cargo", args: []string{"run"},
			fs: crate(mapFS{".cargo/config.toml": "[registry]\nglobal-credential-providers = [\"cargo:token\", \"tools/g.sh --x\"]\n" +
				"[registries.x]\ncredential-provider = [\"tools/c.sh\", \"--y\"]\n[credential-alias]\nmine = \"tools/a.sh -z\"\n",
				"tools/g.sh": "x", "tools/c.sh": "x", "tools/a.sh": "x"}),
			has:    []string{"F* tools/g.sh", "F* tools/c.sh", "F* tools/a.sh"},
			hasNot: []string{"T ./"}},
		{name: "a custom target specification names a linker that is not followed", cmd: "cargo", args: []string{"run"},
			fs:  crate(mapFS{".cargo/config.toml": "[build]\ntarget = \"specs/t.json\"\n", "specs/t.json": "{}"}),
			has: []string{"F specs/t.json", "T ./"}, gap: true},
		{name: "variables name programs relative to the working directory", cmd: "cargo", args: []string{"run"}, launch: "srv",
			env: map[string]string{"RUSTC_WRAPPER": "tools/w.sh", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER": "tools/run.sh -q",
				"CARGO_BUILD_RUSTC": "tools/my rustc", "RUSTFLAGS": "-Clinker=tools/ld"},
			fs:     crate(mapFS{"srv/tools/w.sh": sh, "srv/tools/run.sh": "x", "srv/tools/my rustc": "x", "tools/ld": "x"}),
			has:    []string{"F* srv/tools/w.sh", "F* srv/tools/common.sh", "F* srv/tools/run.sh", "F* srv/tools/my rustc", "F* tools/ld"},
			hasNot: []string{"T ./"}},
		{name: "CARGO_HOME in the repository: its config.toml, relative to CARGO_HOME's parent", cmd: "cargo", args: []string{"run"}, launch: "srv",
			env: map[string]string{"CARGO_HOME": "home/.cargo-home"},
			fs:  crate(mapFS{"srv/home/.cargo-home/config.toml": wrap, "srv/home/tools/w.sh": "x"}),
			has: []string{"F srv/home/.cargo-home/config.toml", "F* srv/home/tools/w.sh"}, hasNot: []string{"T ./"}},
		{name: "--config KEY=VALUE is relative to the working directory, before or after run", cmd: "cargo", launch: "srv",
			args: []string{"--config", "build.rustc-wrapper=\"tools/w.sh\"", "run", "--config=target.'cfg(all())'.runner=\"tools/r.sh\""},
			fs:   crate(mapFS{"srv/tools/w.sh": "x", "srv/tools/r.sh": "x"}),
			has:  []string{"F* srv/tools/w.sh", "F* srv/tools/r.sh"}, hasNot: []string{"F* tools/w.sh", "T ./"}},
		{name: "--config FILE is a configuration file, relative to its directory's parent", cmd: "cargo", launch: "srv",
			args: []string{"--config", "../cfg/x.toml", "run"},
			fs:   crate(mapFS{"cfg/x.toml": wrap, "tools/w.sh": "x"}),
			has:  []string{"F cfg/x.toml", "F* tools/w.sh"}, hasNot: []string{"F* srv/tools/w.sh", "T ./"}},
		{name: "--config FILE that is absent is bound: one appearing changes what cargo reads", cmd: "cargo",
			args: []string{"--config", "extra.toml", "run"}, fs: crate(mapFS{}),
			has: []string{"F extra.toml"}, hasNot: []string{"T ./"}},
		{name: "the program's own --config after -- is not cargo's", cmd: "cargo", args: []string{"run", "--quiet", "--", "--config", "build.rustc=\"tools/x\""},
			fs: crate(mapFS{}), hasNot: []string{"F* tools/x", "T ./"}},
		{name: "cargo +toolchain run", cmd: "cargo", args: []string{"+nightly", "run"},
			fs: crate(mapFS{}), has: []string{"C* ./ (rust code)", "F .cargo/config.toml"}},
		// rustup 1.29 ran each toolchain; it refuses a relative path.
		{name: "cargo +/proc/self/cwd/tc run runs the repository's toolchain", cmd: "cargo", args: []string{"+/proc/self/cwd/tc", "run"}, launch: "srv",
			fs: crate(mapFS{"srv/tc/bin/cargo": "x"}), has: []string{"T* srv/tc/", "C* ./ (rust code)"}, hasNot: []string{"T ./"}},
		{name: "RUSTUP_TOOLCHAIN names a toolchain by path", cmd: "cargo", args: []string{"run"},
			env: map[string]string{"RUSTUP_TOOLCHAIN": "/proc/self/cwd/tc"},
			fs:  crate(mapFS{"tc/bin/cargo": "x"}), has: []string{"T* tc/"}, hasNot: []string{"T ./"}},
		{name: "the one-line rust-toolchain names a toolchain by path", cmd: "cargo", args: []string{"run"}, launch: "srv",
			fs:  crate(mapFS{"rust-toolchain": "/proc/self/cwd/../tc\n", "tc/bin/cargo": "x"}),
			has: []string{"T* tc/"}, hasNot: []string{"T ./"}},
		// cargo 1.95 ran each alias from a crate's src/; one named like a
		// built-in is ignored (it warns).
		{name: "an alias the configuration defines runs what it expands to", cmd: "cargo", args: []string{"serve", "--x"}, launch: "srv",
			fs:  crate(mapFS{".cargo/config.toml": "[alias]\nserve = \"run --quiet\"\nxtask = [\"run\", \"--package\", \"xtask\", \"--\"]\n"}),
			has: []string{"C* ./ (rust code)", "F srv/.cargo/config.toml"}},
		{name: "an alias as a list", cmd: "cargo", args: []string{"xtask", "mcp"},
			fs:  crate(mapFS{".cargo/config.toml": "[alias]\nxtask = [\"run\", \"--package\", \"xtask\", \"--\"]\n"}),
			has: []string{"C* ./ (rust code)"}},
		{name: "an alias through a variable or --config", cmd: "cargo", args: []string{"--config", "alias.s=\"zz\"", "s"},
			env: map[string]string{"CARGO_ALIAS_ZZ": "run -q"}, fs: crate(mapFS{}),
			has: []string{"C* ./ (rust code)"}},
		{name: "an alias that loops ends", cmd: "cargo", args: []string{"x1"},
			fs: crate(mapFS{".cargo/config.toml": "[alias]\nx1 = \"x2\"\nx2 = \"x1 --x\"\n"}), hasNot: []string{"C* ./ (rust code)", "T ./"}},
		{name: "an alias of an alias", cmd: "cargo", args: []string{"x1"},
			fs: crate(mapFS{".cargo/config.toml": "[alias]\nx1 = \"x2 --x\"\nx2 = [\"r\"]\n"}), has: []string{"C* ./ (rust code)"}},
		{name: "an alias cannot shadow a built-in", cmd: "cargo", args: []string{"tree"},
			fs: crate(mapFS{".cargo/config.toml": "[alias]\ntree = \"run\"\n"}), hasNot: []string{"C* ./ (rust code)"}},
		{name: "cargo build runs the build scripts too", cmd: "cargo", args: []string{"build", "--release"},
			fs:  crate(mapFS{".cargo/config.toml": wrap, "tools/w.sh": "x"}),
			has: []string{"C* ./ (rust code)", "F* tools/w.sh"}},
		{name: "a cargo plugin from PATH is the user's own", cmd: "cargo", args: []string{"shuttle", "run"},
			fs:  crate(mapFS{".cargo/config.toml": wrap, "tools/w.sh": "x"}),
			has: []string{"F .cargo/config.toml"}, hasNot: []string{"C* ./ (rust code)", "T ./"}},
		{name: "cargo --color always run", cmd: "cargo", args: []string{"--color", "always", "run"},
			fs: crate(mapFS{}), has: []string{"C* ./ (rust code)", "F .cargo/config.toml"}},
		{name: "cargo -C DIR run reads DIR's configuration", cmd: "cargo", args: []string{"-Zunstable-options", "-C", "srv", "run"},
			fs:  crate(mapFS{"srv/.cargo/config.toml": wrap, "srv/tools/w.sh": "x"}),
			has: []string{"F srv/.cargo/config.toml", "F* srv/tools/w.sh"}},
	})
}

// TestScopeCargoSubcommands holds what cargo 1.95 was seen to run for
// each subcommand, in a crate whose .cargo/config.toml sets
// build.rustc-wrapper (and again with build.rustc, and RUSTC_WRAPPER):
// metadata, tree, fetch, clean, info, add, remove, update,
// generate-lockfile, vendor and the subcommands that build started the
// wrapper (rustc -vV, the target query); help, version, pkgid,
// locate-project, read-manifest, verify-project, new, init, uninstall,
// config and metadata --no-deps started nothing. A subcommand not seen
// to start nothing binds the programs the configuration names, an
// unknown one too; rustup's proxy runs the toolchain rust-toolchain.toml
// names for every one (rustup 1.29: cargo version ran it).
func TestScopeCargoSubcommands(t *testing.T) {
	crate := mapFS{"Cargo.toml": "[package]", "src/main.rs": "fn main(){}", ".cargo/config.toml": "[build]\nrustc-wrapper = \"tools/w.sh\"\n", "tools/w.sh": "x"}
	with := crate.with
	wrapper := "F* tools/w.sh"
	code := "C* ./ (rust code)"
	var cases []scopeCase
	for _, sub := range []string{"metadata", "tree", "fetch", "clean", "info", "add", "remove", "update", "generate-lockfile", "vendor",
		"fmt", "login", "logout", "owner", "yank", "search", "report", "some-plugin"} {
		cases = append(cases, scopeCase{name: "cargo " + sub + " starts the wrapper", cmd: "cargo", args: []string{sub},
			fs: with(nil), has: []string{wrapper}, hasNot: []string{code, "T ./"}})
	}
	for _, sub := range [][]string{{"help"}, {"version"}, {"pkgid"}, {"locate-project"}, {"read-manifest"}, {"verify-project"},
		{"new", "x"}, {"init"}, {"uninstall", "x"}, {"-Zunstable-options", "config", "get"}, {"metadata", "--format-version", "1", "--no-deps"},
		{"--version"}, {"--list"}} {
		cases = append(cases, scopeCase{name: "cargo " + strings.Join(sub, " ") + " starts nothing", cmd: "cargo", args: sub,
			fs: with(nil), hasNot: []string{wrapper, code, "T ./"}})
	}
	cases = append(cases,
		scopeCase{name: "cargo --explain runs rustc through the wrapper", cmd: "cargo", args: []string{"--explain=E0001"},
			fs: with(nil), has: []string{wrapper}, hasNot: []string{code, "T ./"}},
		scopeCase{name: "cargo install builds", cmd: "cargo", args: []string{"install", "--path", "."},
			fs: with(nil), has: []string{wrapper, code}},
		scopeCase{name: "rustup runs rust-toolchain.toml's toolchain for cargo version", cmd: "cargo", args: []string{"version"}, launch: "srv",
			fs:  with(map[string]string{"rust-toolchain.toml": "[toolchain]\npath = \"/proc/self/cwd/../tc\"\n", "tc/bin/cargo": "x"}),
			has: []string{"T* tc/"}, hasNot: []string{wrapper, "T ./"}},
		scopeCase{name: "rustup runs it for cargo alone", cmd: "cargo", args: []string{"-V"},
			fs:  with(map[string]string{"rust-toolchain": "/proc/self/cwd/tc\n", "tc/bin/cargo": "x"}),
			has: []string{"T* tc/"}, hasNot: []string{wrapper, "T ./"}},
		scopeCase{name: "build.rustdoc runs for cargo doc and test", cmd: "cargo", args: []string{"test"},
			fs:  with(map[string]string{".cargo/config.toml": "[build]\nrustdoc = \"tools/doc.sh\"\n", "tools/doc.sh": "x"}),
			has: []string{"F* tools/doc.sh"}, hasNot: []string{"T ./"}},
		scopeCase{name: "RUSTDOC and RUSTFMT name programs", cmd: "cargo", args: []string{"fmt"},
			env: map[string]string{"RUSTDOC": "tools/doc.sh", "RUSTFMT": "tools/fmt.sh"},
			fs:  with(map[string]string{"tools/doc.sh": "x", "tools/fmt.sh": "x"}),
			has: []string{"F* tools/doc.sh", "F* tools/fmt.sh"}, hasNot: []string{"T ./"}},
	)
	runScopeCases(t, cases)
}
