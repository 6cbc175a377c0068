package project

import (
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Cache is what one evaluation bound, shared by every LoadConfig of that
// evaluation over the same open repository: each directory item of a code
// scope (the JavaScript below a directory, a package's modules, a tree)
// is bound once however many servers and clients run it. Paths are
// resolved per configuration, as without a Cache: keeping every
// configuration's resolutions for the whole evaluation costs more memory
// on a large configuration than resolving them again costs time. Use one Cache with one gitscan.Repo (opened
// WithWorktreeSnapshot, so the work tree it answers for stays the one it
// first saw); a nil *Cache keeps nothing beyond one configuration.
type Cache struct {
	sides map[string]*sideCache
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{sides: map[string]*sideCache{}} }

// sideCache is what was bound at one side.
type sideCache struct {
	items map[itemKey]itemMemo
}

// itemKey is everything itemObject's answer depends on besides the side:
// the item, and the launch directory symlinks to /proc/self/cwd mean.
type itemKey struct {
	launch, path, lang, key, text string
	kind                          launch.ItemKind
}

// itemMemo is an item's object and the paths binding it visited (each
// configuration that binds the item records them as its dependencies).
type itemMemo struct {
	obj     trust.Object
	visited []string
}

func (c *Cache) side(s gitscan.Side) *sideCache {
	if c == nil {
		return &sideCache{}
	}
	sc := c.sides[s.String()]
	if sc == nil {
		sc = &sideCache{items: map[itemKey]itemMemo{}}
		c.sides[s.String()] = sc
	}
	return sc
}
