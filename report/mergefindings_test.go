package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestMergeFindingsKeepsNames: the same finding in each reader's words is
// said once with "each agent" where the readings differ, and a server
// named after an agent keeps its name; findings that differ otherwise
// stay apart.
func TestMergeFindingsKeepsNames(t *testing.T) {
	mg105 := func(server, by string) statusFinding {
		return statusFinding{by: by, Finding: trust.Finding{Rule: "MG105", Path: ".mcp.json", Line: 1, Server: server,
			Key: "mcpServers." + server + ".args[0]", Severity: trust.SeverityMedium,
			Message: `server "` + server + `": args[0]: ` + "`db.js`" + `: node runs it; ` + by + `'s approval does not cover its content`}}
	}
	for _, tc := range []struct {
		name  string
		found []statusFinding
		want  []string // messages, with their readers
	}{
		{"a server named after the first reader", []statusFinding{mg105("Claude Code tools", "Claude Code"), mg105("Claude Code tools", "Qwen Code"), mg105("Claude Code tools", "Copilot CLI")},
			[]string{`server "Claude Code tools": args[0]: ` + "`db.js`" + `: node runs it; each agent's approval does not cover its content` + " [Claude Code Qwen Code Copilot CLI]"}},
		{"a server named after a later reader", []statusFinding{mg105("Qwen Code", "Claude Code"), mg105("Qwen Code", "Qwen Code")},
			[]string{`server "Qwen Code": args[0]: ` + "`db.js`" + `: node runs it; each agent's approval does not cover its content` + " [Claude Code Qwen Code]"}},
		{"one reader", []statusFinding{mg105("Claude Code", "Claude Code")},
			[]string{`server "Claude Code": args[0]: ` + "`db.js`" + `: node runs it; Claude Code's approval does not cover its content` + " [Claude Code]"}},
		{"different words stay apart", []statusFinding{mg105("db", "Claude Code"), func() statusFinding {
			f := mg105("db", "Qwen Code")
			f.Message += "!"
			return f
		}()}, []string{
			`server "db": args[0]: ` + "`db.js`" + `: node runs it; Claude Code's approval does not cover its content` + " [Claude Code]",
			`server "db": args[0]: ` + "`db.js`" + `: node runs it; Qwen Code's approval does not cover its content!` + " [Qwen Code]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range mergeFindings(tc.found, nil) {
				got = append(got, f.Message+" ["+strings.Join(f.readers, " ")+"]")
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestAgentSpans: only where the two readings differ is an agent's name
// taken for one.
func TestAgentSpans(t *testing.T) {
	for _, tc := range []struct {
		a, ta, b, tb string
		want         [][2]int
		ok           bool
	}{
		{"Claude Code's x", "Claude Code", "Qwen Code's x", "Qwen Code", [][2]int{{0, 11}}, true},
		{`"Claude Code" Claude Code`, "Claude Code", `"Claude Code" Copilot CLI`, "Copilot CLI", [][2]int{{14, 25}}, true},
		{"same", "Claude Code", "same", "Qwen Code", nil, true},
		{"Claude Code x", "Claude Code", "Qwen Code y", "Qwen Code", nil, false},
		{"Roo x", "Roo", "Roo Code x", "Roo Code", nil, false},
	} {
		got, ok := agentSpans(tc.a, tc.ta, tc.b, tc.tb)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("agentSpans(%q, %q, %q, %q) = %v, %v; want %v, %v", tc.a, tc.ta, tc.b, tc.tb, got, ok, tc.want, tc.ok)
		}
	}
}
