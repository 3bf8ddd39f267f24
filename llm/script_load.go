package llm

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/strictyaml"
)

// scriptRule is one rule of a script: when it applies and what it answers.
type scriptRule struct {
	n         int            // 1-based, for messages
	when      *regexp.Regexp // nil: any content
	role      string
	afterTool string
	once      bool
	// summary, when set, says the rule applies only to a compression's
	// summary request (true) or only to a turn's calls (false).
	summary *bool
	say     string
	fail    string
	hasFail bool
	pieces  int           // 0: one word a piece
	delay   time.Duration // before each piece
	calls   []scriptCall
}

// scriptCall is a tool call a rule makes.
type scriptCall struct {
	name   string
	args   argValue // a map, unless raw
	raw    string
	hasRaw bool
}

// argValue is a YAML value kept for writing as JSON once the templates in
// its strings are filled in. Keys keep the file's order.
type argValue struct {
	kind  argKind
	text  string // a string's template, or a literal's JSON
	keys  []string
	items []argValue
}

type argKind int

const (
	argString argKind = iota
	argLiteral
	argMap
	argList
)

// loadScript reads and checks a script file.
func loadScript(path string) (*scriptModel, error) {
	b, err := readScript(path)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, unwrapPathError(err))
	}
	rules, err := parseScript(b)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return &scriptModel{path: path, rules: rules, spent: make([]bool, len(rules))}, nil
}

// unwrapPathError drops the operation and path from an *os.PathError: the
// caller names the file already.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseScript parses the YAML of a script. Its errors name the rule, the
// key and the line.
func parseScript(b []byte) ([]scriptRule, error) {
	// One document, no alias, each key once in every map: aliases could
	// make a file of a few hundred bytes a tree of billions of nodes.
	root, err := strictyaml.Parse(b)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("the file is empty: it needs rules:")
	}
	top, err := mapping(root, "", "rules", "delay", "pieces")
	if err != nil {
		return nil, err
	}
	defDelay, err := durationAt(top, "", "delay")
	if err != nil {
		return nil, err
	}
	defPieces, err := countAt(top, "", "pieces")
	if err != nil {
		return nil, err
	}
	rulesNode := top["rules"]
	if rulesNode == nil {
		return nil, fmt.Errorf("no rules: the file needs a rules: list")
	}
	if rulesNode.Kind != yaml.SequenceNode || len(rulesNode.Content) == 0 {
		return nil, fmt.Errorf("rules (line %d): want a list of at least one rule", rulesNode.Line)
	}
	rules := make([]scriptRule, 0, len(rulesNode.Content))
	for i, n := range rulesNode.Content {
		r, err := parseRule(n, i+1, defDelay, defPieces)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func parseRule(n *yaml.Node, num int, defDelay time.Duration, defPieces int) (scriptRule, error) {
	where := fmt.Sprintf("rule %d", num)
	r := scriptRule{n: num, delay: defDelay, pieces: defPieces}
	m, err := mapping(n, where, "when", "role", "afterTool", "once", "summary", "say", "fail", "pieces", "delay", "calls")
	if err != nil {
		return r, err
	}
	if v := m["when"]; v != nil {
		s, err := scalar(v, where, "when")
		if err != nil {
			return r, err
		}
		if r.when, err = regexp.Compile(s); err != nil {
			return r, fmt.Errorf("%s: when (line %d): %v", where, v.Line, err)
		}
	}
	if v := m["role"]; v != nil {
		if r.role, err = scalar(v, where, "role"); err != nil {
			return r, err
		}
		if !slices.Contains([]string{RoleUser, RoleTool, RoleAssistant, RoleSystem}, r.role) {
			return r, fmt.Errorf("%s: role (line %d): %q is not a role: want user or tool (or assistant, system)", where, v.Line, r.role)
		}
	}
	if v := m["afterTool"]; v != nil {
		if r.afterTool, err = scalar(v, where, "afterTool"); err != nil {
			return r, err
		}
	}
	if v := m["once"]; v != nil {
		if err := v.Decode(&r.once); err != nil || v.Kind != yaml.ScalarNode {
			return r, fmt.Errorf("%s: once (line %d): want true or false", where, v.Line)
		}
	}
	if v := m["summary"]; v != nil {
		var b bool
		if err := v.Decode(&b); err != nil || v.Kind != yaml.ScalarNode {
			return r, fmt.Errorf("%s: summary (line %d): want true or false", where, v.Line)
		}
		r.summary = &b
	}
	if r.pieces, err = countAt(m, where, "pieces"); err != nil {
		return r, err
	}
	if m["pieces"] == nil {
		r.pieces = defPieces
	}
	if m["delay"] != nil {
		if r.delay, err = durationAt(m, where, "delay"); err != nil {
			return r, err
		}
	}
	if v := m["say"]; v != nil {
		if r.say, err = scalar(v, where, "say"); err != nil {
			return r, err
		}
		if err := checkTemplate(r.say, r.when, where, "say", v.Line); err != nil {
			return r, err
		}
	}
	if v := m["fail"]; v != nil {
		if r.fail, err = scalar(v, where, "fail"); err != nil {
			return r, err
		}
		r.hasFail = true
		if err := checkTemplate(r.fail, r.when, where, "fail", v.Line); err != nil {
			return r, err
		}
		if m["say"] != nil || m["calls"] != nil {
			return r, fmt.Errorf("%s: fail (line %d): a failing rule cannot also say or call", where, v.Line)
		}
	}
	if v := m["calls"]; v != nil {
		if r.calls, err = parseCalls(v, r.when, where); err != nil {
			return r, err
		}
	}
	if m["say"] == nil && m["calls"] == nil && m["fail"] == nil {
		return r, fmt.Errorf("%s (line %d): says nothing: give it say, calls or fail", where, n.Line)
	}
	return r, nil
}

func parseCalls(v *yaml.Node, when *regexp.Regexp, where string) ([]scriptCall, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: calls (line %d): want a list of calls, each with a name and args", where, v.Line)
	}
	var calls []scriptCall
	for i, cn := range v.Content {
		cwhere := fmt.Sprintf("%s: call %d", where, i+1)
		m, err := mapping(cn, cwhere, "name", "args", "rawArgs")
		if err != nil {
			return nil, err
		}
		var c scriptCall
		if m["name"] == nil {
			return nil, fmt.Errorf("%s (line %d): no name: say which tool to call", cwhere, cn.Line)
		}
		if c.name, err = scalar(m["name"], cwhere, "name"); err != nil {
			return nil, err
		}
		if c.name == "" {
			return nil, fmt.Errorf("%s: name (line %d): empty", cwhere, m["name"].Line)
		}
		if an := m["args"]; an != nil {
			if m["rawArgs"] != nil {
				return nil, fmt.Errorf("%s (line %d): give args or rawArgs, not both", cwhere, cn.Line)
			}
			if an.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s: args (line %d): want a map of argument names to values", cwhere, an.Line)
			}
			if c.args, err = argOf(an, when, cwhere+": args"); err != nil {
				return nil, err
			}
		} else {
			c.args = argValue{kind: argMap}
		}
		if rn := m["rawArgs"]; rn != nil {
			if c.raw, err = scalar(rn, cwhere, "rawArgs"); err != nil {
				return nil, err
			}
			c.hasRaw = true
			if err := checkTemplate(c.raw, when, cwhere, "rawArgs", rn.Line); err != nil {
				return nil, err
			}
		}
		calls = append(calls, c)
	}
	return calls, nil
}

// argOf converts a YAML value of a call's args, checking its templates.
func argOf(n *yaml.Node, when *regexp.Regexp, where string) (argValue, error) {
	line := n.Line
	switch n.Kind {
	case yaml.MappingNode:
		v := argValue{kind: argMap}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return v, fmt.Errorf("%s (line %d): a key must be a plain word or string", where, k.Line)
			}
			item, err := argOf(n.Content[i+1], when, where+"."+k.Value)
			if err != nil {
				return v, err
			}
			v.keys = append(v.keys, k.Value)
			v.items = append(v.items, item)
		}
		return v, nil
	case yaml.SequenceNode:
		v := argValue{kind: argList}
		for i, c := range n.Content {
			item, err := argOf(c, when, fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return v, err
			}
			v.items = append(v.items, item)
		}
		return v, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return argValue{kind: argLiteral, text: "null"}, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return argValue{}, fmt.Errorf("%s (line %d): %v", where, line, err)
			}
			return argValue{kind: argLiteral, text: strconv.FormatBool(b)}, nil
		case "!!int":
			var i int64
			if err := n.Decode(&i); err != nil {
				return argValue{}, fmt.Errorf("%s (line %d): number out of range", where, line)
			}
			return argValue{kind: argLiteral, text: strconv.FormatInt(i, 10)}, nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return argValue{}, fmt.Errorf("%s (line %d): %s is not a number JSON can hold", where, line, n.Value)
			}
			return argValue{kind: argLiteral, text: strconv.FormatFloat(f, 'g', -1, 64)}, nil
		}
		if err := checkTemplate(n.Value, when, where, "", line); err != nil {
			return argValue{}, err
		}
		return argValue{kind: argString, text: n.Value}, nil
	}
	return argValue{}, fmt.Errorf("%s (line %d): unsupported YAML value", where, line)
}

// mapping checks that n is a map whose keys are all in allowed, and
// returns its values by key (strictyaml.Parse saw that each is given once).
func mapping(n *yaml.Node, where string, allowed ...string) (map[string]*yaml.Node, error) {
	line := n.Line
	if n.Kind != yaml.MappingNode {
		if where == "" {
			return nil, fmt.Errorf("line %d: want a map with rules:", line)
		}
		return nil, fmt.Errorf("%s (line %d): want a map of keys, e.g. when: and say:", where, line)
	}
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	m := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(allowed, k.Value) {
			return nil, fmt.Errorf("%sunknown key %q (line %d); known: %s", prefix, k.Value, k.Line, strings.Join(allowed, ", "))
		}
		m[k.Value] = n.Content[i+1]
	}
	return m, nil
}

// scalar returns the text of a scalar; null is "".
func scalar(n *yaml.Node, where, key string) (string, error) {
	line := n.Line
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("%s: %s (line %d): want text, not a list or map", where, key, line)
	}
	if n.ShortTag() == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

// durationAt reads an optional duration such as 20ms.
func durationAt(m map[string]*yaml.Node, where, key string) (time.Duration, error) {
	n := m[key]
	if n == nil {
		return 0, nil
	}
	s, err := scalar(n, orTop(where), key)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %s (line %d): %q is not a duration: want e.g. 20ms or 1.5s", orTop(where), key, n.Line, s)
	}
	return d, nil
}

// countAt reads an optional count of at least 1.
func countAt(m map[string]*yaml.Node, where, key string) (int, error) {
	n := m[key]
	if n == nil {
		return 0, nil
	}
	s, err := scalar(n, orTop(where), key)
	if err != nil {
		return 0, err
	}
	c, err := strconv.Atoi(s)
	if err != nil || c < 1 {
		return 0, fmt.Errorf("%s: %s (line %d): %q: want a whole number of at least 1", orTop(where), key, n.Line, s)
	}
	return c, nil
}

func orTop(where string) string {
	if where == "" {
		return "top level"
	}
	return where
}

// checkTemplate checks that every placeholder in s is one a rule can fill.
func checkTemplate(s string, when *regexp.Regexp, where, key string, line int) error {
	for _, name := range placeholders(s) {
		switch name {
		case "question", "questions", "last", "output", "outputs", "system":
			continue
		}
		if i, err := strconv.Atoi(name); err == nil {
			if when != nil && i <= when.NumSubexp() {
				continue
			}
			return fmt.Errorf("%s: %s (line %d): {{%s}}: the when regexp has no group %d", where, keyOr(key), line, name, i)
		}
		if when != nil && when.SubexpIndex(name) >= 0 {
			continue
		}
		return fmt.Errorf("%s: %s (line %d): unknown placeholder {{%s}}; known: {{question}}, {{questions}}, {{last}}, {{output}}, {{outputs}}, {{system}}, and the when regexp's groups as {{1}} or {{name}}",
			where, keyOr(key), line, name)
	}
	return nil
}

func keyOr(key string) string {
	if key == "" {
		return "value"
	}
	return key
}
