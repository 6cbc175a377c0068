package policy

import "github.com/mcp-guard/mcp-guard/client"

// The MG752 cases join the rule table.
func init() {
	ruleCases = append(ruleCases, []ruleCase{
		{"cline plugin module", "MG752", true, File{Path: ".cline/plugins/d.ts", Kind: client.KindClinePlugin, Data: []byte("export default {}\n")}, Options{}, "at its next task"},
		{"cline plugin package", "MG752", true, File{Path: "x/.cline/plugins/pkg/package.json", Kind: client.KindClinePlugin, Data: []byte(`{"cline":{"plugins":["./index.js"]}}`)}, Options{}, `plugin "pkg"`},
		{"a module of a cline plugin package", "MG752", true, File{Path: ".cline/plugins/pkg/lib/x.js", Kind: client.KindClinePlugin, Data: []byte("module.exports = {}\n")}, Options{}, `code of the plugin package "pkg"`},
		{"cline hook file", "MG752", false, File{Path: ".clinerules/hooks/TaskStart", Kind: client.KindClineHook, Data: []byte("#!/bin/sh\ntrue\n")}, Options{}, ""},
	}...)
}
