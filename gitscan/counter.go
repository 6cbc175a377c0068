package gitscan

import "sync/atomic"

// Counter counts object reads (commits, trees and blobs fetched from the
// object store; cached trees are not counted again). The zero value is
// ready; it is safe for concurrent use.
type Counter struct{ n atomic.Int64 }

// Objects reports how many objects were read so far.
func (c *Counter) Objects() int64 { return c.n.Load() }

// Reset sets the count back to zero.
func (c *Counter) Reset() { c.n.Store(0) }

func (c *Counter) add(n int64) {
	if c != nil {
		c.n.Add(n)
	}
}
