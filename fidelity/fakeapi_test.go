package fidelity

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
	// subagent, when set, is the subagent the first request that offers
	// the Task (or Agent) tool calls with it, so that
	// the client runs it; every other answer ends the turn.
	subagent string
	called   bool
	// read: the subagent's first request (one whose system prompt holds
	// its file's body, subagentBody) is answered with a Read of README.md,
	// so that its tool hooks have a tool call to fire on.
	read bool
	// steps, when set, are tool calls the main session makes one after
	// another: each request that offers a step's tool (and is not the
	// subagent's) is answered with the next step; past the last, the turn
	// ends. bodies records, per request, whether its body held needle.
	steps  []step
	needle string
	seen   []bool
	// hold, when set, delays the answer to each of the subagent's
	// requests, so that it is seen running (its row in the agent panel).
	hold time.Duration
}

// step is one tool call the fake model makes (fakeAPI.steps).
type step struct {
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
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
	call, offers := "", map[string]bool{}
	for _, tl := range req.Tools {
		f.tools = append(f.tools, tl.Name)
		offers[tl.Name] = true
		if (tl.Name == "Task" || tl.Name == "Agent") && f.subagent != "" && !f.called {
			call = tl.Name
		}
	}
	var input map[string]any
	switch {
	case call != "":
		f.called = true
		input = map[string]any{"description": "probe", "prompt": "say ok", "subagent_type": f.subagent}
	case f.called && !f.read && offers["Read"] && strings.Contains(string(body), subagentBody):
		f.read, call = true, "Read"
		input = map[string]any{"file_path": "README.md"}
	case len(f.steps) > 0 && offers[f.steps[0].Tool]:
		call, input = f.steps[0].Tool, f.steps[0].Input
		f.steps = f.steps[1:]
	}
	if f.needle != "" {
		f.seen = append(f.seen, strings.Contains(string(body), f.needle))
	}
	held := f.hold > 0 && f.called && strings.Contains(string(body), subagentBody)
	f.mu.Unlock()
	if held {
		select {
		case <-time.After(f.hold):
		case <-r.Context().Done():
			return
		}
	}
	if req.Model == "" {
		req.Model = "claude-fidelity"
	}
	usage := map[string]int{"input_tokens": 1, "output_tokens": 1}
	msg := map[string]any{
		"id": "msg_fidelity", "type": "message", "role": "assistant", "model": req.Model,
		"content":     []any{map[string]any{"type": "text", "text": "ok"}},
		"stop_reason": "end_turn", "stop_sequence": nil, "usage": usage,
	}
	if call != "" {
		toolUse(w, req.Model, call, input, req.Stream)
		return
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

// toolUse answers with one call of the tool named call.
func toolUse(w http.ResponseWriter, model, call string, input map[string]any, stream bool) {
	usage := map[string]int{"input_tokens": 1, "output_tokens": 1}
	block := map[string]any{"type": "tool_use", "id": "toolu_fidelity_" + call, "name": call, "input": input}
	msg := map[string]any{
		"id": "msg_fidelity_call", "type": "message", "role": "assistant", "model": model,
		"content": []any{block}, "stop_reason": "tool_use", "stop_sequence": nil, "usage": usage,
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	in, _ := json.Marshal(input)
	events := []any{
		map[string]any{"type": "message_start", "message": start},
		map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_fidelity_" + call, "name": call, "input": map[string]any{}}},
		map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}},
		map[string]any{"type": "content_block_stop", "index": 0},
		map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": usage},
		map[string]any{"type": "message_stop"},
	}
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.(map[string]any)["type"], data)
	}
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// subagentBody is the body of a subagent's file the sandbox writes
// (frontmatterHooks): the system prompt of the subagent's requests.
const subagentBody = "Say ok, fidelity subagent."
