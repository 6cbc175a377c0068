package gitscan

import (
	"bytes"
	"fmt"
)

// ReadBlobID reads the blob with id straight from the object database,
// whatever side or path held it (a ledger's record of a reviewed file, say).
// Content larger than limit (limit < 0: no limit) is ErrTooLarge, decided
// before it is read; an id the repository lacks wraps ErrMissingObject.
func (r *Repo) ReadBlobID(id string, limit int64) ([]byte, error) {
	data, err := r.readObject(id, "blob", limit)
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", short(id), err)
	}
	return data, nil
}

// CommitSubject is the first line of commit id's message, raw (callers
// sanitise it before showing it).
func (r *Repo) CommitSubject(id string) (string, error) {
	data, err := r.readObject(id, "commit", 1<<20)
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", short(id), err)
	}
	_, msg, ok := bytes.Cut(data, []byte("\n\n"))
	if !ok {
		return "", nil
	}
	msg = bytes.TrimLeft(msg, "\n")
	line, _, _ := bytes.Cut(msg, []byte("\n"))
	return string(bytes.TrimRight(line, "\r")), nil
}
