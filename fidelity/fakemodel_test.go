package fidelity

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeModel is a model endpoint on 127.0.0.1 for Gemini CLI (the Gemini
// API) or Codex (the OpenAI Responses and Chat Completions APIs) whose every
// answer ends the turn, so the headless client exits by itself. Like
// fakeAPI it is the client's HTTP(S) proxy too, refusing every request for
// another host, and records both.
type fakeModel struct {
	*httptest.Server
	mu      sync.Mutex
	answers int      // model requests answered
	tools   []string // tool names offered in those requests
	other   []string // any other request, "METHOD path"
	proxied []string // refused requests for another host
}

func newFakeModel(t *testing.T) *fakeModel {
	f := &fakeModel{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect || r.URL.IsAbs() {
		f.note(&f.proxied, r.Method+" "+r.Host)
		http.Error(w, "fidelity: no network", http.StatusForbidden)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	p := r.URL.Path
	if os.Getenv("MCP_GUARD_FIDELITY_DEBUG") != "" { // what a new client version asks for
		fmt.Fprintf(os.Stderr, "FAKE %s %s %.300s\n", r.Method, r.URL, body)
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/responses"):
		f.responses(w, body)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		f.chat(w, body)
	case r.Method == http.MethodPost && strings.Contains(p, "/models/") &&
		(strings.HasSuffix(p, ":streamGenerateContent") || strings.HasSuffix(p, ":generateContent")):
		f.gemini(w, body, strings.HasSuffix(p, ":streamGenerateContent"))
	case r.Method == http.MethodPost && strings.HasSuffix(p, ":countTokens"):
		f.note(&f.other, r.Method+" "+p)
		writeJSON(w, obj{"totalTokens": 1})
	default:
		f.note(&f.other, r.Method+" "+p)
		http.NotFound(w, r)
	}
}

func (f *fakeModel) note(list *[]string, s string) {
	f.mu.Lock()
	*list = append(*list, s)
	f.mu.Unlock()
}

func (f *fakeModel) answered(tools []string) {
	f.mu.Lock()
	f.answers++
	f.tools = append(f.tools, tools...)
	f.mu.Unlock()
}

// responses answers POST /v1/responses as a stream: created, one message, completed.
func (f *fakeModel) responses(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Tools []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	var tools []string
	for _, tl := range req.Tools {
		tools = append(tools, tl.Name)
	}
	f.answered(tools)
	msg := obj{"type": "message", "role": "assistant", "id": "msg_fidelity", "status": "completed",
		"content": []any{obj{"type": "output_text", "text": "ok", "annotations": []any{}}}}
	resp := obj{"id": "resp_fidelity", "object": "response", "model": req.Model, "status": "completed",
		"output": []any{msg}, "usage": obj{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
			"input_tokens_details": obj{"cached_tokens": 0}, "output_tokens_details": obj{"reasoning_tokens": 0}}}
	sse(w, []sseEvent{
		{"response.created", obj{"type": "response.created", "response": obj{"id": "resp_fidelity", "status": "in_progress"}}},
		{"response.output_item.added", obj{"type": "response.output_item.added", "output_index": 0, "item": msg}},
		{"response.output_text.delta", obj{"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
			"item_id": "msg_fidelity", "delta": "ok"}},
		{"response.output_item.done", obj{"type": "response.output_item.done", "output_index": 0, "item": msg}},
		{"response.completed", obj{"type": "response.completed", "response": resp}},
	}, false)
}

// chat answers POST /v1/chat/completions as a stream ending in [DONE].
func (f *fakeModel) chat(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	var tools []string
	for _, tl := range req.Tools {
		tools = append(tools, tl.Function.Name)
	}
	f.answered(tools)
	chunk := func(delta obj, finish any) obj {
		return obj{"id": "chatcmpl-fidelity", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{obj{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	sse(w, []sseEvent{
		{"", chunk(obj{"role": "assistant", "content": "ok"}, nil)},
		{"", chunk(obj{}, "stop")},
		{"", "[DONE]"},
	}, false)
}

// gemini answers generateContent (JSON) and streamGenerateContent (SSE).
func (f *fakeModel) gemini(w http.ResponseWriter, body []byte, stream bool) {
	var req struct {
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType string `json:"responseMimeType"`
		} `json:"generationConfig"`
	}
	_ = json.Unmarshal(body, &req)
	var tools []string
	for _, tl := range req.Tools {
		for _, fd := range tl.FunctionDeclarations {
			tools = append(tools, fd.Name)
		}
	}
	f.answered(tools)
	text := "ok"
	if req.GenerationConfig.ResponseMimeType == "application/json" {
		// A side question (model routing, next speaker): a JSON answer that picks the default.
		text = `{"reasoning": "fidelity", "model_choice": "flash", "next_speaker": "user"}`
	}
	resp := obj{
		"candidates": []any{obj{"index": 0, "finishReason": "STOP",
			"content": obj{"role": "model", "parts": []any{obj{"text": text}}}}},
		"usageMetadata": obj{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  "gemini-fidelity",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	sse(w, []sseEvent{{"", resp}}, true)
}

type sseEvent struct {
	name string
	data any // JSON-encoded, or a string sent as is
}

func sse(w http.ResponseWriter, events []sseEvent, crlf bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	for _, e := range events {
		data, ok := e.data.(string)
		if !ok {
			b, _ := json.Marshal(e.data)
			data = string(b)
		}
		if e.name != "" {
			fmt.Fprintf(w, "event: %s%s", e.name, nl)
		}
		fmt.Fprintf(w, "data: %s%s%s", data, nl, nl)
	}
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeModel) snapshot() (answers int, tools, other, proxied []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.answers, slices.Clone(f.tools), slices.Clone(f.other), slices.Clone(f.proxied)
}
