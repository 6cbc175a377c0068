package surface

// KindCIWorkflow is a CI definition at the repository root: what a
// repository's CI runs with an agent's credentials. No client reads it,
// so it is declared here, the one place for surfaces that are no
// client's.
var KindCIWorkflow = Register(Spec{
	Name: "ci-workflow",
	Role: CI,
	Patterns: []string{
		".github/workflows/*.yml",
		".github/workflows/*.yaml",
		".gitlab-ci.yml",
	},
	SharedOnly: true, // CI reads only committed workflows
})
