package fidelity

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// markerFlag, as the test binary's first argument, makes it a marker
// server: `<test binary> -fidelity-marker <name> [args...]`.
const markerFlag = "-fidelity-marker"

// record is one start of a marker server, one JSON line in $MARKER_DIR/<name>.
type record struct {
	Argv []string          `json:"argv"` // after the marker flag, the name first
	Cwd  string            `json:"cwd"`
	Env  map[string]string `json:"env"` // FOO, NODE_OPTIONS and every FID_* variable
}

// runMarker records this start, then serves MCP over newline-delimited
// JSON-RPC on stdio until stdin closes. It returns the exit status.
func runMarker(args []string) int {
	if len(args) < 1 || os.Getenv("MARKER_DIR") == "" {
		return 2
	}
	name := filepath.Base(args[0])
	rec := record{Argv: args, Env: map[string]string{}}
	rec.Cwd, _ = os.Getwd()
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if k == "FOO" || k == "NODE_OPTIONS" || strings.HasPrefix(k, "FID_") {
			rec.Env[k] = v
		}
	}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(filepath.Join(os.Getenv("MARKER_DIR"), name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 2
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err != nil || cerr != nil {
		return 2
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification or noise: no answer
		}
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			pv := req.Params.ProtocolVersion
			if pv == "" {
				pv = "2025-06-18"
			}
			resp["result"] = map[string]any{
				"protocolVersion": pv,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "marker-" + name, "version": "1.0.0"},
			}
		case "tools/list":
			resp["result"] = map[string]any{"tools": []any{map[string]any{
				"name":        "ping",
				"description": "fidelity marker",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}},
			}}}
		case "ping":
			resp["result"] = map[string]any{}
		default:
			resp["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		if out.Encode(resp) != nil {
			return 0
		}
	}
	return 0
}

// readMarkers returns every marker server's records, by server name.
func readMarkers(dir string) (map[string][]record, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	got := map[string][]record{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r record
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				return nil, err
			}
			got[e.Name()] = append(got[e.Name()], r)
		}
	}
	return got, nil
}

func names(m map[string][]record) []string {
	var s []string
	for n := range m {
		s = append(s, n)
	}
	sort.Strings(s)
	return s
}
