package builtin

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/regularfile"
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

// LoadScript returns the scripted model that plays the script file at
// path (docs/reference/script-model.md), read and checked now, so that a
// bad script fails at start. Its error is a *strictyaml.FileError: a
// config error names the script and the line in it ("bad.yaml:4: rule 2:
// unknown key …").
func LoadScript(path string) (llm.Model, error) {
	s, err := loadScript(path)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// loadScript reads and checks a script file. Its error is a
// *strictyaml.FileError: a config error names the script and the line in
// it ("bad.yaml:4: rule 2: unknown key …").
func loadScript(path string) (*scriptModel, error) {
	b, err := readScript(path)
	if err != nil {
		return nil, &strictyaml.FileError{Path: path, Err: fmt.Errorf("cannot read: %w", regularfile.Cause(err))}
	}
	rules, err := parseScript(b)
	if err != nil {
		return nil, &strictyaml.FileError{Path: path, Err: err}
	}
	return &scriptModel{path: path, rules: rules, spent: make([]bool, len(rules))}, nil
}

// parseScript parses the YAML of a script. Its errors name the rule and
// the key, at their line (a *strictyaml.PosError).
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
		return nil, strictyaml.Errorf(rulesNode, "rules: want a list of at least one rule")
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
			return r, strictyaml.Errorf(v, "%s: when: %v", where, err)
		}
	}
	if v := m["role"]; v != nil {
		if r.role, err = scalar(v, where, "role"); err != nil {
			return r, err
		}
		if !slices.Contains([]string{llm.RoleUser, llm.RoleTool, llm.RoleAssistant, llm.RoleSystem}, r.role) {
			return r, strictyaml.Errorf(v, "%s: role: %q is not a role: want user or tool (or assistant, system)", where, r.role)
		}
	}
	if v := m["afterTool"]; v != nil {
		if r.afterTool, err = scalar(v, where, "afterTool"); err != nil {
			return r, err
		}
	}
	if v := m["once"]; v != nil {
		if err := v.Decode(&r.once); err != nil || v.Kind != yaml.ScalarNode {
			return r, strictyaml.Errorf(v, "%s: once: want true or false", where)
		}
	}
	if v := m["summary"]; v != nil {
		var b bool
		if err := v.Decode(&b); err != nil || v.Kind != yaml.ScalarNode {
			return r, strictyaml.Errorf(v, "%s: summary: want true or false", where)
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
		if err := checkTemplate(r.say, r.when, where, "say", v); err != nil {
			return r, err
		}
	}
	if v := m["fail"]; v != nil {
		if r.fail, err = scalar(v, where, "fail"); err != nil {
			return r, err
		}
		r.hasFail = true
		if err := checkTemplate(r.fail, r.when, where, "fail", v); err != nil {
			return r, err
		}
		if m["say"] != nil || m["calls"] != nil {
			return r, strictyaml.Errorf(v, "%s: fail: a failing rule cannot also say or call", where)
		}
	}
	if v := m["calls"]; v != nil {
		if r.calls, err = parseCalls(v, r.when, where); err != nil {
			return r, err
		}
	}
	if m["say"] == nil && m["calls"] == nil && m["fail"] == nil {
		return r, strictyaml.Errorf(n, "%s: says nothing: give it say, calls or fail", where)
	}
	return r, nil
}

func parseCalls(v *yaml.Node, when *regexp.Regexp, where string) ([]scriptCall, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, strictyaml.Errorf(v, "%s: calls: want a list of calls, each with a name and args", where)
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
			return nil, strictyaml.Errorf(cn, "%s: no name: say which tool to call", cwhere)
		}
		if c.name, err = scalar(m["name"], cwhere, "name"); err != nil {
			return nil, err
		}
		if c.name == "" {
			return nil, strictyaml.Errorf(m["name"], "%s: name: empty", cwhere)
		}
		if an := m["args"]; an != nil {
			if m["rawArgs"] != nil {
				return nil, strictyaml.Errorf(cn, "%s: give args or rawArgs, not both", cwhere)
			}
			if an.Kind != yaml.MappingNode {
				return nil, strictyaml.Errorf(an, "%s: args: want a map of argument names to values", cwhere)
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
			if err := checkTemplate(c.raw, when, cwhere, "rawArgs", rn); err != nil {
				return nil, err
			}
		}
		calls = append(calls, c)
	}
	return calls, nil
}

// argOf converts a YAML value of a call's args, checking its templates.
func argOf(n *yaml.Node, when *regexp.Regexp, where string) (argValue, error) {
	switch n.Kind {
	case yaml.MappingNode:
		v := argValue{kind: argMap}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return v, strictyaml.Errorf(k, "%s: a key must be a plain word or string", where)
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
				return argValue{}, strictyaml.Errorf(n, "%s: %v", where, err)
			}
			return argValue{kind: argLiteral, text: strconv.FormatBool(b)}, nil
		case "!!int":
			var i int64
			if err := n.Decode(&i); err != nil {
				return argValue{}, strictyaml.Errorf(n, "%s: number out of range", where)
			}
			return argValue{kind: argLiteral, text: strconv.FormatInt(i, 10)}, nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return argValue{}, strictyaml.Errorf(n, "%s: %s is not a number JSON can hold", where, n.Value)
			}
			return argValue{kind: argLiteral, text: strconv.FormatFloat(f, 'g', -1, 64)}, nil
		}
		if err := checkTemplate(n.Value, when, where, "", n); err != nil {
			return argValue{}, err
		}
		return argValue{kind: argString, text: n.Value}, nil
	}
	return argValue{}, strictyaml.Errorf(n, "%s: unsupported YAML value", where)
}

// mapping checks that n is a map whose keys are all in allowed, and
// returns its values by key (strictyaml.Parse saw that each is given once).
func mapping(n *yaml.Node, where string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		if where == "" {
			return nil, strictyaml.Errorf(n, "want a map with rules:")
		}
		return nil, strictyaml.Errorf(n, "%s: want a map of keys, e.g. when: and say:", where)
	}
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	m := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(allowed, k.Value) {
			return nil, strictyaml.At(k, fmt.Errorf("%s%w", prefix, strictyaml.UnknownKey(k, allowed)))
		}
		m[k.Value] = n.Content[i+1]
	}
	return m, nil
}

// scalar returns the text of a scalar; null is "".
func scalar(n *yaml.Node, where, key string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", strictyaml.Errorf(n, "%s: %s: want text, not a list or map", where, key)
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
		return 0, strictyaml.Errorf(n, "%s: %s: %q is not a duration: want e.g. 20ms or 1.5s", orTop(where), key, s)
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
		return 0, strictyaml.Errorf(n, "%s: %s: %q: want a whole number of at least 1", orTop(where), key, s)
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
func checkTemplate(s string, when *regexp.Regexp, where, key string, n *yaml.Node) error {
	for _, name := range placeholders(s) {
		switch name {
		case "question", "questions", "last", "output", "outputs", "system":
			continue
		}
		if i, err := strconv.Atoi(name); err == nil {
			if when != nil && i <= when.NumSubexp() {
				continue
			}
			return strictyaml.Errorf(n, "%s: %s: {{%s}}: the when regexp has no group %d", where, keyOr(key), name, i)
		}
		if when != nil && when.SubexpIndex(name) >= 0 {
			continue
		}
		return strictyaml.Errorf(n, "%s: %s: unknown placeholder {{%s}} (known: {{question}}, {{questions}}, {{last}}, {{output}}, {{outputs}}, {{system}}, and the when regexp's groups as {{1}} or {{name}})",
			where, keyOr(key), name)
	}
	return nil
}

func keyOr(key string) string {
	if key == "" {
		return "value"
	}
	return key
}
