package launch

import "errors"

// Kind is what a repository path holds once symlinks are followed the way
// the kernel follows them for a process whose working directory is the
// launch directory.
type Kind int

const (
	// Missing: nothing is there (or a symlink leads to nothing).
	Missing Kind = iota
	// File is a regular file (not executable).
	File
	// Exec is an executable regular file.
	Exec
	// Dir is a directory.
	Dir
	// Outside: a symlink leads out of the repository or loops; what is
	// there cannot be known from the repository.
	Outside
	// Other is a submodule or anything else that holds no readable file.
	Other
)

// Info is what Stat found at a path.
type Info struct {
	Kind Kind
	// Path is the repository path reached after following symlinks
	// (Path of the argument when none was followed); "" for Outside.
	Path string
}

// DirEntry is one entry of a directory listing.
type DirEntry struct {
	Name string
	Kind Kind // as Stat would say for the entry's path
}

// FS reads one side of a repository (a commit, the index, the work tree, or
// a directory on disk). Paths are repository-relative, slash-separated and
// clean; "" is the repository root. Implementations resolve symlinks inside
// the repository; the launch model never touches the disk itself.
type FS interface {
	Stat(p string) (Info, error)
	// ReadFile reads a file's bytes (symlinks followed); ErrNotExist when
	// p is not a readable file, ErrTooLarge past limit bytes.
	ReadFile(p string, limit int64) ([]byte, error)
	// ReadDir lists a directory's entries sorted by name; ErrNotExist
	// when p is not a directory.
	ReadDir(p string) ([]DirEntry, error)
}

// Errors FS implementations return (wrapped or as is).
var (
	ErrNotExist = errors.New("not a readable file or directory")
	ErrTooLarge = errors.New("too large to read")
)
