package policy

// stripJSONC blanks what JSONC adds to JSON so that decodePositioned reads
// it with every position unchanged: `//` and `/* */` comments become
// spaces (newlines kept), and with trailingCommas a comma followed only by
// blanks or comments before `}` or `]` becomes a space too. Strings are
// left alone. An unterminated comment or string is left for the decoder to
// reject.
func stripJSONC(data []byte, trailingCommas bool) []byte {
	out := append([]byte(nil), data...)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	lastComma := -1
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			lastComma = -1
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			j := i
			for j < len(out) && out[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j - 1
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := i + 2
			for j+1 < len(out) && !(out[j] == '*' && out[j+1] == '/') {
				j++
			}
			if j+1 >= len(out) {
				return out // unterminated: the decoder fails on it
			}
			blank(i, j+2)
			i = j + 1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if trailingCommas && lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}
