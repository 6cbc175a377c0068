package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGuard writes an executable standing in for mcp-guard: it appends its
// environment's GOMAXPROCS (set or not), its arguments and its stdin to
// log, so tests can see what the hook passed.
func fakeGuard(t *testing.T, dir, log string) string {
	t.Helper()
	p := filepath.Join(dir, "bin dir", "mcp-guard")
	mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
	script := fmt.Sprintf("#!/bin/sh\n{ printf 'guard:'; printf '%%s' \"${GOMAXPROCS+ GOMAXPROCS=$GOMAXPROCS}\"; printf ' [%%s]' \"$@\"; printf '\\n'; cat | sed 's/^/guard-stdin: /'; } >> %s\nexit 7\n", shellQuote(log))
	mustDo(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

// guardedRepo is a repository's empty hooks directory, with a fakeGuard
// logging to log.
func guardedRepo(t *testing.T) (d Dir, log, bin string) {
	t.Helper()
	root := t.TempDir()
	d = Dir{Path: filepath.Join(root, ".git", "hooks")}
	mustDo(t, os.MkdirAll(d.Path, 0o755))
	log = filepath.Join(root, "log")
	return d, log, fakeGuard(t, root, log)
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runHook runs a hook the way git does: by its path, from the work tree,
// with git's arguments and (for post-rewrite) stdin.
func runHook(t *testing.T, path, stdin string, env []string, args ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Dir = filepath.Dir(filepath.Dir(path))
	cmd.Stdin = strings.NewReader(stdin)
	// What the hook sets for mcp-guard alone is seen only if it was not
	// set already.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return errb.String(), 0
}

func actions(rs []Result) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.Type+"="+string(r.Action))
	}
	return strings.Join(parts, " ")
}

func TestScriptIsValidPOSIXShell(t *testing.T) {
	for _, typ := range Types {
		s, err := Script(typ, "/opt/it's here/mcp-guard")
		if err != nil {
			t.Fatal(err)
		}
		if !isOurs(s) {
			t.Errorf("%s: marker not recognised", typ)
		}
		if got := recordedBinary(s); got != "/opt/it's here/mcp-guard" {
			t.Errorf("%s: recorded binary %q", typ, got)
		}
		for _, sh := range []string{"sh", "dash", "bash", "busybox"} {
			p, err := exec.LookPath(sh)
			if err != nil {
				continue
			}
			args := []string{"-n", "-c", string(s)}
			if sh == "busybox" {
				args = append([]string{"sh"}, args...)
			}
			if out, err := exec.Command(p, args...).CombinedOutput(); err != nil {
				t.Errorf("%s: %s -n: %v\n%s", typ, sh, err, out)
			}
		}
	}
	if _, err := Script("pre-push", "/x"); err == nil {
		t.Error("unknown hook type accepted")
	}
	if _, err := Script("post-merge", "rel/mcp-guard"); err == nil {
		t.Error("relative binary accepted")
	}
}

func TestInstallIdempotentAndUninstall(t *testing.T) {
	root := t.TempDir()
	d := Dir{Path: filepath.Join(root, ".git", "hooks")}
	bin := fakeGuard(t, root, filepath.Join(root, "log"))

	rs, err := Install(d, Options{Binary: bin})
	mustDo(t, err)
	if got := actions(rs); got != "post-checkout=installed post-merge=installed post-rewrite=installed post-commit=installed post-applypatch=installed" {
		t.Fatalf("first install: %s", got)
	}
	if _, err := os.Lstat(filepath.Join(d.Path, RefTransaction)); err == nil {
		t.Error("reference-transaction installed without being asked for")
	}
	first := readString(t, filepath.Join(d.Path, "post-merge"))
	rs, err = Install(d, Options{Binary: bin, RefTransaction: true})
	mustDo(t, err)
	if got := actions(rs); got != everyType("unchanged", "reference-transaction=installed") {
		t.Fatalf("second install: %s", got)
	}
	if readString(t, filepath.Join(d.Path, "post-merge")) != first {
		t.Error("reinstall changed the script")
	}
	hs, err := Inspect(d)
	mustDo(t, err)
	for _, h := range hs {
		if h.Kind != KindOurs || !h.Current || h.Binary != bin || h.Chained != "" {
			t.Errorf("inspect %+v", h)
		}
		if fi, _ := os.Stat(h.Path); fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v", h.Path, fi.Mode())
		}
	}
	// A new binary path rewrites the scripts.
	bin2 := filepath.Join(root, "elsewhere", "mcp-guard")
	rs, err = Install(d, Options{Binary: bin2, RefTransaction: true})
	mustDo(t, err)
	if got := actions(rs); got != everyType("updated", "") {
		t.Errorf("new binary: %s", got)
	}
	// Installing without --reference-transaction removes an earlier one.
	rs, err = Install(d, Options{Binary: bin2})
	mustDo(t, err)
	if got := actions(rs); got != everyType("unchanged", "reference-transaction=removed") {
		t.Errorf("install without reference-transaction: %s", got)
	}
	rs, err = Uninstall(d)
	mustDo(t, err)
	if got := actions(rs); got != everyType("removed", "reference-transaction=absent") {
		t.Errorf("uninstall: %s", got)
	}
	if ents, _ := os.ReadDir(d.Path); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	rs, err = Uninstall(d)
	mustDo(t, err)
	if got := actions(rs); got != everyType("absent", "") {
		t.Errorf("second uninstall: %s", got)
	}
}

// everyType is actions' text when every hook type had action, the last
// one (reference-transaction) replaced by last when it is not "".
func everyType(action Action, last string) string {
	var parts []string
	for _, typ := range Types {
		parts = append(parts, typ+"="+string(action))
	}
	if last != "" {
		parts[len(parts)-1] = last
	}
	return strings.Join(parts, " ")
}

// TestChainedHookRunsFirst: an existing hook keeps running first with its
// exit status, gets git's arguments (and post-rewrite's stdin, which
// mcp-guard gets too), and uninstall restores it byte for byte, mode and
// all.
func TestChainedHookRunsFirst(t *testing.T) {
	d, log, bin := guardedRepo(t)
	orig := map[string]string{}
	for i, typ := range Types {
		body := fmt.Sprintf("#!/bin/sh\n# someone's %s\n{ printf 'theirs:'; printf '%%s' \"${GOMAXPROCS+ GOMAXPROCS=$GOMAXPROCS}\"; printf ' [%%s]' \"$@\"; printf '\\n'; cat | sed 's/^/theirs-stdin: /'; } >> %s\nexit %d\n", typ, shellQuote(log), 3+i)
		orig[typ] = body
		mustDo(t, os.WriteFile(filepath.Join(d.Path, typ), []byte(body), 0o750))
	}
	// A symlinked hook stays a symlink.
	mustDo(t, os.WriteFile(filepath.Join(filepath.Dir(log), "shared-hook"), []byte("#!/bin/sh\nexit 0\n"), 0o755))

	rs, err := Install(d, Options{Binary: bin, RefTransaction: true})
	mustDo(t, err)
	if got := actions(rs); got != everyType("chained", "") {
		t.Fatalf("install: %s", got)
	}
	for _, r := range rs {
		if r.Chained != r.Path+ChainedSuffix || readString(t, r.Chained) != orig[r.Type] {
			t.Errorf("%s: previous hook not kept at %s", r.Type, r.Chained)
		}
	}

	_, code := runHook(t, filepath.Join(d.Path, "post-merge"), "", nil, "0")
	if code != 4 {
		t.Errorf("post-merge exit %d, want the chained hook's 4", code)
	}
	pairs := "1111 2222\n3333 4444\n"
	_, code = runHook(t, filepath.Join(d.Path, "post-rewrite"), pairs, nil, "rebase")
	if code != 5 {
		t.Errorf("post-rewrite exit %d, want 5", code)
	}
	// reference-transaction: the chained hook gets every state and every
	// update; mcp-guard only a committed move of HEAD or refs/stash.
	updates := c1 + " " + c2 + " refs/remotes/origin/main\n" + c1 + " " + c2 + " HEAD\n" + c1 + " " + c1 + " refs/stash\n"
	_, code = runHook(t, filepath.Join(d.Path, "reference-transaction"), updates, nil, "prepared")
	if code != 8 {
		t.Errorf("reference-transaction exit %d, want the chained hook's 8", code)
	}
	_, code = runHook(t, filepath.Join(d.Path, "reference-transaction"), updates, nil, "committed")
	if code != 8 {
		t.Errorf("reference-transaction exit %d, want 8", code)
	}
	theirsTx := func(state string) string {
		return "theirs: [" + state + "]\ntheirs-stdin: " + c1 + " " + c2 + " refs/remotes/origin/main\ntheirs-stdin: " + c1 + " " + c2 + " HEAD\ntheirs-stdin: " + c1 + " " + c1 + " refs/stash\n"
	}
	// mcp-guard runs on one processor (HookEnv); the chained hook gets
	// the environment git gave.
	want := "theirs: [0]\nguard: GOMAXPROCS=1 [hook] [post-merge] [0]\n" +
		"theirs: [rebase]\ntheirs-stdin: 1111 2222\ntheirs-stdin: 3333 4444\n" +
		"guard: GOMAXPROCS=1 [hook] [post-rewrite] [rebase]\nguard-stdin: 1111 2222\nguard-stdin: 3333 4444\n" +
		theirsTx("prepared") + theirsTx("committed") +
		"guard: GOMAXPROCS=1 [hook] [reference-transaction] [committed]\nguard-stdin: " + c1 + " " + c2 + " HEAD\n"
	if got := readString(t, log); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	// MCP_GUARD=0 skips mcp-guard, never the chained hook.
	mustDo(t, os.Remove(log))
	_, code = runHook(t, filepath.Join(d.Path, "post-checkout"), "", []string{"MCP_GUARD=0"}, "a", "b", "1")
	if got := readString(t, log); code != 3 || got != "theirs: [a] [b] [1]\n" {
		t.Errorf("MCP_GUARD=0: exit %d, log %q", code, got)
	}

	rs, err = Uninstall(d)
	mustDo(t, err)
	if got := actions(rs); got != everyType("restored", "") {
		t.Errorf("uninstall: %s", got)
	}
	for typ, body := range orig {
		p := filepath.Join(d.Path, typ)
		fi, err := os.Stat(p)
		mustDo(t, err)
		if readString(t, p) != body || fi.Mode().Perm() != 0o750 {
			t.Errorf("%s not restored exactly (mode %v)", typ, fi.Mode())
		}
	}
	if ents, _ := os.ReadDir(d.Path); len(ents) != len(Types) {
		t.Errorf("left behind: %v", ents)
	}
}

func TestSymlinkedHookRestoredAsSymlink(t *testing.T) {
	root := t.TempDir()
	d := Dir{Path: filepath.Join(root, "hooks")}
	mustDo(t, os.MkdirAll(d.Path, 0o755))
	mustDo(t, os.Symlink("../scripts/post-merge", filepath.Join(d.Path, "post-merge")))
	_, err := Install(d, Options{Binary: "/usr/bin/mcp-guard"})
	mustDo(t, err)
	_, err = Uninstall(d)
	mustDo(t, err)
	target, err := os.Readlink(filepath.Join(d.Path, "post-merge"))
	if err != nil || target != "../scripts/post-merge" {
		t.Errorf("symlink not restored: %q %v", target, err)
	}
}

func TestBinaryGone(t *testing.T) {
	root := t.TempDir()
	d := Dir{Path: filepath.Join(root, "hooks")}
	_, err := Install(d, Options{Binary: filepath.Join(root, "gone", "mcp-guard")})
	mustDo(t, err)
	stderr, code := runHook(t, filepath.Join(d.Path, "post-merge"), "", []string{"PATH=/usr/bin:/bin"}, "0")
	if code != 0 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "mcp-guard: not found ("+root+"/gone/mcp-guard is gone") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	// It speaks of every agent, not of one.
	if !strings.HasSuffix(stderr, "not checking what this post-merge changed in what your agents run\n") || strings.Contains(stderr, "agentty") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestFallsBackToPath(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(root, "log")
	bin := fakeGuard(t, root, log)
	d := Dir{Path: filepath.Join(root, "hooks")}
	_, err := Install(d, Options{Binary: filepath.Join(root, "gone", "mcp-guard")})
	mustDo(t, err)
	_, code := runHook(t, filepath.Join(d.Path, "post-merge"), "", []string{"PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin"}, "0")
	if got := readString(t, log); code != 0 || got != "guard: GOMAXPROCS=1 [hook] [post-merge] [0]\n" {
		t.Errorf("exit %d, log %q", code, got)
	}
}

func TestForeignHookWithChainedLeftAlone(t *testing.T) {
	root := t.TempDir()
	d := Dir{Path: filepath.Join(root, "hooks")}
	mustDo(t, os.MkdirAll(d.Path, 0o755))
	p := filepath.Join(d.Path, "post-merge")
	mustDo(t, os.WriteFile(p, []byte("#!/bin/sh\necho new\n"), 0o755))
	mustDo(t, os.WriteFile(p+ChainedSuffix, []byte("#!/bin/sh\necho old\n"), 0o755))
	rs, err := Install(d, Options{Binary: "/usr/bin/mcp-guard"})
	mustDo(t, err)
	if rs[1].Action != ActionRefused || rs[1].Note == "" {
		t.Errorf("got %+v", rs[1])
	}
	if readString(t, p) != "#!/bin/sh\necho new\n" || readString(t, p+ChainedSuffix) != "#!/bin/sh\necho old\n" {
		t.Error("files changed")
	}
	rs, err = Uninstall(d)
	mustDo(t, err)
	if rs[1].Action != ActionForeign || readString(t, p) != "#!/bin/sh\necho new\n" {
		t.Errorf("uninstall touched a foreign hook: %+v", rs[1])
	}
}

func TestManagers(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, d *Dir)
		manager Manager
		// managed lists the types left to the manager
		managed string
	}{
		{"husky hooksPath", func(t *testing.T, d *Dir) {
			d.Path = filepath.Join(filepath.Dir(d.Path), ".husky", "_")
			d.HooksPath = ".husky/_"
		}, ManagerHusky, "post-checkout post-merge post-rewrite"},
		{"husky v4 runner", func(t *testing.T, d *Dir) {
			mustDo(t, os.MkdirAll(d.Path, 0o755))
			mustDo(t, os.WriteFile(filepath.Join(d.Path, "husky.sh"), []byte("#!/bin/sh\n"), 0o644))
		}, ManagerHusky, "post-checkout post-merge post-rewrite"},
		{"lefthook", func(t *testing.T, d *Dir) {
			mustDo(t, os.MkdirAll(d.Path, 0o755))
			mustDo(t, os.WriteFile(filepath.Join(d.Path, "pre-commit"), []byte("#!/bin/sh\ncall_lefthook run \"pre-commit\" \"$@\"\n"), 0o755))
		}, ManagerLefthook, "post-checkout post-merge post-rewrite"},
		{"pre-commit", func(t *testing.T, d *Dir) {
			mustDo(t, os.MkdirAll(d.Path, 0o755))
			mustDo(t, os.WriteFile(filepath.Join(d.Path, "post-merge"), []byte("#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n"), 0o755))
		}, ManagerPreCommit, "post-merge"},
		{"git lfs is chained, not managed", func(t *testing.T, d *Dir) {
			mustDo(t, os.MkdirAll(d.Path, 0o755))
			mustDo(t, os.WriteFile(filepath.Join(d.Path, "post-merge"), []byte("#!/bin/sh\ncommand -v git-lfs >/dev/null 2>&1 || exit 2\ngit lfs post-merge \"$@\"\n"), 0o755))
		}, ManagerNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			d := Dir{Path: filepath.Join(root, ".git", "hooks"), WorkTree: root}
			tt.setup(t, &d)
			before := snapshot(t, d.Path)
			rs, err := Install(d, Options{Binary: "/usr/bin/mcp-guard"})
			mustDo(t, err)
			var managed []string
			for _, r := range rs {
				if r.Action == ActionManaged {
					managed = append(managed, r.Type)
					if r.Manager != tt.manager {
						t.Errorf("%s: manager %q, want %q", r.Type, r.Manager, tt.manager)
					}
				}
			}
			if got := strings.Join(managed, " "); got != tt.managed {
				t.Errorf("managed %q, want %q (%s)", got, tt.managed, actions(rs))
			}
			if tt.manager != ManagerNone {
				for _, typ := range strings.Fields(tt.managed) {
					if after := snapshot(t, d.Path); after[typ] != before[typ] {
						t.Errorf("%s: the manager's hook was touched", typ)
					}
				}
				if lines := Integration(tt.manager, d, []string{"post-merge"}); len(lines) == 0 {
					t.Error("no integration")
				}
				// --force chains anyway.
				rs, err = Install(d, Options{Binary: "/usr/bin/mcp-guard", Force: true})
				mustDo(t, err)
				for _, r := range rs {
					if r.Action == ActionManaged {
						t.Errorf("forced: %s still managed", r.Type)
					}
				}
			}
		})
	}
}

func TestIntegrationLines(t *testing.T) {
	root := "/repo"
	got := Integration(ManagerHusky, Dir{Path: "/repo/.husky/_", WorkTree: root}, []string{"post-merge"})
	if len(got) != 1 || got[0] != `echo 'command -v mcp-guard >/dev/null && GOMAXPROCS=1 mcp-guard hook post-merge "$@" || true' >> '.husky/post-merge'` {
		t.Errorf("husky: %q", got)
	}
	got = Integration(ManagerLefthook, Dir{}, []string{"post-rewrite"})
	if !strings.Contains(got[0], "use_stdin: true") {
		t.Errorf("lefthook post-rewrite needs stdin: %q", got)
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// TestTemplateChangeRewritesOldHooks: a hook an earlier mcp-guard wrote
// (here the template before it set HookEnv) is mcp-guard's but not
// current: `hooks status` calls it outdated and `hooks install` rewrites
// it in place, keeping the hook it chains.
func TestTemplateChangeRewritesOldHooks(t *testing.T) {
	d, log, bin := guardedRepo(t)
	theirs := "#!/bin/sh\nexit 0\n"
	mustDo(t, os.WriteFile(filepath.Join(d.Path, "post-merge"), []byte(theirs), 0o755))
	_, err := Install(d, Options{Binary: bin})
	mustDo(t, err)
	for _, typ := range Types[:5] {
		p := filepath.Join(d.Path, typ)
		s := readString(t, p)
		old := strings.ReplaceAll(s, HookEnv+" ", "")
		if old == s {
			t.Fatalf("%s: the script does not set %s", typ, HookEnv)
		}
		mustDo(t, os.WriteFile(p, []byte(old), 0o755))
	}
	hs, err := Inspect(d)
	mustDo(t, err)
	for _, h := range hs[:5] {
		if h.Kind != KindOurs || h.Current || h.Binary != bin {
			t.Errorf("%s: kind %s current %v binary %q, want an outdated hook of ours", h.Type, h.Kind, h.Current, h.Binary)
		}
	}
	rs, err := Install(d, Options{Binary: bin})
	mustDo(t, err)
	if got := actions(rs); got != "post-checkout=updated post-merge=updated post-rewrite=updated post-commit=updated post-applypatch=updated" {
		t.Errorf("install over the old template: %s", got)
	}
	if readString(t, filepath.Join(d.Path, "post-merge"+ChainedSuffix)) != theirs {
		t.Error("the chained hook was not kept")
	}
	_, code := runHook(t, filepath.Join(d.Path, "post-merge"), "", nil, "0")
	if got := readString(t, log); code != 0 || got != "guard: GOMAXPROCS=1 [hook] [post-merge] [0]\n" {
		t.Errorf("exit %d, log %q", code, got)
	}
}
