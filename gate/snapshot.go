package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/internal/atomicfile"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ConfigEnv is the variable agentty reads its one configuration from: when
// it is set, agentty reads only that file, and runs its servers as the
// user's own (spec: one config is live; an explicit file is never gated).
const ConfigEnv = "AGENTTY_MCP_CONFIG"

// SnapshotEnv set to 0 makes `mcp-guard launch` hand agentty the
// repository's configuration itself instead of the snapshot.
const SnapshotEnv = "MCP_GUARD_SNAPSHOT"

// maxSnapshots is how many snapshot files are kept; older ones are removed.
const maxSnapshots = 32

// Snapshot is the configuration `mcp-guard launch` hands agentty.
type Snapshot struct {
	// Path is the file (under the ledger directory, 0600); Config names
	// the configuration it was taken from, for messages (set for a
	// snapshot named by a variable, Snapshot).
	Path, Config string
	// Servers are the names it holds, in the configuration's order; Left
	// those of the configuration it leaves out (declined, or never run).
	Servers, Left []string
	// Own are the user's own servers handed over with them (a vetted
	// file carries them as the user wrote them: Claude Code's user and
	// local scope); OwnAll: the client keeps every server of the user's
	// own configuration (a launch that only turns project servers off).
	Own    []string
	OwnAll bool
	// Settings is the settings file handed over with a vetted file (the
	// client's reviewed entries: hooks, helpers), "" when the client takes
	// none; Entries and EntriesLeft name the entries it carries and those
	// it leaves out.
	Settings             string
	Entries, EntriesLeft []string
	// SettingsNote is what else the settings handoff leaves out, in the
	// client's words.
	SettingsNote string
	// Note is what else the launch hands over or leaves out, in the
	// client's words (client.VettedNote: Claude Code's reviewed plugins,
	// whose hooks run while their MCP servers stay out), "" when nothing.
	Note string
}

// Snapshot writes the configuration `mcp-guard launch` hands a client
// whose handover is a snapshot named by a variable (client.HandSnapshotEnv:
// agentty's AGENTTY_MCP_CONFIG): its Vetted file, so that what it runs is
// what was reviewed: a server declined, not reviewed, or changed after
// this call is not in it. Call it only when nothing blocks.
func (v *View) Snapshot(id client.ID) (*Snapshot, error) {
	if c := client.Lookup(id); c == nil || c.Handover() != client.HandSnapshotEnv {
		return nil, fail("", fmt.Errorf("%s is not handed a snapshot", id))
	}
	if err := v.Reviewable(); err != nil {
		return nil, err
	}
	snap, err := v.Vetted(id)
	if err == nil {
		if cv := v.ClientOf(id); cv != nil && len(cv.Eval.Configs) > 0 {
			snap.Config = cv.Eval.Configs[0]
		}
	}
	return snap, err
}

// writeVetted writes a vetted file under the ledger directory, named by
// its content, and sets snap.Path.
func (v *View) writeVetted(snap *Snapshot, data []byte) error {
	p, err := v.writeLaunchFile(data)
	snap.Path = p
	return err
}

// writeLaunchFile writes one file a launch hands over under the ledger
// directory, named by its content, and returns its path.
func (v *View) writeLaunchFile(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	dir := filepath.Join(v.LedgerDir, "launch")
	p := filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
	if err := writeSnapshot(dir, p, data); err != nil {
		return "", fail("nothing was started", fmt.Errorf("writing the launch snapshot: %w", err))
	}
	return p, nil
}

// Vetted writes the file `mcp-guard launch` hands client id instead of
// its project configs: exactly its reviewed servers (declined, not
// reviewed, changed or not run ones left out), each entry as it reads now,
// read back in the client's dialect before it is used. Call it only when
// nothing of the client blocks. The file is written like the snapshot.
func (v *View) Vetted(id client.ID) (*Snapshot, error) {
	if v.LedgerDir == "" {
		return nil, fail("set HOME or MCP_GUARD_HOME", fmt.Errorf("no directory for mcp-guard's state: %v", v.Ledger.Err))
	}
	c := client.Lookup(id)
	if c == nil {
		return nil, fail("", fmt.Errorf("no client %q", id))
	}
	snap := &Snapshot{}
	var keep []*trust.Server
	cv := v.ClientOf(id)
	if cv != nil {
		if len(cv.Closed) > 0 {
			return nil, refuse("`mcp-guard status` shows why", "%s", cv.Closed[0])
		}
		for _, cs := range cv.Servers {
			if !cs.IsServer() {
				continue // an entry runs from its own file: it blocked, or is reviewed
			}
			if cs.State != trust.StateReviewed || !cs.Runs {
				snap.Left = append(snap.Left, cs.Name)
				continue
			}
			keep = append(keep, cs.Server)
			snap.Servers = append(snap.Servers, cs.Name)
		}
	}
	var own []client.UserServer
	if cv != nil && cv.Eval.State != nil {
		own = cv.Eval.State.Own
	}
	data, ownNames, shadowed, err := client.VettedConfig(keep, snap.Left, own)
	if err != nil {
		return nil, fail("", err)
	}
	snap.Own = ownNames
	if len(shadowed) > 0 {
		// The user's local server of that name is what Claude Code runs.
		keep = slices.DeleteFunc(keep, func(s *trust.Server) bool { return slices.Contains(shadowed, s.Name) })
		snap.Servers = slices.DeleteFunc(snap.Servers, func(n string) bool { return slices.Contains(shadowed, n) })
		snap.Left = append(snap.Left, shadowed...)
	}
	// Read back in the client's dialect: every reviewed entry must read as
	// reviewed (the user's own are theirs, carried as written), as a file
	// of mcp-guard's own, not under a repository file's limits.
	check := client.ReadVetted(id, data)
	if !check.Valid() {
		return nil, fail("", fmt.Errorf("the vetted file does not read back as written: %v", check.Err))
	}
	got := map[string]*trust.Server{}
	for _, s := range check.Servers {
		got[s.Name] = s
	}
	for _, s := range keep {
		if g := got[s.Name]; g == nil || g.Canonical() != s.Canonical() {
			return nil, fail("", fmt.Errorf("the vetted file's server %q does not read back as reviewed", s.Name))
		}
	}
	if cv != nil {
		if err := v.handEntries(cv, snap); err != nil {
			return nil, err
		}
		if snap.Settings == "" {
			// What the vetted argv does to the reviewed entries the
			// client reads from the repository's files itself, in its
			// words.
			var runs []*trust.Server
			for _, cs := range cv.Servers {
				if !cs.IsServer() && cs.reviewed() {
					runs = append(runs, cs.Server)
				}
			}
			snap.Note = client.VettedNote(c, runs)
		}
	}
	if err := v.writeVetted(snap, data); err != nil {
		return nil, err
	}
	return snap, nil
}

// handEntries writes the settings file that hands the client its reviewed
// entries (client.HandoffEntries), when it takes them that way: each file
// the client reads is read again, and an entry is carried only when it
// reads now as it was reviewed, the client running it. A file that cannot
// be read again refuses the launch.
func (v *View) handEntries(cv *ClientView, snap *Snapshot) error {
	var files []client.HandoffFile
	for _, p := range cv.Eval.Configs {
		data, err := trust.ReadFile(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since the gate: nothing of it runs
			}
			return fail("nothing was started", fmt.Errorf("reading %s again for the launch: %w", p, err))
		}
		files = append(files, client.HandoffFile{Path: p, Data: data})
	}
	reviewed := func(config string, s *trust.Server) bool {
		for _, cs := range cv.Servers {
			if cs.reviewed() && cs.Runs && cs.Path == config && cs.Name == s.Name &&
				cs.Server.Kind == s.Kind && cs.Server.Canonical() == s.Canonical() {
				return true
			}
		}
		return false
	}
	h, err := client.HandoffEntries(cv.Client, files, reviewed)
	if err != nil {
		return refuse("review or remove it in "+cv.Title+"'s settings, or start it without launch", "%v", err)
	}
	if h == nil {
		return nil
	}
	p, err := v.writeLaunchFile(h.Data)
	if err != nil {
		return err
	}
	snap.Settings, snap.Entries, snap.EntriesLeft, snap.SettingsNote = p, h.Carried, h.Left, h.Note
	return nil
}

// writeSnapshot writes data to p (0600, its directory 0700) unless p
// already holds exactly data, and removes all but the newest snapshots.
func writeSnapshot(dir, p string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == 0o600 {
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
			now := time.Now() // the newest again, so pruning keeps it
			_ = os.Chtimes(p, now, now)
			return nil
		}
	}
	if err := atomicfile.WriteFile(p, data, 0o600); err != nil {
		return err
	}
	prune(dir, p)
	return nil
}

// prune removes the oldest snapshots beyond maxSnapshots (never keep).
func prune(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  int64
	}
	var files []file
	for _, e := range entries {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) == ".json" {
			if fi, err := e.Info(); err == nil {
				files = append(files, file{filepath.Join(dir, e.Name()), fi.ModTime().UnixNano()})
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	for i := maxSnapshots; i < len(files); i++ {
		if files[i].path != keep {
			os.Remove(files[i].path)
		}
	}
}
