package gitscan

import "sync/atomic"

type atomicInt64 = atomic.Int64

func (c *Counter) add(n int64) {
	if c != nil {
		c.n.Add(n)
	}
}
