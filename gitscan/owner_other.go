//go:build !unix

package gitscan

// ownedByUs cannot be decided here the way git decides it: the caller
// lets git discover the repository.
func ownedByUs(p string, env []string) bool { return false }

func fileDev(p string) (uint64, bool) { return 0, false }
