package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/textcut"
)

// scriptModel plays a script file (docs/reference/script-model.md): for each
// call, the first rule matching the last message answers.
type scriptModel struct {
	path  string
	rules []scriptRule

	mu sync.Mutex
	// spent marks the once rules that have answered.
	spent []bool
	// ids numbers the tool calls: call_1, call_2, …
	ids atomic.Int64
}

func (s *scriptModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Reply, error) {
	if err := ctx.Err(); err != nil {
		return llm.Reply{}, err
	}
	var last llm.Message
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1]
	}
	rule, groups, err := s.match(req.Messages, last, req.Purpose == llm.PurposeSummary)
	if err != nil {
		return llm.Reply{}, err
	}
	fill := fillFunc(req.Messages, last, rule, groups)
	if rule.hasFail {
		return llm.Reply{}, errors.New(expand(rule.fail, fill))
	}

	var reply llm.Reply
	var content strings.Builder
	pieces := splitPieces(expand(rule.say, fill), rule.pieces)
	for _, p := range pieces {
		if err := pause(ctx, rule.delay); err != nil {
			reply.Content = content.String()
			return reply, err
		}
		content.WriteString(p)
		if onText != nil {
			onText(p)
		}
	}
	reply.Content = content.String()
	if len(pieces) == 0 {
		if err := pause(ctx, rule.delay); err != nil {
			return reply, err
		}
	}
	for _, c := range rule.calls {
		args := expand(c.raw, fill)
		if !c.hasRaw {
			var b bytes.Buffer
			writeArg(&b, c.args, fill)
			args = b.String()
		}
		reply.ToolCalls = append(reply.ToolCalls, llm.ToolCall{
			ID:        "call_" + strconv.FormatInt(s.ids.Add(1), 10),
			Name:      c.name,
			Arguments: args,
		})
	}
	reply.FinishReason = "stop"
	if len(reply.ToolCalls) > 0 {
		reply.FinishReason = "tool_calls"
	}
	return reply, nil
}

// match finds the first rule that applies to last, and the when regexp's
// submatches; summary says the call is a compression's summary request.
func (s *scriptModel) match(msgs []llm.Message, last llm.Message, summary bool) (*scriptRule, []string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.rules {
		r := &s.rules[i]
		if r.once && s.spent[i] {
			continue
		}
		if r.summary != nil && *r.summary != summary {
			continue
		}
		if r.role != "" && last.Role != r.role {
			continue
		}
		if r.afterTool != "" && (last.Role != llm.RoleTool || toolNameOf(msgs, last) != r.afterTool) {
			continue
		}
		var groups []string
		if r.when != nil {
			if groups = r.when.FindStringSubmatch(last.Content); groups == nil {
				continue
			}
		}
		s.spent[i] = true
		return r, groups, nil
	}
	if len(msgs) == 0 {
		return nil, nil, fmt.Errorf("script %s: no rule matches an empty conversation", s.path)
	}
	quoted := last.Content
	if head, n := textcut.Runes(quoted, 80); n > 0 {
		quoted = head + "…"
	}
	return nil, nil, fmt.Errorf("script %s: no rule matches the last message (%s): %q; add a rule for it (a rule without when: matches anything)",
		s.path, last.Role, quoted)
}

// toolNameOf returns the name of the tool a tool message answers: its Name,
// else the name of the call its ToolCallID points to.
func toolNameOf(msgs []llm.Message, m llm.Message) string {
	if m.Name != "" {
		return m.Name
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == m.ToolCallID {
				return c.Name
			}
		}
	}
	return ""
}

// fillFunc returns the value of each placeholder for this call.
func fillFunc(msgs []llm.Message, last llm.Message, r *scriptRule, groups []string) func(string) string {
	return func(name string) string {
		switch name {
		case "last":
			return last.Content
		case "question":
			return latestContent(msgs, llm.RoleUser)
		case "questions":
			// Every user message so far: what a resumed session remembers.
			var qs []string
			for _, m := range msgs {
				if m.Role == llm.RoleUser {
					qs = append(qs, m.Content)
				}
			}
			return strings.Join(qs, "\n\n")
		case "system":
			// The system prompt, to show what an agent was told.
			return latestContent(msgs, llm.RoleSystem)
		case "output":
			return latestContent(msgs, llm.RoleTool)
		case "outputs":
			// The tool messages that end the conversation: the results of
			// the latest calls.
			i := len(msgs)
			for i > 0 && msgs[i-1].Role == llm.RoleTool {
				i--
			}
			outs := make([]string, 0, len(msgs)-i)
			for _, m := range msgs[i:] {
				outs = append(outs, m.Content)
			}
			return strings.Join(outs, "\n\n")
		}
		if r.when == nil || groups == nil {
			return ""
		}
		i, err := strconv.Atoi(name)
		if err != nil {
			i = r.when.SubexpIndex(name)
		}
		if i >= 0 && i < len(groups) {
			return groups[i]
		}
		return ""
	}
}

// latestContent returns the content of the latest message with role.
func latestContent(msgs []llm.Message, role string) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == role {
			return msgs[i].Content
		}
	}
	return ""
}

// pause waits d, or until ctx is done.
func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// splitPieces cuts text into the pieces it streams in: n pieces of about
// the same length (fewer when text has fewer than n characters), or, when n
// is 0, one word and the spaces after it per piece. The pieces always join
// back into text.
func splitPieces(text string, n int) []string {
	if text == "" {
		return nil
	}
	if n > 0 {
		count := utf8.RuneCountInString(text)
		if n > count {
			n = count
		}
		pieces := make([]string, 0, n)
		runes := []rune(text)
		for i := 0; i < n; i++ {
			pieces = append(pieces, string(runes[i*count/n:(i+1)*count/n]))
		}
		return pieces
	}
	var pieces []string
	start, inWord, seenWord := 0, false, false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if !space && !inWord && seenWord {
			pieces = append(pieces, text[start:i])
			start = i
		}
		inWord = !space
		seenWord = seenWord || !space
	}
	return append(pieces, text[start:])
}

// placeholders lists the names of the {{name}} placeholders in s; a name is
// letters, digits and underscores, with optional spaces around it. Other
// {{…}} text is left as it is.
func placeholders(s string) []string {
	var names []string
	scanPlaceholders(s, func(lit string) {}, func(name string) { names = append(names, name) })
	return names
}

// expand fills the placeholders of s.
func expand(s string, fill func(string) string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	scanPlaceholders(s, func(lit string) { b.WriteString(lit) }, func(name string) { b.WriteString(fill(name)) })
	return b.String()
}

// scanPlaceholders walks s, calling lit for literal text and name for each
// placeholder.
func scanPlaceholders(s string, lit, name func(string)) {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			lit(s)
			return
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			lit(s)
			return
		}
		inner := strings.TrimSpace(s[i+2 : i+2+j])
		if !isPlaceholderName(inner) {
			lit(s[:i+2])
			s = s[i+2:]
			continue
		}
		lit(s[:i])
		name(inner)
		s = s[i+2+j+2:]
	}
}

func isPlaceholderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// writeArg writes v as JSON, filling the placeholders in its strings.
func writeArg(b *bytes.Buffer, v argValue, fill func(string) string) {
	switch v.kind {
	case argString:
		writeJSONString(b, expand(v.text, fill))
	case argLiteral:
		b.WriteString(v.text)
	case argMap:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			writeArg(b, v.items[i], fill)
		}
		b.WriteByte('}')
	case argList:
		b.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeArg(b, item, fill)
		}
		b.WriteByte(']')
	}
}

// writeJSONString writes s as a JSON string, leaving <, > and & as they are.
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}

// ReadsToolSpecs is false: a script names its tool calls itself.
func (*scriptModel) ReadsToolSpecs() bool { return false }
