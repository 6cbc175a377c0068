package policy

import "github.com/mcp-guard/mcp-guard/client"

// The MG752 cases join the rule table.
func init() {
	ruleCases = append(ruleCases, []ruleCase{
		{"cline plugin module", "MG752", true, File{Path: ".cline/plugins/d.ts", Kind: client.KindClinePlugin, Data: []byte("export default {}\n")}, Options{}, "at its next task"},
		{"cline hook file", "MG752", false, File{Path: ".clinerules/hooks/TaskStart", Kind: client.KindClineHook, Data: []byte("#!/bin/sh\ntrue\n")}, Options{}, ""},
	}...)
}
