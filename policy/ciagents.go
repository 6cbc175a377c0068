package policy

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
	"github.com/mcp-guard/mcp-guard/trust"
)

// The other agents a CI workflow may run in the checkout (MG714, MG715),
// on the shell walk of ciworkflow.go. Gemini CLI and Codex as observed
// (clients-observed.md); Cursor's agent from its documentation.

// geminiTrusted is what GEMINI_CLI_TRUST_WORKSPACE=true does.
const geminiTrusted = "Gemini CLI treats every folder as trusted, so the checkout's .gemini/settings.json servers run on the runner, unapproved, with every change a branch makes to them"

// geminiTrustText finds the variable set to true in shell text: an
// assignment, an export, or a line written to $GITHUB_ENV.
var geminiTrustText = lazyre.Regexp{Expr: `GEMINI_CLI_TRUST_WORKSPACE\s*[=:]\s*["']?true\b`}

// trustEnv reports GEMINI_CLI_TRUST_WORKSPACE set to true under key (env
// for GitHub, variables for GitLab, where a variable may be {value: …}).
func (c *ciCheck) trustEnv(n *yaml.Node, key string) error {
	ps, err := c.members(n, key)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p[0].Value != "GEMINI_CLI_TRUST_WORKSPACE" {
			continue
		}
		val, err := c.deref(p[1])
		if err != nil {
			return err
		}
		if val != nil && val.Kind == yaml.MappingNode {
			if val, err = c.scalar(val, "value"); err != nil {
				return err
			}
		}
		if val == nil || val.Kind != yaml.ScalarNode {
			continue
		}
		switch {
		case val.Value == "true":
			c.out = append(c.out, trust.NewFinding("MG714", c.path, c.pos(p[0], 0), "", key+".GEMINI_CLI_TRUST_WORKSPACE",
				key+".GEMINI_CLI_TRUST_WORKSPACE: true: "+geminiTrusted))
		case ghExpr.Get().MatchString(val.Value) || strings.Contains(val.Value, "$"):
			c.out = append(c.out, trust.NewFinding("MG714", c.path, c.pos(p[0], 0), "", key+".GEMINI_CLI_TRUST_WORKSPACE",
				key+".GEMINI_CLI_TRUST_WORKSPACE is "+quote(val.Value)+", a value mcp-guard cannot know: where it is true, "+geminiTrusted))
		}
	}
	return nil
}

// headlessAgent is an agent CLI and how a command line of it spawns the
// checkout's servers ("" when it does not).
type headlessAgent struct {
	bin, pkg string
	spawns   func(args []word) string
}

var headlessAgents = []headlessAgent{
	{"gemini", "@google/gemini-cli", geminiSpawns},
	{"codex", "@openai/codex", codexSpawns},
	{"cursor-agent", "", cursorSpawns},
}

// agentFlags splits an agent's arguments: the options seen (--opt=value
// as --opt), the operands, and whether any word is not literal.
func agentFlags(args []word, valueFlags map[string]bool) (flags map[string]bool, operands []string, unknown bool) {
	flags = map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			unknown = true
			continue
		}
		t := a.text
		switch {
		case t == "--":
			for _, r := range args[i+1:] {
				operands = append(operands, r.text)
			}
			return flags, operands, unknown
		case strings.HasPrefix(t, "-") && len(t) > 1:
			name, _, hasValue := strings.Cut(t, "=")
			flags[name] = true
			if valueFlags[name] && !hasValue {
				i++
			}
		default:
			operands = append(operands, t)
		}
	}
	return flags, operands, unknown
}

func helpOrVersion(flags map[string]bool) bool {
	return flags["--version"] || flags["-v"] || flags["--help"] || flags["-h"]
}

var geminiValueFlags = map[string]bool{"-m": true, "--model": true, "-p": true, "--prompt": true, "-i": true,
	"--prompt-interactive": true, "--approval-mode": true, "--allowed-mcp-server-names": true, "--allowed-tools": true,
	"-e": true, "--extensions": true, "--include-directories": true, "-o": true, "--output-format": true}

// geminiSpawns: `gemini -p`, a positional prompt (headless without a
// terminal, as in CI) and `gemini mcp list` start the workspace's servers
// where the folder is trusted.
func geminiSpawns(args []word) string {
	flags, ops, unknown := agentFlags(args, geminiValueFlags)
	const then = ": where the folder is trusted (GEMINI_CLI_TRUST_WORKSPACE=true, or a trustedFolders entry) it spawns every server of the checkout's .gemini/settings.json, unapproved"
	switch {
	case helpOrVersion(flags):
		return ""
	case flags["-p"] || flags["--prompt"] || flags["-i"] || flags["--prompt-interactive"]:
		return "runs Gemini CLI headless" + then
	case len(ops) > 0 && ops[0] == "mcp":
		if len(ops) > 1 && ops[1] == "list" {
			return "checks the servers' health" + then
		}
		return ""
	case len(ops) > 0 && (ops[0] == "extensions" || ops[0] == "extension"):
		return ""
	case len(ops) > 0:
		return "gives Gemini CLI a prompt, which it runs headless without a terminal" + then
	case unknown:
		return "has arguments mcp-guard cannot read" + then
	}
	return ""
}

var codexValueFlags = map[string]bool{"-c": true, "--config": true, "-m": true, "--model": true, "-p": true,
	"--profile": true, "-C": true, "--cd": true, "-s": true, "--sandbox": true, "-a": true, "--ask-for-approval": true,
	"-i": true, "--image": true, "--output-last-message": true, "-o": true, "--color": true}

// codexSpawns: `codex exec` runs headless and spawns the project layers'
// servers where the project is trusted; `codex mcp list` never spawns.
func codexSpawns(args []word) string {
	flags, ops, unknown := agentFlags(args, codexValueFlags)
	switch {
	case helpOrVersion(flags):
		return ""
	case len(ops) > 0 && (ops[0] == "exec" || ops[0] == "e"):
		return "runs Codex headless: where the project is trusted in ~/.codex/config.toml it spawns every server of the checkout's .codex/config.toml layers, unapproved"
	case len(ops) == 0 && unknown:
		return "has arguments mcp-guard cannot read: it may run Codex headless and spawn the checkout's .codex/config.toml servers"
	}
	return ""
}

var cursorValueFlags = map[string]bool{"-m": true, "--model": true, "--output-format": true, "--api-key": true,
	"--resume": true, "--workspace": true, "-H": true, "--header": true, "--sandbox": true, "--mode": true, "-n": true, "--name": true}

// cursorSpawns: `cursor-agent -p --approve-mcps` runs every server of the
// checkout's .cursor/mcp.json without approval (Cursor's documentation;
// without --approve-mcps a fresh runner has no approvals to use).
func cursorSpawns(args []word) string {
	flags, _, unknown := agentFlags(args, cursorValueFlags)
	headless := flags["-p"] || flags["--print"]
	switch {
	case helpOrVersion(flags):
		return ""
	case headless && flags["--approve-mcps"]:
		return "runs Cursor's agent headless with --approve-mcps: every server of the checkout's .cursor/mcp.json runs on the runner, unapproved"
	case headless && unknown:
		return "runs Cursor's agent headless with arguments mcp-guard cannot read: with --approve-mcps every server of the checkout's .cursor/mcp.json runs, unapproved"
	}
	return ""
}

// agentWord finds the agents' names as words.
var agentWord = lazyre.Regexp{Expr: `(?i)(^|[^a-z0-9_-])(gemini|codex|cursor-agent)([^a-z0-9_-]|$)`}

// mentionsAgent returns the first agent text names, "" for none.
func mentionsAgent(text string) string {
	if m := agentWord.Get().FindStringSubmatch(text); m != nil {
		return strings.ToLower(m[2])
	}
	return ""
}
