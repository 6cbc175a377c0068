// Package report renders mcp-guard's plain data (findings, changes, verdicts)
// for people and for machines: aligned text, versioned JSON, SARIF 2.1.0 and
// GitHub annotations.
//
// It is the only package that knows about terminals and colours. Everything
// that came from a repository (server names, commands, arguments, environment
// values, paths) is attacker-controlled; before such a string reaches a
// terminal it goes through [Sanitize], which shows control characters, escape
// sequences, bidi overrides and invisible characters escaped instead of
// letting the terminal interpret them. Colour is decided once per output by
// [ColorEnabled] and applied through a [Style].
package report
