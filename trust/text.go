package trust

import "github.com/mcp-guard/mcp-guard/internal/textsafe"

// Deceptive reports whether s holds characters that a terminal would
// interpret or that hide what the text says: controls, escape sequences,
// bidi overrides, zero-width and other invisible characters (MG308).
func Deceptive(s string) bool { return !textsafe.Clean(s) }
