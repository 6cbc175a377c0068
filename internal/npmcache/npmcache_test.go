//go:build unix

package npmcache

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeNPM puts an npm on PATH that runs script with the install's prefix
// as $1 (npm's arguments are install --prefix DIR ...).
func fakeNPM(t *testing.T, script string) {
	bin := t.TempDir()
	sh := "#!/bin/sh\nprefix=$3\n" + script + "\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
}

func TestInstallRenamesIntoPlace(t *testing.T) {
	fakeNPM(t, `mkdir -p "$prefix/node_modules/.bin" && printf '#!/bin/sh\necho 1.0\n' > "$prefix/node_modules/.bin/tool" && chmod +x "$prefix/node_modules/.bin/tool"`)
	dir := filepath.Join(t.TempDir(), "cache", "tool-1.0")
	if err := os.MkdirAll(filepath.Join(dir, "stale"), 0o755); err != nil {
		t.Fatal(err)
	}
	checked := ""
	_, err := Install(dir, []string{"tool@1.0"}, time.Minute, func(d string) error {
		checked = d
		out, err := Run(time.Minute, d, nil, filepath.Join(Bin(d), "tool"))
		if err == nil && strings.TrimSpace(string(out)) != "1.0" {
			err = errors.New("tool printed " + string(out))
		}
		return err
	})
	if err != nil || checked != dir {
		t.Fatalf("Install: %v (checked %q)", err, checked)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale")); !os.IsNotExist(err) {
		t.Errorf("the stale cache survived the install: %v", err)
	}
	left, _ := filepath.Glob(dir + ".tmp-*")
	if len(left) > 0 {
		t.Errorf("temporary installs left behind: %v", left)
	}
}

func TestInstallFailureKeepsNoHalfCache(t *testing.T) {
	fakeNPM(t, `mkdir -p "$prefix/node_modules/.bin"; echo "E404 no such package" >&2; exit 1`)
	dir := filepath.Join(t.TempDir(), "tool-1.0")
	_, err := Install(dir, []string{"tool@1.0"}, time.Minute, func(string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "E404") {
		t.Fatalf("Install: %v, want npm's error", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed install left %s: %v", dir, err)
	}
	left, _ := filepath.Glob(dir + ".tmp-*")
	if len(left) > 0 {
		t.Errorf("temporary installs left behind: %v", left)
	}
}

func TestInstallWithoutNPM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Install(filepath.Join(t.TempDir(), "x"), []string{"x@1"}, time.Minute, nil); !errors.Is(err, ErrNoNPM) {
		t.Fatalf("Install: %v, want ErrNoNPM", err)
	}
}

func TestRunKillsTheGroupAtTheTimeout(t *testing.T) {
	start := time.Now()
	// The shell's child holds the output open; killing the shell alone would
	// leave Run waiting for it.
	_, err := Run(300*time.Millisecond, t.TempDir(), nil, "/bin/sh", "-c", "sleep 30 & wait")
	if !errors.Is(err, ErrTimedOut) {
		t.Fatalf("Run: %v, want a timeout", err)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("Run returned after %s: the group was not killed", took)
	}
}
