package trust

import (
	"crypto/sha256"
	"encoding/hex"
)

// Fingerprint computes agentty's per-server fingerprint:
//
//	blob = "cmd" 0x00 <command> 0x00 "url" 0x00 <url> ( 0x00 <arg> )*
//	fingerprint = lowercase hex SHA-256(blob)
//
// over the string args only, in order, with no length prefixes. It is empty
// when command and url are both empty (such an entry is never approved).
// The blob is not injective when a value contains NUL; that is agentty's
// behaviour and mcp-guard reproduces it (and reports it as MG104).
func Fingerprint(command, url string, stringArgs []string) string {
	if command == "" && url == "" {
		return ""
	}
	h := sha256.New()
	h.Write([]byte("cmd\x00"))
	h.Write([]byte(command))
	h.Write([]byte("\x00url\x00"))
	h.Write([]byte(url))
	for _, a := range stringArgs {
		h.Write([]byte{0})
		h.Write([]byte(a))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// BlanketEnv reports whether a value of AGENTTY_MCP_ALLOW_PROJECT turns the
// gate off: agentty looks only at the first byte, which must be one of
// 1 t T y Y ("tomato" is true, "on" is false).
func BlanketEnv(value string) bool {
	if value == "" {
		return false
	}
	switch value[0] {
	case '1', 't', 'T', 'y', 'Y':
		return true
	}
	return false
}
