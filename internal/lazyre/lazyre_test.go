package lazyre

import (
	"sync"
	"testing"
)

func TestGetCompilesOnce(t *testing.T) {
	r := Regexp{Expr: `a(b+)`}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = r.Get().FindStringSubmatch("xabbb")[1]
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != "bbb" {
			t.Fatalf("got %q", g)
		}
	}
	if r.Get() != r.Get() {
		t.Error("Get compiled the expression twice")
	}
}

func TestBadExpressionPanicsOnUse(t *testing.T) {
	r := Regexp{Expr: `(`}
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic")
		}
	}()
	r.Get()
}
