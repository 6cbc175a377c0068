package policy

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/url"
	"strings"
	"unicode"
)

// tokenShape is a credential format recognisable by its prefix.
type tokenShape struct {
	prefix string
	what   string
	// min is the least number of characters after the prefix; body says
	// which characters they are.
	min  int
	body func(byte) bool
}

func alnum(c byte) bool      { return isDigit(c) || isASCIILetter(c) }
func alnumUnder(c byte) bool { return alnum(c) || c == '_' }
func alnumDash(c byte) bool  { return alnum(c) || c == '_' || c == '-' }
func upperDigit(c byte) bool { return isDigit(c) || c >= 'A' && c <= 'Z' }
func hexDigit(c byte) bool   { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func base64ish(c byte) bool  { return alnumDash(c) || c == '.' || c == '/' || c == '+' || c == '=' }

// tokenShapes are the known credential prefixes, longest first where one
// prefix extends another (sk-ant- before sk-).
var tokenShapes = []tokenShape{
	{"github_pat_", "GitHub fine-grained token", 40, alnumUnder},
	{"ghp_", "GitHub token", 30, alnum},
	{"gho_", "GitHub OAuth token", 30, alnum},
	{"ghu_", "GitHub user token", 30, alnum},
	{"ghs_", "GitHub app token", 30, alnum},
	{"ghr_", "GitHub refresh token", 30, alnum},
	{"glpat-", "GitLab token", 20, alnumDash},
	{"glptt-", "GitLab trigger token", 20, alnumDash},
	{"gldt-", "GitLab deploy token", 20, alnumDash},
	{"glrt-", "GitLab runner token", 20, alnumDash},
	{"sk-ant-", "Anthropic key", 30, alnumDash},
	{"sk-proj-", "OpenAI key", 30, alnumDash},
	{"sk-or-", "OpenRouter key", 30, alnumDash},
	{"sk_live_", "Stripe key", 20, alnum},
	{"rk_live_", "Stripe key", 20, alnum},
	{"sk_test_", "Stripe test key", 20, alnum},
	{"sk-", "API key", 20, alnumDash},
	{"xoxb-", "Slack bot token", 20, alnumDash},
	{"xoxp-", "Slack user token", 20, alnumDash},
	{"xoxa-", "Slack token", 20, alnumDash},
	{"xoxr-", "Slack refresh token", 20, alnumDash},
	{"xoxe-", "Slack token", 20, alnumDash},
	{"xapp-", "Slack app token", 20, alnumDash},
	{"AKIA", "AWS access key", 16, upperDigit},
	{"ASIA", "AWS temporary access key", 16, upperDigit},
	{"AIza", "Google API key", 35, alnumDash},
	{"ya29.", "Google OAuth token", 30, alnumDash},
	{"npm_", "npm token", 36, alnum},
	{"pypi-", "PyPI token", 50, alnumDash},
	{"hf_", "Hugging Face token", 30, alnum},
	{"sbp_", "Supabase token", 40, hexDigit},
	{"ctx7sk-", "Context7 key", 30, alnumDash},
	{"shpat_", "Shopify token", 32, hexDigit},
	{"shpss_", "Shopify secret", 32, hexDigit},
	{"dop_v1_", "DigitalOcean token", 64, hexDigit},
	{"lin_api_", "Linear key", 30, alnum},
	{"ntn_", "Notion token", 30, alnum},
	{"secret_", "Notion secret", 40, alnum},
	{"figd_", "Figma token", 30, alnumDash},
	{"glsa_", "Grafana token", 30, alnumUnder},
	{"sntrys_", "Sentry token", 30, base64ish},
	{"xai-", "xAI key", 40, alnumDash},
	{"gsk_", "Groq key", 40, alnum},
	{"pplx-", "Perplexity key", 40, alnum},
	{"r8_", "Replicate token", 30, alnum},
	{"tvly-", "Tavily key", 20, alnumDash},
	{"fc-", "Firecrawl key", 30, alnum},
	{"pat", "Airtable token", 60, func(c byte) bool { return alnum(c) || c == '.' }},
	{"SG.", "SendGrid key", 60, func(c byte) bool { return alnumDash(c) || c == '.' }},
	{"eyJ", "JSON web token", 30, func(c byte) bool { return alnumDash(c) || c == '.' }},
}

// knownToken reports whether s (one whole word) is a credential of a known
// shape, and which.
func knownToken(s string) (tokenShape, bool) {
	for _, t := range tokenShapes {
		rest, ok := strings.CutPrefix(s, t.prefix)
		if !ok || len(rest) < t.min {
			continue
		}
		good := true
		for i := 0; i < len(rest); i++ {
			if !t.body(rest[i]) {
				good = false
				break
			}
		}
		if !good || placeholder(rest) || entropy(rest) < 3.0 {
			continue
		}
		if t.prefix == "eyJ" && strings.Count(s, ".") != 2 {
			continue
		}
		return t, true
	}
	if strings.Contains(s, "-----BEGIN") && strings.Contains(s, "PRIVATE KEY") {
		return tokenShape{prefix: "-----BEGIN", what: "private key"}, true
	}
	return tokenShape{}, false
}

// tokenFields splits free text into the words a token could be.
func tokenFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`"'=:,;()[]{}<>|&`+"`", r)
	})
}

// redactTokens replaces every credential in free text (a command line, a
// script) by its redacted form, so that messages never repeat one: known
// token shapes anywhere, and the values of key-like assignments
// (api_key='…', --token=…, "TOKEN": "…").
func redactTokens(s string) string {
	for _, w := range tokenFields(s) {
		if t, ok := knownToken(w); ok {
			s = strings.ReplaceAll(s, w, redact(w, t.prefix))
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '=' && s[i] != ':' {
			continue
		}
		start := i
		for start > 0 && (alnumDash(s[start-1]) || s[start-1] == '.') {
			start--
		}
		end := i + 1
		for end < len(s) && strings.IndexByte(" \t\"'", s[end]) >= 0 {
			end++
		}
		vstart := end
		for end < len(s) && strings.IndexByte(" \t\"'`,;()[]{}<>|&", s[end]) < 0 {
			end++
		}
		if start == i || vstart == end {
			continue
		}
		name, value := strings.TrimLeft(s[start:i], "-"), s[vstart:end]
		if sec, prefix, _, ok := secretValue(name, value); ok && sec != "" && !strings.Contains(sec, "…(") {
			r := redact(sec, prefix)
			s = s[:vstart] + strings.Replace(s[vstart:], sec, r, 1)
			i = vstart + len(r) - 1
		}
	}
	return s
}

// redact shows a secret by its first characters and its length only:
// "ghp_ab…(40 chars)". Short secrets show nothing of themselves.
func redact(s, prefix string) string {
	n := len(s)
	show := 0
	switch {
	case prefix != "" && len(prefix) < n:
		show = len(prefix) + 2
	case n >= 16:
		show = 4
	case n >= 10:
		show = 2
	}
	if show >= n/2 {
		show = min(show, n/3)
	}
	return fmt.Sprintf("%s…(%d chars)", s[:show], n)
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// placeholderWords mark example values ("<your-token>", "your_api_key_here",
// "changeme").
var placeholderWords = []string{"your", "here", "example", "placeholder", "changeme", "change_me", "change-me",
	"replace", "redacted", "dummy", "insert", "xxxx", "****", "....", "…", "todo", "fixme", "sample", "<", "{{", "fake", "token_goes"}

// placeholder reports values that stand for a secret rather than being
// one: references that something else expands (${VAR}, ${input:…},
// ${env:…}, $VAR, %VAR%), angle-bracket and bracket templates, example
// words, runs of one character, and names written in capitals
// (OPENAI_API_KEY_HERE, MY_TOKEN).
func placeholder(v string) bool {
	t := strings.TrimSpace(v)
	if t == "" {
		return true
	}
	if strings.Contains(t, "${") || strings.Contains(t, "$(") || strings.Contains(t, "{{") {
		return true
	}
	if t[0] == '$' && len(t) > 1 && (isASCIILetter(t[1]) || t[1] == '_') {
		return true
	}
	if len(t) > 2 && t[0] == '%' && t[len(t)-1] == '%' {
		return true
	}
	if (t[0] == '<' && t[len(t)-1] == '>') || (t[0] == '[' && t[len(t)-1] == ']') || (t[0] == '{' && t[len(t)-1] == '}') {
		return true
	}
	lower := strings.ToLower(t)
	for _, w := range placeholderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	if strings.Trim(t, t[:1]) == "" { // one repeated character
		return true
	}
	upperIdent := true
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'A' && c <= 'Z') && c != '_' && !isDigit(c) {
			upperIdent = false
			break
		}
	}
	return upperIdent && strings.Contains(t, "_")
}

// keyLikeName reports names of things that hold credentials: env
// variables, headers, flags, JSON keys and query parameters. The name is
// split into words (snake, kebab, camel case); publicly shareable keys are
// excluded.
func keyLikeName(name string) bool {
	words := nameWords(name)
	secret := false
	for i, w := range words {
		switch w {
		case "public", "pub", "id", "url", "uri", "path", "file", "dir", "host", "endpoint", "name", "type",
			"length", "ttl", "expiry", "expires", "header", "prefix", "limit", "count", "max", "min", "mode", "enabled", "size":
			if i == len(words)-1 || w == "public" || w == "pub" {
				return false
			}
		case "token", "secret", "password", "passwd", "pass", "passphrase", "pwd", "apikey", "credential",
			"credentials", "auth", "authorization", "cookie", "pat", "privatekey", "accesskey", "sessionkey", "bearer", "sig", "signature":
			secret = true
		case "key":
			secret = true
		default:
			// Compound words: PGPASSWORD, GITHUBTOKEN, MYSECRET.
			for _, m := range []string{"password", "passwd", "passphrase", "secret", "apikey", "accesskey", "privatekey"} {
				if strings.Contains(w, m) {
					secret = true
				}
			}
			if strings.HasSuffix(w, "token") {
				secret = true
			}
		}
	}
	if name == "PWD" {
		return false // the shell's working directory
	}
	return secret
}

// passwordName reports names whose literal values are secrets however
// plain they look.
func passwordName(name string) bool {
	for _, w := range nameWords(name) {
		switch {
		case w == "pwd" || w == "pass":
			return name != "PWD"
		case strings.Contains(w, "password") || strings.Contains(w, "passwd") || strings.Contains(w, "passphrase"):
			return true
		}
	}
	return false
}

// nameWords splits a name into lower-case words at _, -, ., spaces and
// camel-case boundaries.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '[' || r == ']':
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// secretValue decides whether value, held by something called name, is a
// literal credential. It returns the part of the value that is the secret
// (without "Bearer "), its known prefix if any, and why.
func secretValue(name, value string) (secret, prefix, why string, ok bool) {
	v := strings.TrimSpace(value)
	// A URL: only its password and key-like query parameters can be
	// secrets ("example" in a host name is no placeholder).
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" && !strings.ContainsAny(v, " \t") {
		if pw, has := u.User.Password(); has && pw != "" && !placeholder(pw) {
			return pw, "", "a password inside a URL", true
		}
		for k, vals := range u.Query() {
			for _, qv := range vals {
				if keyLikeName(k) && !placeholder(qv) && (highEntropy(qv) || knownTokenOK(qv)) {
					return qv, "", "a credential in the URL's " + k + " parameter", true
				}
			}
		}
		return "", "", "", false
	}
	if placeholder(v) {
		return "", "", "", false
	}
	if t, found := knownToken(v); found {
		return v, t.prefix, "a " + t.what, true
	}
	// "Bearer X", "token X", "Basic X".
	if scheme, cred, has := strings.Cut(v, " "); has && !strings.Contains(strings.TrimSpace(cred), " ") {
		switch strings.ToLower(scheme) {
		case "bearer", "token", "basic", "apikey", "api-key", "key", "bot", "sso-key":
			cred = strings.TrimSpace(cred)
			if placeholder(cred) {
				return "", "", "", false
			}
			if t, found := knownToken(cred); found {
				return cred, t.prefix, "a " + t.what, true
			}
			if strings.EqualFold(scheme, "basic") {
				if basicCredential(cred) {
					return cred, "", "a Basic user:password credential", true
				}
				return "", "", "", false
			}
			if highEntropy(cred) {
				return cred, "", "a literal " + scheme + " credential", true
			}
			return "", "", "", false
		}
	}
	if !keyLikeName(name) || strings.ContainsAny(v, " \t\n") || absolutePath(v) || relativePath(v) {
		return "", "", "", false
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "null", "none", "test", "secret", "password", "token":
		return "", "", "", false
	}
	if numeric(v) && len(v) < 12 {
		return "", "", "", false
	}
	if passwordName(name) && len(v) >= 6 {
		return v, "", "a literal password", true
	}
	if highEntropy(v) {
		return v, "", "a literal credential", true
	}
	return "", "", "", false
}

func knownTokenOK(s string) bool { _, ok := knownToken(s); return ok }

// highEntropy reports a value that looks machine-generated: long enough,
// several character classes, and at least 3 bits of entropy per character.
func highEntropy(v string) bool {
	if len(v) < 12 {
		return false
	}
	classes := 0
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case isDigit(c):
			digit = true
		default:
			other = true
		}
	}
	for _, b := range []bool{lower, upper, digit, other} {
		if b {
			classes++
		}
	}
	if classes < 2 {
		return false
	}
	return entropy(v) >= 3.0
}

// basicCredential reports a Basic credential that decodes to user:password
// with a password that is not a placeholder.
func basicCredential(cred string) bool {
	b, err := base64.StdEncoding.DecodeString(cred)
	if err != nil {
		return false
	}
	_, pw, ok := strings.Cut(string(b), ":")
	return ok && pw != "" && !placeholder(pw)
}
