package fidelity

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// fakeAPI is an Anthropic Messages endpoint on 127.0.0.1 whose every answer
// ends the turn, so `claude -p` exits by itself. It is the client's HTTP(S)
// proxy too, refusing every request for another host. It records both.
type fakeAPI struct {
	*httptest.Server
	mu       sync.Mutex
	messages int      // POST /v1/messages answered
	tools    []string // tool names offered in those requests
	other    []string // any other request, "METHOD path"
	proxied  []string // refused requests for another host
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect || r.URL.IsAbs() {
		f.mu.Lock()
		f.proxied = append(f.proxied, r.Method+" "+r.Host)
		f.mu.Unlock()
		http.Error(w, "fidelity: no network", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		f.mu.Lock()
		f.other = append(f.other, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	f.mu.Lock()
	f.messages++
	for _, tl := range req.Tools {
		f.tools = append(f.tools, tl.Name)
	}
	f.mu.Unlock()
	if req.Model == "" {
		req.Model = "claude-fidelity"
	}
	usage := map[string]int{"input_tokens": 1, "output_tokens": 1}
	msg := map[string]any{
		"id": "msg_fidelity", "type": "message", "role": "assistant", "model": req.Model,
		"content":     []any{map[string]any{"type": "text", "text": "ok"}},
		"stop_reason": "end_turn", "stop_sequence": nil, "usage": usage,
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	events := []struct {
		name string
		data any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": start}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": "ok"}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": usage}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	for _, e := range events {
		data, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, data)
	}
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

func (f *fakeAPI) snapshot() (messages int, tools, other, proxied []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.messages, slices.Clone(f.tools), slices.Clone(f.other), slices.Clone(f.proxied)
}
