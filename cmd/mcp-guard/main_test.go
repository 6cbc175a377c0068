package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/internal/testtmp"
)

// TestMain runs the tests with what they leave in the temporary directory
// (testscript's own go-test-script directory, which it keeps when -run
// picks some scripts only) under one directory removed after them
// (testtmp); run as mcp-guard from a script, it is the command.
func TestMain(m *testing.M) {
	testscript.Main(tmpRun{m}, map[string]func(){
		"mcp-guard": func() {
			os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr, os.Environ()))
		},
	})
}

// tmpRun runs the tests under testtmp.
type tmpRun struct{ m *testing.M }

func (r tmpRun) Run() int { return testtmp.Run(r.m) }

// TestScripts runs every testdata/script/*.txtar with real git and an
// isolated HOME: nothing of the developer's own configuration leaks in.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup:               setupScriptEnv,
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
	})
}

// scriptCondition is [root]: the tests run as root (mkdevice can make a
// device); and [runner:NAME] (runnerCondition).
func scriptCondition(cond string) (bool, error) {
	if cond == "root" {
		return os.Geteuid() == 0, nil
	}
	return runnerCondition(cond)
}

// setupScriptEnv isolates a script from the machine it runs on.
func setupScriptEnv(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME":                      home,
		"USERPROFILE":               "",
		"MCP_GUARD_HOME":            "",
		"XDG_CONFIG_HOME":           filepath.Join(home, ".config"),
		"XDG_STATE_HOME":            filepath.Join(home, ".local", "state"),
		"GIT_CONFIG_NOSYSTEM":       "1",
		"GIT_CONFIG_GLOBAL":         filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME":           "Test Author",
		"GIT_AUTHOR_EMAIL":          "author@example.com",
		"GIT_COMMITTER_NAME":        "Test Committer",
		"GIT_COMMITTER_EMAIL":       "committer@example.com",
		"GIT_AUTHOR_DATE":           "2026-01-02T03:04:05Z",
		"GIT_COMMITTER_DATE":        "2026-01-02T03:04:05Z",
		"NO_COLOR":                  "1",
		"AGENTTY_MCP_CONFIG":        "",
		"AGENTTY_MCP_ALLOW_PROJECT": "",
		"MCP_GUARD":                 "",
	} {
		env.Setenv(k, v)
	}
	if bin := runnersBin(); bin != "" {
		env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
	}
	gitconfig := "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[pull]\n\trebase = false\n"
	return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644)
}

// scriptCmds are extra testscript commands shared by all scripts.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// genjson deep N FILE writes a configuration with one server whose
	// tools value nests N arrays; genjson pad N FILE pads FILE with spaces
	// to N bytes; genjson servers N FILE writes N servers in agentty's
	// form, genjson toml-servers N FILE as a Codex layer, genjson hooks N
	// FILE as N hook commands of a Claude Code settings file.
	"genjson": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: genjson deep|pad|servers|toml-servers|hooks N FILE")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		file := ts.MkAbs(args[2])
		switch args[0] {
		case "deep":
			ts.Check(os.WriteFile(file, hostile.Deep(n), 0o644))
		case "servers":
			ts.Check(os.WriteFile(file, hostile.Many(n), 0o644))
		case "hooks":
			ts.Check(os.WriteFile(file, hostile.ManyHooks(n), 0o644))
		case "toml-servers":
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "[mcp_servers.%s]\ncommand = \"/bin/echo\"\nargs = [\"%d\"]\n", hostile.ServerName(i), i)
			}
			ts.Check(os.WriteFile(file, []byte(b.String()), 0o644))
		case "pad":
			data, err := os.ReadFile(file)
			ts.Check(err)
			if len(data) < n {
				data = append(data, bytes.Repeat([]byte{' '}, n-len(data))...)
			}
			ts.Check(os.WriteFile(file, data, 0o644))
		default:
			ts.Fatalf("usage: genjson deep|pad|servers|toml-servers|hooks N FILE")
		}
	},
	// exits N CMD [ARGS...] runs CMD as exec does and fails unless it
	// exits with status N; stdout and stderr are then matched as after
	// exec.
	"exits": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: exits N cmd [args...]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		got := 0
		if err := ts.Exec(args[1], args[2:]...); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("%s: %v", args[1], err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
		}
	},
	// cmpnoeol GOT WANT compares GOT with WANT minus WANT's final newline:
	// txtar files always end in one, agentty's store never does.
	"cmpnoeol": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: cmpnoeol got want")
		}
		got := ts.ReadFile(args[0])
		want := strings.TrimSuffix(ts.ReadFile(args[1]), "\n")
		if (got == want) == neg {
			if neg {
				ts.Fatalf("%s and %s are equal", args[0], args[1])
			}
			ts.Fatalf("%s differs from %s:\ngot:  %q\nwant: %q", args[0], args[1], got, want)
		}
	},
}
