package client

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Codex's review of a hook (observed on 0.169.0, read in openai/codex
// codex-rs/hooks/src/engine/discovery.rs, command_hook_hash, and
// codex-rs/config fingerprint.rs, version_for_toml): when you trust a hook
// in the "Hooks need review" dialog (or /hooks), Codex records
//
//	[hooks.state."<file>:<event>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// in the user's config.toml, and runs the hook without asking while the
// hash of its normalized identity is that one. The identity is the JSON
// object {"event_name": <event in snake case>, "matcher": <the group's
// matcher, dropped for events that take none>, "hooks": [<the handler:
// type, command, timeout (600 when unset, at least 1), async,
// statusMessage>]}, keys sorted at every level, serialized compactly as
// serde_json does; the hash is SHA-256 of those bytes. The script the
// command runs is not part of it. `enabled = false` under the same key
// turns the hook off: Codex skips it whatever its hash (discovery.rs,
// hook_enabled). Codex reads hooks.state only from the user's layers
// (codex-rs/hooks/src/config_rules.rs), never from a project's.

// codexHashKey is the key of an entry's extra member holding Codex's hash
// of the hook ("" when mcp-guard cannot tell it: see codexHookHash).
const codexHashKey = "codexTrustedHash"

// codexEventMatcher says, for each hook event whose identity mcp-guard
// computes, whether Codex keeps the group's matcher in it (an event that
// takes no matcher drops it: matcher_pattern_for_event).
var codexEventMatcher = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PermissionRequest": true, "SessionStart": true,
	"UserPromptSubmit": false, "Stop": false,
}

// codexHandlerKeys are the handler members whose part in the hash is
// known; a handler with any other member (additionalContextLimit, a
// timeoutSec alias, a future field) has a hash mcp-guard does not claim to
// know. commandWindows is Windows' command: on macOS and Linux it is
// dropped from the identity.
var codexHandlerKeys = map[string]bool{"type": true, "command": true, "timeout": true, "async": true, "statusMessage": true, "commandWindows": true}

// codexHookHash is Codex's trusted_hash for the hook named name
// ("hooks.SessionStart[0].hooks[1]") under hooks (the file's "hooks"
// object), "" when mcp-guard cannot tell it for certain: then any hash
// Codex recorded for the hook's key counts as trusting it (more, never
// less).
func codexHookHash(hooks trust.Value, name string) string {
	ev, g, h, ok := codexHookParts(name)
	keepMatcher, known := codexEventMatcher[ev]
	if !ok || !known {
		return ""
	}
	groups, _ := hooks.Get(ev)
	gs := groups.Elems()
	if g >= len(gs) || gs[g].Kind() != "object" {
		return ""
	}
	handlers, _ := gs[g].Get("hooks")
	hs := handlers.Elems()
	if h >= len(hs) || hs[h].Kind() != "object" {
		return ""
	}
	hd := hs[h]
	for _, k := range hd.Keys() {
		if !codexHandlerKeys[k] {
			return ""
		}
	}
	if t, _ := hd.StringAt("type"); t != "command" {
		return ""
	}
	command, ok := hd.StringAt("command")
	if !ok {
		return ""
	}
	timeout := uint64(600)
	if v, ok := hd.Get("timeout"); ok && v.Kind() != "null" {
		n, err := strconv.ParseUint(v.JSON(), 10, 64)
		if v.Kind() != "number" || err != nil {
			return ""
		}
		timeout = max(n, 1)
	}
	async := false
	if v, ok := hd.Get("async"); ok && v.Kind() != "null" {
		if async, ok = v.Bool(); !ok {
			return ""
		}
	}
	var b strings.Builder
	b.WriteString(`{"event_name":`)
	b.WriteString(trust.QuoteJSON(codexEventLabel(ev)))
	b.WriteString(`,"hooks":[{"async":` + strconv.FormatBool(async) + `,"command":`)
	b.WriteString(trust.QuoteJSON(command))
	if v, ok := hd.Get("statusMessage"); ok && v.Kind() != "null" {
		s, ok := v.Str()
		if !ok {
			return ""
		}
		b.WriteString(`,"statusMessage":`)
		b.WriteString(trust.QuoteJSON(s))
	}
	b.WriteString(`,"timeout":` + strconv.FormatUint(timeout, 10) + `,"type":"command"}]`)
	if m, ok := gs[g].Get("matcher"); ok && m.Kind() != "null" {
		s, ok := m.Str()
		if !ok {
			return ""
		}
		if keepMatcher {
			b.WriteString(`,"matcher":`)
			b.WriteString(trust.QuoteJSON(s))
		}
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexEventLabel is an event's name in Codex's keys and hashes
// ("SessionStart" → "session_start").
func codexEventLabel(ev string) string {
	var b strings.Builder
	for i, r := range ev {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexEntryHash is the hash codexHookHash gave the entry s, "" when none.
func codexEntryHash(s *trust.Server) string {
	if s == nil {
		return ""
	}
	v, ok := s.Value(codexHashKey)
	if !ok {
		return ""
	}
	h, _ := v.Str()
	return h
}

// codexHookState is what the user's Codex state says of one hook key: the
// hash it trusts, and whether the hook is turned off.
type codexHookState struct {
	hash string
	off  bool
}

// CodexHookHash is Codex's trusted_hash of the hook name in the hooks
// file or config.toml layer at path with contents data, "" when mcp-guard
// cannot tell it (for the fidelity tests and scan).
func CodexHookHash(path string, data []byte, name string) string {
	for _, s := range (codexClient{}).Parse(path, data).Servers {
		if s.Kind == EntryHook && s.Name == name {
			return codexEntryHash(s)
		}
	}
	return ""
}
