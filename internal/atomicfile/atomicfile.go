// Package atomicfile replaces a file so that a reader, and the file after a
// crash or a kill, has the old content or the new, never a mix: the new
// content goes to a temporary file in the same directory, which is written,
// given its permissions, synced and closed, then renamed over the file, and
// the directory is synced so the rename itself survives a power loss.
//
// The temporary file is named ".<name>.<random>.tmp" beside the file. A
// failure before the rename removes it and leaves the old file as it was;
// a writer killed before the rename leaves it behind, and RemoveStale,
// called by the next writer while it holds the lock that serializes
// writers, removes it.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

const tempSuffix = ".tmp"

func tempPrefix(path string) string { return "." + filepath.Base(path) + "." }

// Pending is a replacement of a file being written. Write the content,
// then Replace; or Cleanup to give up. Cleanup is safe to defer in every
// case: after a Replace it does nothing.
type Pending struct {
	path   string
	mode   fs.FileMode
	f      *os.File
	closed bool
	done   bool // renamed, or removed
}

// Create starts replacing path with a new file of permissions mode (set
// with chmod, so the umask does not narrow them). The temporary file is
// created in path's directory, readable and writable by its owner only
// until Close.
func Create(path string, mode fs.FileMode) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), tempPrefix(path)+"*"+tempSuffix)
	if err != nil {
		return nil, err
	}
	return &Pending{path: path, mode: mode, f: f}, nil
}

// Name is the temporary file's path.
func (p *Pending) Name() string { return p.f.Name() }

// Write appends to the new content.
func (p *Pending) Write(b []byte) (int, error) {
	if p.closed {
		return 0, os.ErrClosed
	}
	return p.f.Write(b)
}

// Close makes the new content durable in the temporary file: it is given
// its permissions, synced and closed. It does not replace the file; a
// failure leaves the temporary file for Cleanup.
func (p *Pending) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	err := p.f.Chmod(p.mode)
	if err == nil {
		err = p.f.Sync()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// hookBeforeRename, when set (by tests), runs between the synced write and
// the rename; an error from it fails Replace there.
var hookBeforeRename func(tmp string) error

// Replace closes the temporary file (see Close) and renames it over the
// file, then syncs the directory. Until the rename, any failure removes
// the temporary file and the old file is unchanged. A failure to sync the
// directory comes after the file was replaced and is a *SyncDirError.
func (p *Pending) Replace() error {
	if p.done {
		return errors.New("atomicfile: already replaced or cleaned up")
	}
	err := p.Close()
	if err == nil && hookBeforeRename != nil {
		err = hookBeforeRename(p.Name())
	}
	if err == nil {
		err = os.Rename(p.Name(), p.path)
	}
	if err != nil {
		p.Cleanup()
		return err
	}
	p.done = true
	if err := SyncDir(filepath.Dir(p.path)); err != nil {
		return &SyncDirError{Dir: filepath.Dir(p.path), Err: err}
	}
	return nil
}

// Cleanup removes the temporary file unless it replaced the file.
func (p *Pending) Cleanup() {
	if p.done {
		return
	}
	p.done = true
	if !p.closed {
		p.closed = true
		p.f.Close()
	}
	os.Remove(p.Name())
}

// SyncDirError is a replacement that happened but whose directory could
// not be synced: the new content is in place, yet a power loss could still
// bring the old one back.
type SyncDirError struct {
	Dir string
	Err error
}

func (e *SyncDirError) Error() string {
	return e.Dir + ": replaced, but the directory could not be synced: " + e.Err.Error()
}

func (e *SyncDirError) Unwrap() error { return e.Err }

// WriteFile replaces path with data (see the package comment).
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	p, err := Create(path, mode)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	if _, err := p.Write(data); err != nil {
		return err
	}
	return p.Replace()
}

// RemoveStale removes the temporary files a writer of path killed before
// its rename left behind. Call it only while holding whatever excludes
// other writers of path: a temporary file being written is not stale.
// Only regular files are removed.
func RemoveStale(path string) {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, prefix) && strings.HasSuffix(n, tempSuffix) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// SyncDir makes a rename or a creation in dir durable. On Windows, which
// cannot sync a directory, it does nothing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
