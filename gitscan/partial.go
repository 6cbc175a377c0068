package gitscan

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// A partial clone (`git clone --filter=blob:none`) lacks objects until git
// fetches them on demand from its promisor remote. gitscan's readers never
// use the network (gitConfigArgs, GIT_NO_LAZY_FETCH); when an object is
// missing in a partial clone, Repo asks git for it once, allowing the
// fetch from the promisor remote only (the user's own remote: a clone never
// carries the remote's .git/config). When that fails (the remote is not
// reachable) the error says what to do. Outside a partial clone a missing
// object is damage, reported as is. WithoutFetch turns the fetch off (the
// hook: it must not wait on the network inside a git operation).

// fetchTimeout bounds one fetch of a missing object.
const fetchTimeout = 60 * time.Second

// WithoutFetch never fetches a partial clone's missing objects: they stay
// ErrMissingObject, saying so.
func WithoutFetch() Option { return func(o *options) { o.noFetch = true } }

// promisorRemote is the remote a partial clone fetches missing objects
// from ("" when the repository is not a partial clone):
// extensions.partialClone, else the first remote with promisor = true.
func promisorRemote(commonDir string) string {
	cfg, err := readGitConfig(commonDir + "/config")
	if err != nil {
		return ""
	}
	if v := strings.TrimSpace(cfg.value("extensions", "partialClone")); v != "" {
		return v
	}
	for _, e := range cfg.entries {
		if e.section == "remote" && e.subsection != "" && e.key == "promisor" {
			if on, ok := cfg.boolean("remote", e.subsection, "promisor"); ok && on {
				return e.subsection
			}
		}
	}
	return ""
}

// missing turns err, a read of object id that failed, into the object read
// through git when the object is missing from a partial clone and git can
// fetch it; otherwise it returns err, saying what to do for a partial
// clone.
func (r *Repo) missing(err error, id, typ string, limit int64) ([]byte, error) {
	if !errors.Is(err, ErrMissingObject) {
		return nil, err
	}
	if !r.promisorChecked {
		r.promisorChecked = true
		r.promisor = promisorRemote(r.commonDir)
	}
	if r.promisor == "" {
		return nil, err
	}
	if r.opts.noFetch {
		return nil, fmt.Errorf("object %s: %w (partial clone): run git fetch, then this again (the git hook does not fetch)", id, ErrMissingObject)
	}
	data, ferr := r.fetchObject(id, typ, limit)
	if ferr != nil {
		return nil, fmt.Errorf("object %s: %w (partial clone): run git fetch when the remote %q is reachable (fetching it failed: %v)", id, ErrMissingObject, r.promisor, ferr)
	}
	return data, nil
}

// fetchObject runs `git cat-file TYPE ID` with on-demand fetching allowed,
// which fetches the object from the promisor remote and prints it.
func (r *Repo) fetchObject(id, typ string, limit int64) ([]byte, error) {
	git := r.opts.gitPath
	if git == "" {
		p, err := lookPath("git")
		if err != nil {
			return nil, errors.New("git is not installed")
		}
		git = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	// Only the lazy fetch is allowed: no prompt (GIT_TERMINAL_PROMPT=0
	// stays), no fsmonitor, no hooks are involved in cat-file.
	cmd := exec.CommandContext(ctx, git, "-c", "core.fsmonitor=false", "cat-file", typ, id)
	cmd.Dir = r.top
	cmd.Env = gitEnv(r.opts.env, map[string]string{"GIT_NO_LAZY_FETCH": "0"})
	var stderr capBuffer
	stderr.max = 4 << 10
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("gave up after %v", fetchTimeout)
	}
	if err != nil {
		if msg := firstLine(stderr.Bytes()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	if limit >= 0 && int64(len(out)) > limit {
		return nil, fmt.Errorf("object %s: %w", id, ErrTooLarge)
	}
	return out, nil
}
