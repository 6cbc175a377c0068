//go:build !unix

package npmcache

import "os/exec"

// ownGroup: no process groups here; the command alone is killed.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {}
