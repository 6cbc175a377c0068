package launch

import (
	"path"
	"strings"
)

// CodeFile reports whether lang loads the file at rel (a path below a
// KindCode item) as code. Documentation, data, tests the runtime never
// loads and lock files the runner does not read are not code, so editing
// them does not re-gate.
func CodeFile(lang, rel string) bool {
	base := path.Base(rel)
	ext := strings.ToLower(path.Ext(base))
	switch lang {
	case "javascript":
		switch ext {
		case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".node", ".wasm":
			return true
		}
		// package.json decides resolution (main, exports, imports, type).
		return base == "package.json"
	case "python":
		switch ext {
		case ".py", ".pyc", ".pyw", ".pyd", ".so", ".pth":
			return true
		}
		// A virtual environment's settings: its base interpreter and
		// whether system site-packages load.
		return base == "pyvenv.cfg"

	case "go":
		if strings.HasPrefix(rel, "vendor/") || strings.Contains(rel, "/vendor/") {
			return true
		}
		switch base {
		case "go.mod", "go.sum", "go.work", "go.work.sum":
			return true
		}
		if strings.HasSuffix(base, "_test.go") {
			return false // not compiled by go run
		}
		switch ext {
		case ".go", ".s", ".sx", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".f", ".f90", ".for",
			".syso", ".swig", ".swigcxx":
			return true
		case ".a", ".o", ".obj", ".so", ".dylib", ".dll", ".tbd":
			// cgo's LDFLAGS may name these directly (${SRCDIR}/libx.a,
			// which go's flag allowlist takes): linked into the program.
			return true
		}
	case "java":
		// Classes a class path directory holds, and the sources of a
		// source program's tree.
		return ext == ".class" || ext == ".java"
	case "rust":
		switch base {
		case "Cargo.toml", "Cargo.lock", "rust-toolchain", "rust-toolchain.toml":
			return true
		case "config", "config.toml":
			// .cargo/config.toml sets runners and rustc wrappers.
			return path.Base(path.Dir(rel)) == ".cargo"
		}
		return ext == ".rs"
	}
	return false
}

// Importable reports whether lang can import the entry name (a directory
// when dir) from a directory on its search path.
func Importable(lang, name string, dir bool) bool {
	if lang != "python" {
		return false
	}
	stem := name
	if !dir {
		i := strings.IndexByte(name, '.')
		if i < 0 {
			return false
		}
		stem = name[:i]
		switch strings.ToLower(name[i:]) {
		case ".py", ".pyc", ".pyw", ".pyd", ".so":
		default:
			// Extension modules carry a tag: mod.cpython-312-x86_64-linux-gnu.so, mod.abi3.so.
			if !strings.HasSuffix(strings.ToLower(name), ".so") && !strings.HasSuffix(strings.ToLower(name), ".pyd") {
				return false
			}
		}
	}
	return isIdentifier(stem)
}

// isIdentifier is Python's rule for a module name, ASCII or not (a
// non-ASCII letter is allowed, so any non-ASCII rune counts).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 0x80:
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
