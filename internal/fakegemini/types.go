package fakegemini

import (
	"encoding/json"
)

// Request is one request the server received.
type Request struct {
	// Path is the URL's path: /v1beta/models/gemini-2.5-flash:streamGenerateContent.
	Path string
	// Model and Method are the path's last element, split at the colon.
	Model, Method string
	// APIKey is the x-goog-api-key header.
	APIKey string
	// Body is the request decoded; Raw as it came.
	Body GenerateContentRequest
	Raw  []byte
}

// GenerateContentRequest is the part of the API's request the tests read;
// the rest stays in Request.Raw.
type GenerateContentRequest struct {
	Contents          []Content       `json:"contents"`
	SystemInstruction *Content        `json:"systemInstruction,omitempty"`
	Tools             json.RawMessage `json:"tools,omitempty"`
}

// Content is one turn of the conversation, or the system instruction.
type Content struct {
	Role  string `json:"role,omitempty"`
	Parts []Part `json:"parts"`
}

// Part is one part of a Content.
type Part struct {
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// MarshalJSON keeps an empty text part: the API sends {"text": ""}.
func (p Part) MarshalJSON() ([]byte, error) {
	type plain Part
	if p.FunctionCall == nil && p.FunctionResponse == nil && p.Text == "" {
		return []byte(`{"text":""}`), nil
	}
	return json.Marshal(plain(p))
}

// FunctionCall is the model's call of a tool.
type FunctionCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// FunctionResponse is what the client sends back for a FunctionCall.
type FunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// GenerateContentResponse is one response, or one event of a stream.
type GenerateContentResponse struct {
	Candidates    []Candidate    `json:"candidates"`
	UsageMetadata *UsageMetadata `json:"usageMetadata,omitempty"`
	ModelVersion  string         `json:"modelVersion,omitempty"`
	ResponseID    string         `json:"responseId,omitempty"`
}

// Candidate is the one answer the API gives.
type Candidate struct {
	Content      Content `json:"content"`
	FinishReason string  `json:"finishReason,omitempty"`
	Index        int     `json:"index"`
}

// UsageMetadata counts the tokens of a request and its answer.
type UsageMetadata struct {
	PromptTokenCount     int `json:"promptTokenCount"`
	CandidatesTokenCount int `json:"candidatesTokenCount,omitempty"`
	TotalTokenCount      int `json:"totalTokenCount"`
}

// UserText is the last text of the last user turn that is not a
// function's response: the question the model is answering (Gemini CLI puts
// its session context before it, in the same turn).
func (r Request) UserText() string {
	for i := len(r.Body.Contents) - 1; i >= 0; i-- {
		c := r.Body.Contents[i]
		if c.Role != "user" {
			continue
		}
		text, answer := "", false
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				answer = true
			}
			if p.Text != "" && !p.Thought {
				text = p.Text
			}
		}
		if !answer && text != "" {
			return text
		}
	}
	return ""
}

// FunctionResponse is the response to a function call that the last turn
// carries, if it does.
func (r Request) FunctionResponse() (FunctionResponse, bool) {
	if n := len(r.Body.Contents); n > 0 {
		for _, p := range r.Body.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				return *p.FunctionResponse, true
			}
		}
	}
	return FunctionResponse{}, false
}
