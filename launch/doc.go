// Package launch is mcp-guard's one model of what a server runs: given the
// spawn view of a server (its command, its arguments as the process
// receives them, its environment), the launch directory and one side of the
// repository, it says which repository files and directory scopes decide
// what runs (the code scope), why each is there, and what it could not
// resolve. The deep fingerprint, the scan rules, status, diff and review
// all take their answer from here. It never prints and never exits.
package launch
