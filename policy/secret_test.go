package policy

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

func TestSecretValue(t *testing.T) {
	cases := []struct {
		name, value string
		secret      bool
		why         string
	}{
		// Known token shapes, whatever the name.
		{"X", "ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678", true, "GitHub token"},
		{"X", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV", true, "fine-grained"},
		{"X", "glpat-Zx8yW7vU6tS5rQ4pO3nM", true, "GitLab"},
		{"X", "sk-ant-api03-Q2hhbmdlTWVOb3RSZWFsbHlBS2V5MTIzNDU2Nzg", true, "Anthropic"},
		{"X", "sk-proj-aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW", true, "OpenAI"},
		{"X", "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp", true, "Slack"},
		{"X", "AKIAZ7Q2L4M6N8P0R3T5", true, "AWS"},
		{"X", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", true, "Google"},
		{"X", "npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW2xY4", true, "npm"},
		{"X", "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH", true, "Hugging Face"},
		{"X", "sbp_720f3abc09023332c8c0d35191e6335146544084", true, "Supabase"},
		{"Authorization", "Bearer ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678", true, "GitHub token"},
		{"Authorization", "Basic dGVzdEBsaWZlcmF5LmNvbTp0ZXN0", true, "Basic"},
		{"X-API-Key", "a8f3K2m9Q7z1X5c4V6b0N2m8", true, "literal credential"},
		{"DB_PASSWORD", "vault-dev-password", true, "password"},
		{"DATABASE_URL", "postgres://app:Tr0ub4dor3@db/app", true, "URL"},
		{"REMOTE", "https://api.example.com/v1?api_key=a8f3K2m9Q7z1X5c4V6b0", true, "api_key"},
		// References and placeholders are not secrets.
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}", false, ""},
		{"TOKEN", "${input:github_pat}", false, ""},
		{"TOKEN", "${env:GITHUB_TOKEN}", false, ""},
		{"TOKEN", "${GITHUB_TOKEN:-}", false, ""},
		{"TOKEN", "$GITHUB_TOKEN", false, ""},
		{"TOKEN", "%GITHUB_TOKEN%", false, ""},
		{"TOKEN", "<your-token>", false, ""},
		{"API_KEY", "your_api_key_here", false, ""},
		{"API_KEY", "YOUR_API_KEY", false, ""},
		{"API_KEY", "ANTHROPIC_API_KEY_HERE", false, ""},
		{"API_KEY", "[REDACTED_API_KEY]", false, ""},
		{"API_KEY", "xxxxxxxxxxxxxxxxxxxx", false, ""},
		{"API_KEY", "sk-xxxxxxxxxxxxxxxxxxxxxxxx", false, ""},
		{"API_KEY", "changeme", false, ""},
		{"GITHUB_TOKEN", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", false, ""},
		{"AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE", false, ""},
		{"Authorization", "Bearer ${input:token}", false, ""},
		{"Authorization", "Bearer <token>", false, ""},
		// Not credentials at all.
		{"MAX_TOKENS", "4096", false, ""},
		{"TOKEN_LIMIT", "a8f3K2m9Q7z1X5c4V6b0", false, ""},
		{"SSH_KEY_PATH", "/home/me/.ssh/id_ed25519", false, ""},
		{"PUBLIC_KEY", "a8f3K2m9Q7z1X5c4V6b0N2m8", false, ""},
		{"API_KEY_FILE", "secrets/key.txt", false, ""},
		{"AUTH_ENABLED", "true", false, ""},
		{"PWD", "a8f3K2m9Q7z1X5c4V6b0", false, ""},
		{"LOG_LEVEL", "a8f3K2m9Q7z1X5c4V6b0", false, ""},
		{"JIRA_URL", "https://example.atlassian.net", false, ""},
		{"API_KEY", "short", false, ""},
		{"SECRET_NAME", "production-database", false, ""},
	}
	for _, tc := range cases {
		sec, _, why, ok := secretValue(tc.name, tc.value)
		if ok != tc.secret {
			t.Errorf("%s=%q: secret %v (%s), want %v", tc.name, tc.value, ok, why, tc.secret)
			continue
		}
		if ok && (!strings.Contains(why, tc.why) || sec == "" || !strings.Contains(tc.value, sec)) {
			t.Errorf("%s=%q: why %q secret %q; want why containing %q", tc.name, tc.value, why, sec, tc.why)
		}
	}
}

func TestRedact(t *testing.T) {
	cases := map[[2]string]string{
		{"ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678", "ghp_"}: "ghp_Ab…(40 chars)",
		{"NXSkkmy7bVDU_fW5uv5lYKXII07r0b-", ""}:              "NXSk…(31 chars)",
		{"s3cr3tPass", ""}:                                   "s3…(10 chars)",
		{"hunter22", ""}:                                     "…(8 chars)",
		{"sk-ab", "sk-"}:                                     "s…(5 chars)",
	}
	for in, want := range cases {
		if got := redact(in[0], in[1]); got != want {
			t.Errorf("redact(%q) = %q, want %q", in[0], got, want)
		}
	}
	in := "curl -H 'Authorization: Bearer ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678' https://x"
	if got := redactTokens(in); strings.Contains(got, "Pqr678") || !strings.Contains(got, "ghp_Ab…(40 chars)") {
		t.Errorf("redactTokens(%q) = %q", in, got)
	}
}

func TestKeyLikeName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "apiKey": true, "APIKey": true, "X-API-Key": true, "client_secret": true,
		"Authorization": true, "DB_PASSWORD": true, "PGPASSWORD": true, "passphrase": true, "github_pat": true,
		"PUBLIC_KEY": false, "SSH_KEY_PATH": false, "KEY_ID": false, "MAX_TOKENS": false, "KEYBOARD": false,
		"PWD": false, "monkey": false,
	} {
		if got := keyLikeName(name); got != want {
			t.Errorf("keyLikeName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSecretsOfADeepValue: a key's value nested 100,000 levels deep (which
// agentty reads) is not searched for secrets past maxSecretDepth, and long
// keys nested within it cost no more than their size, so the rules stay
// within memory; a secret within the bound is still found, with its path.
func TestSecretsOfADeepValue(t *testing.T) {
	const n = 100000
	deep := `{"mcpServers":{"deep":{"command":"x","headers":` + strings.Repeat(`{"a":`, n) + `"ghp_0123456789abcdef0123456789abcdef0123"` + strings.Repeat("}", n) + `}}}`
	cfg := trust.Parse(".mcp.json", []byte(deep), trust.ScopeProject)
	if cfg.Err != nil {
		t.Fatal(cfg.Err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fs := CheckServers(cfg, Options{})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("CheckServers allocated %d bytes", got)
	}
	for _, f := range fs {
		if f.Rule == "MG401" {
			t.Errorf("searched past maxSecretDepth: %.200s", f.Message)
		}
	}
	// Long keys within the bound: 400 levels of 30,000-byte keys (12 MB)
	// built 2.3 GB of key paths when each string's path was built.
	key := strings.Repeat("k", 30000)
	long := `{"mcpServers":{"long":{"command":"x","headers":` + strings.Repeat(`{"`+key+`":`, 400) + `"v"` + strings.Repeat("}", 400) + `}}}`
	cfg = trust.Parse(".mcp.json", []byte(long), trust.ScopeProject)
	runtime.ReadMemStats(&before)
	CheckServers(cfg, Options{})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
		t.Errorf("long keys: CheckServers allocated %d bytes", got)
	}
	shallow := `{"mcpServers":{"s":{"command":"x","headers":` + strings.Repeat(`{"a":`, 10) + `"ghp_0123456789abcdef0123456789abcdef0123"` + strings.Repeat("}", 10) + `}}}`
	if !slices.ContainsFunc(CheckServers(trust.Parse(".mcp.json", []byte(shallow), trust.ScopeProject), Options{}), func(f trust.Finding) bool {
		return f.Rule == "MG401" && f.Key == "mcpServers.s.headers"+strings.Repeat(".a", 10)
	}) {
		t.Error("a secret 10 levels deep is not found at its path")
	}
}
