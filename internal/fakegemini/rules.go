package fakegemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Rules are a script of the fake model's answers, in the words of mm's
// scripted model (docs/reference/script-model.md): for each generation
// request the first rule that applies answers.
//
//	rules:
//	  - afterTool: run_shell_command     # the last turn is that function's response
//	    say: "The command said: {{output}}"
//	  - when: '(?i)make a file'          # a Go regexp on the last turn's text
//	    calls:
//	      - name: run_shell_command
//	        args: {command: touch made.txt}
//	  - say: "Gemini read: {{question}}"
//
// say is streamed one word a chunk; {{question}} is the question,
// {{output}} the function's response (its output, or its error), {{1}}…
// the groups of when. delay holds the answer back (a Go duration). error
// makes the API refuse the request instead, with that message and the HTTP
// status code (400 unless given). A request no rule fits gets a text
// saying so, with the question.
type Rules struct {
	Rules []Rule `yaml:"rules"`
}

// Rule is one answer and when it applies.
type Rule struct {
	When      string `yaml:"when"`
	AfterTool string `yaml:"afterTool"`
	Say       string `yaml:"say"`
	Calls     []struct {
		Name string         `yaml:"name"`
		Args map[string]any `yaml:"args"`
	} `yaml:"calls"`
	Delay string `yaml:"delay"`
	Error string `yaml:"error"`
	Code  int    `yaml:"code"`

	when  *regexp.Regexp
	delay time.Duration
}

// ParseRules reads a script of rules (see Rules); name is the file's, for
// errors.
func ParseRules(name string, b []byte) (Answer, error) {
	var rs Rules
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&rs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range rs.Rules {
		r := &rs.Rules[i]
		var err error
		if r.when, err = regexp.Compile(r.When); err != nil {
			return nil, fmt.Errorf("%s: rule %d: when: %w", name, i+1, err)
		}
		if r.Delay != "" {
			if r.delay, err = time.ParseDuration(r.Delay); err != nil {
				return nil, fmt.Errorf("%s: rule %d: delay: %w", name, i+1, err)
			}
		}
		switch {
		case r.Error != "" && (r.Say != "" || len(r.Calls) > 0):
			return nil, fmt.Errorf("%s: rule %d: error: goes with neither say: nor calls:", name, i+1)
		case r.Error == "" && r.Say == "" && len(r.Calls) == 0:
			return nil, fmt.Errorf("%s: rule %d: give say:, calls: or error:", name, i+1)
		case r.Code != 0 && r.Error == "":
			return nil, fmt.Errorf("%s: rule %d: code: goes with error:", name, i+1)
		}
	}
	return rs.answer, nil
}

func (rs Rules) answer(req Request) Reply {
	question := req.UserText()
	output := ""
	fr, afterTool := req.FunctionResponse()
	last := question
	if afterTool {
		output = ResponseText(fr)
		last = output
	}
	for _, r := range rs.Rules {
		if r.AfterTool != "" && (!afterTool || fr.Name != r.AfterTool) {
			continue
		}
		m := r.when.FindStringSubmatch(last)
		if m == nil {
			continue
		}
		vars := map[string]string{"question": question, "output": output}
		for i, g := range m[1:] {
			vars[strconv.Itoa(i+1)] = g
		}
		reply := Reply{Text: words(fill(r.Say, vars)), Delay: r.delay, Error: fill(r.Error, vars), Code: r.Code}
		for _, c := range r.Calls {
			args := c.Args
			if args == nil {
				args = map[string]any{}
			}
			reply.Calls = append(reply.Calls, FunctionCall{Name: c.Name, Args: args})
		}
		return reply
	}
	return Say("(fake Gemini: no rule for this request) The question: " + question)
}

var placeholder = regexp.MustCompile(`\{\{(\w+)\}\}`)

func fill(s string, vars map[string]string) string {
	return placeholder.ReplaceAllStringFunc(s, func(p string) string {
		if v, ok := vars[p[2:len(p)-2]]; ok {
			return v
		}
		return p
	})
}

// words cuts text into chunks of one word and the spaces after it.
func words(s string) []string {
	var chunks []string
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return r == ' ' || r == '\n' })
		if i < 0 {
			return append(chunks, s)
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
			j++
		}
		chunks = append(chunks, s[:j])
		s = s[j:]
	}
	return chunks
}

// ResponseText is what a function's response says: its output, or its
// error, or else the whole response as JSON.
func ResponseText(fr FunctionResponse) string {
	for _, k := range []string{"output", "error"} {
		if s, ok := fr.Response[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(fr.Response)
	return string(b)
}
