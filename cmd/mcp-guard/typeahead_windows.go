package main

import "golang.org/x/sys/windows"

// discardTypeahead drops the key events waiting in console fd's input
// buffer.
func discardTypeahead(fd int) error {
	return windows.FlushConsoleInputBuffer(windows.Handle(fd))
}
