package hooks

import (
	"os"
	"testing"

	"github.com/mcp-guard/mcp-guard/internal/testtmp"
)

// TestMain keeps what the tests leave in the temporary directory under
// one directory removed after them: a hook run that outlived its budget
// (TestHostileHookEnvironment's FIFO) may still write its cache after
// its test's t.TempDir was removed.
func TestMain(m *testing.M) { os.Exit(testtmp.Run(m)) }
