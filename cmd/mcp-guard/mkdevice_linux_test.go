package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// mkdevice PATH makes a character device (1,3: the null device) at
	// PATH; scripts guard it with [linux] and [root].
	scriptCmds["mkdevice"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: mkdevice PATH")
		}
		ts.Check(syscall.Mknod(ts.MkAbs(args[0]), syscall.S_IFCHR|0o644, 1<<8|3))
	}
}
