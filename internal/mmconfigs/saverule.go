package mmconfigs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// AppendAllowRules appends rules ("bash: go test *") to permissions.allow
// in the configuration file at path — a saved "always" answer — keeping
// the file as it is written: its comments, blank lines, indentation and
// quotes. The rules go in as new lines after the list's last entry (a
// permissions: block or an allow: list is added when there is none); the
// result is read back, and must say what the file said plus the rules.
// Where lines cannot be added so (a list written [a, b] on one line), the
// file is written again from its YAML nodes, which keeps its comments but
// not its blank lines. The file is replaced whole, never left half
// written.
func AppendAllowRules(path string, rules []string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("cannot read it: %w", unwrapPath(err))
	}
	src, err := ReadFile(real)
	if err != nil {
		return fmt.Errorf("cannot read it: %w", unwrapPath(err))
	}
	out, err := appendAllow(src, rules)
	if err != nil {
		return err
	}
	return replaceFile(real, out)
}

// appendAllow is src with rules appended to permissions.allow.
func appendAllow(src []byte, rules []string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("cannot read it as YAML: %w", err)
	}
	items, err := ruleItems(rules)
	if err != nil {
		return nil, err
	}
	if out, ok := spliceAllow(src, &doc, items); ok && sameWithRules(src, out, items) {
		return out, nil
	}
	out, err := encodeAllow(&doc, items, indentUnit(&doc))
	if err != nil {
		return nil, err
	}
	if !sameWithRules(src, out, items) {
		return nil, errors.New("mm cannot add a line to its permissions: block as it is written: add the rule by hand")
	}
	return out, nil
}

// ruleItem is one rule as an entry of the allow list: its YAML text (a
// string, or a map of one key, as a person writes it: "bash: go test *"),
// and its node.
type ruleItem struct {
	text string
	node *yaml.Node
}

// ruleItems are rules as entries: "bash: go test *" as the map bash: go
// test *, "read_file" as a string; quoted where YAML needs it.
func ruleItems(rules []string) ([]ruleItem, error) {
	var items []ruleItem
	for _, r := range rules {
		var v any = r
		if tool, pattern, ok := strings.Cut(r, ": "); ok {
			v = map[string]string{tool: pattern}
		}
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return nil, fmt.Errorf("cannot write the rule %q: %w", r, err)
		}
		b, err := yaml.Marshal(&n)
		if err != nil {
			return nil, fmt.Errorf("cannot write the rule %q: %w", r, err)
		}
		items = append(items, ruleItem{text: strings.TrimSuffix(string(b), "\n"), node: &n})
	}
	return items, nil
}

// spliceAllow adds items to src as lines, where its nodes say the allow
// list ends (or where a permissions: block or an allow: key goes);
// false when the file is written in a way lines cannot be added to.
func spliceAllow(src []byte, doc *yaml.Node, items []ruleItem) ([]byte, bool) {
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	unit := indentUnit(doc)
	entries := func(indent int) string {
		var b strings.Builder
		for _, it := range items {
			b.WriteString(strings.Repeat(" ", indent) + "- " + strings.ReplaceAll(it.text, "\n", "\n"+strings.Repeat(" ", indent+2)) + "\n")
		}
		return b.String()
	}
	root := rootMap(doc)
	if root == nil {
		if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
			return nil, false // a file of one value that is no map: Load refuses it
		}
		return []byte(withNewline(string(src)) + "permissions:\n" + strings.Repeat(" ", unit) + "allow:\n" + entries(2*unit)), true
	}
	perm, permKey := child(root, "permissions")
	switch {
	case perm == nil:
		return []byte(withNewline(string(src)) + "permissions:\n" + strings.Repeat(" ", unit) + "allow:\n" + entries(2*unit)), true
	case isNull(perm) && perm.Line == permKey.Line && perm.Value == "":
		indent := permKey.Column - 1 + unit
		return insertAfter(lines, permKey.Line, strings.Repeat(" ", indent)+"allow:\n"+entries(indent+unit)), true
	case perm.Kind != yaml.MappingNode || perm.Style&yaml.FlowStyle != 0 || len(perm.Content) == 0:
		return nil, false
	}
	allow, allowKey := child(perm, "allow")
	switch {
	case allow == nil:
		indent := perm.Content[0].Column - 1
		return insertAfter(lines, permKey.Line, strings.Repeat(" ", indent)+"allow:\n"+entries(indent+unit)), true
	case isNull(allow) && allow.Value == "":
		return insertAfter(lines, allowKey.Line, entries(allowKey.Column-1+unit)), true
	case allow.Kind != yaml.SequenceNode || allow.Style&yaml.FlowStyle != 0 || len(allow.Content) == 0:
		return nil, false
	}
	dash := allow.Column - 1
	return insertAfter(lines, itemEnd(lines, allow.Content[len(allow.Content)-1].Line, dash), entries(dash)), true
}

// itemEnd is the last line of the list entry starting on line start (from
// 1): the lines after it that are indented past the entry's dash, up to
// a blank line or a comment.
func itemEnd(lines []string, start, dash int) int {
	end := start
	for i := start; i < len(lines); i++ { // lines[i] is line i+1
		l := strings.TrimRight(lines[i], "\r\n")
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") || len(l)-len(t) <= dash {
			break
		}
		end = i + 1
	}
	return end
}

// insertAfter is lines with text inserted after line n (from 1).
func insertAfter(lines []string, n int, text string) []byte {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i+1 == n {
			if !strings.HasSuffix(l, "\n") {
				b.WriteString("\n")
			}
			b.WriteString(text)
		}
	}
	return []byte(b.String())
}

// withNewline is s ending with a line break, unless it is empty.
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// encodeAllow writes doc again from its nodes, items appended to
// permissions.allow (added where missing), indented by unit.
func encodeAllow(doc *yaml.Node, items []ruleItem, unit int) ([]byte, error) {
	if doc.Kind != yaml.DocumentNode {
		doc.Kind, doc.Content = yaml.DocumentNode, []*yaml.Node{{Kind: yaml.MappingNode}}
	}
	root := rootMap(doc)
	if root == nil {
		return nil, errors.New("its top is no map of keys (model:, hooks:, …)")
	}
	perm := ensureChild(root, "permissions", yaml.MappingNode)
	allow := ensureChild(perm, "allow", yaml.SequenceNode)
	for _, it := range items {
		allow.Content = append(allow.Content, it.node)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(unit)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("cannot write it: %w", err)
	}
	return b.Bytes(), nil
}

// ensureChild is the value of key in the map m, made a node of kind when
// it is missing or empty.
func ensureChild(m *yaml.Node, key string, kind yaml.Kind) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		m.Kind, m.Tag, m.Value, m.Content = yaml.MappingNode, "!!map", "", nil
	}
	v, _ := child(m, key)
	if v == nil {
		v = &yaml.Node{}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	}
	if v.Kind != kind {
		tag := map[yaml.Kind]string{yaml.MappingNode: "!!map", yaml.SequenceNode: "!!seq"}[kind]
		*v = yaml.Node{Kind: kind, Tag: tag, LineComment: v.LineComment, HeadComment: v.HeadComment}
	}
	return v
}

// rootMap is the map at the top of doc; nil for an empty file or one
// whose top is no map.
func rootMap(doc *yaml.Node) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// child is the value and the key node of key in the map m.
func child(m *yaml.Node, key string) (val, k *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1], m.Content[i]
		}
	}
	return nil, nil
}

// isNull reports whether n is YAML's null.
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// indentUnit is the indentation the file uses: the column of the first
// nested map's keys past its parent's; 2 when it nests none.
func indentUnit(doc *yaml.Node) int {
	root := rootMap(doc)
	if root == nil {
		return 2
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Column > k.Column {
			return v.Content[0].Column - k.Column
		}
	}
	return 2
}

// sameWithRules reports whether out says what src says with items
// appended to permissions.allow, and nothing else changed.
func sameWithRules(src, out []byte, items []ruleItem) bool {
	var before, after any
	if yaml.Unmarshal(src, &before) != nil || yaml.Unmarshal(out, &after) != nil {
		return false
	}
	root, ok := before.(map[string]any)
	if before == nil {
		root, ok = map[string]any{}, true
	}
	if !ok {
		return false
	}
	perm, ok := root["permissions"].(map[string]any)
	if root["permissions"] == nil {
		perm, ok = map[string]any{}, true
	}
	if !ok {
		return false
	}
	list, ok := perm["allow"].([]any)
	if perm["allow"] == nil {
		list, ok = nil, true
	}
	if !ok {
		return false
	}
	list = slices.Clone(list)
	for _, it := range items {
		var v any
		if it.node.Decode(&v) != nil {
			return false
		}
		list = append(list, v)
	}
	perm["allow"], root["permissions"] = list, perm
	return reflect.DeepEqual(any(root), after)
}

// replaceFile writes data to path in a new file renamed over it, with the
// old file's permission bits: a reader sees the old file or the new one.
func replaceFile(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cannot write it: %w", unwrapPath(err))
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot write it: %w", unwrapPath(err))
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write it: %w", unwrapPath(err))
	}
	return nil
}
