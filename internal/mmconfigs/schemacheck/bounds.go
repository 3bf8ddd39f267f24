package schemacheck

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// The bounds of a schema, checked when it is compiled: jsonschema-go
// validates by recursion, without a bound of its own, so a $ref that
// comes back to itself without going into the value ends mm with a stack
// overflow, and anyOf over anyOf over … spins for ever.
const (
	// MaxSchemaDepth is how deep a schema's JSON may nest: a schema
	// written by a person nests a few levels, a generated one a dozen.
	MaxSchemaDepth = 64
	// MaxApplied is how many subschemas may apply to one value of an
	// instance, at any depth up to MaxValueDepth: allOf, anyOf, oneOf, not,
	// if/then/else, dependentSchemas and $ref multiply each other. An
	// honest schema applies tens; a thousand is still quick to validate.
	MaxApplied = 1000
	// MaxValueDepth is how deep a value validated may nest: far beyond an
	// answer's or a tool input's, and the depth MaxApplied is checked to.
	MaxValueDepth = 64
)

// Keywords whose subschemas apply to the value itself (in place), and
// those whose subschemas apply to a value inside it (a property, an item,
// a property's name).
var (
	inPlaceOne  = []string{"not", "if", "then", "else"}
	inPlaceList = []string{"allOf", "anyOf", "oneOf"}
	inPlaceMap  = []string{"dependentSchemas", "dependencies"}
	intoOne     = []string{"additionalProperties", "propertyNames", "additionalItems", "contains", "unevaluatedItems", "unevaluatedProperties"}
	intoList    = []string{"prefixItems"}
	intoMap     = []string{"properties", "patternProperties"}
	// holders hold subschemas that apply only by a $ref: where a $ref may
	// point to.
	holders = []string{"$defs", "definitions"}
)

// schemaNode is one subschema: its JSON pointer, and where it leads.
type schemaNode struct {
	at   string
	obj  map[string]any // nil for true and false
	base *url.URL
	// inPlace and into are the pointers of the subschemas it applies, to
	// the value itself and to values inside it.
	inPlace, into []string
}

// schemaGraph is every subschema of one schema, by pointer.
type schemaGraph struct {
	nodes map[string]*schemaNode
	order []string // the pointers, as found
	// ids maps an absolute URI ($id, $id#anchor) to its subschema.
	ids map[string]string
	// dynamic maps a $dynamicAnchor to the subschemas that declare it.
	dynamic map[string][]string
}

// checkBounds checks raw, a schema as encoding/json decodes it, and
// resolved by jsonschema-go, against MaxApplied and for a $ref cycle in
// place; its error says which bound and where. Compile checked its depth.
func checkBounds(raw any) error {
	g := &schemaGraph{nodes: map[string]*schemaNode{}, ids: map[string]string{}, dynamic: map[string][]string{}}
	g.collect(raw, "", &url.URL{})
	if err := g.link(); err != nil {
		return err
	}
	topo, err := g.inPlaceOrder()
	if err != nil {
		return err
	}
	return g.checkApplied(topo)
}

// collect records n, found at pointer at, and its subschemas.
func (g *schemaGraph) collect(n any, at string, base *url.URL) {
	obj, _ := n.(map[string]any)
	node := &schemaNode{at: at, obj: obj, base: base}
	g.nodes[at] = node
	g.order = append(g.order, at)
	if obj == nil {
		return
	}
	if id, ok := obj["$id"].(string); ok && id != "" {
		if u, err := base.Parse(id); err == nil {
			if strings.HasPrefix(id, "#") { // draft 7: "$id": "#anchor"
				g.ids[u.String()] = at
			} else {
				u.Fragment = ""
				node.base = u
				g.ids[u.String()] = at
			}
		}
	}
	if at == "" {
		g.ids[node.base.String()] = at
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok && a != "" {
			u := *node.base
			u.Fragment = a
			g.ids[u.String()] = at
			if k == "$dynamicAnchor" {
				g.dynamic[a] = append(g.dynamic[a], at)
			}
		}
	}
	child := func(v any, here string, into bool) {
		if _, isObj := v.(map[string]any); !isObj {
			if _, isBool := v.(bool); !isBool {
				return
			}
		}
		if into {
			node.into = append(node.into, here)
		} else {
			node.inPlace = append(node.inPlace, here)
		}
		g.collect(v, here, node.base)
	}
	for _, k := range sortedKeys(obj) {
		v, here := obj[k], at+"/"+escape(k)
		switch {
		case contains(inPlaceOne, k):
			child(v, here, false)
		case contains(intoOne, k):
			child(v, here, true)
		case k == "items":
			if list, ok := v.([]any); ok { // draft 7's list of items
				for i, item := range list {
					child(item, here+"/"+strconv.Itoa(i), true)
				}
			} else {
				child(v, here, true)
			}
		case contains(inPlaceList, k) || contains(intoList, k):
			list, _ := v.([]any)
			for i, item := range list {
				child(item, here+"/"+strconv.Itoa(i), contains(intoList, k))
			}
		case contains(inPlaceMap, k) || contains(intoMap, k) || contains(holders, k):
			m, _ := v.(map[string]any)
			for _, name := range sortedKeys(m) {
				if contains(holders, k) {
					// Held, not applied: reached by a $ref only.
					g.collect(m[name], here+"/"+escape(name), node.base)
					continue
				}
				child(m[name], here+"/"+escape(name), contains(intoMap, k))
			}
		}
	}
}

// link adds each $ref and $dynamicRef as an in-place edge to the
// subschema it names; a $dynamicRef to every subschema that declares its
// anchor, wherever validation may resolve it.
func (g *schemaGraph) link() error {
	for _, at := range g.order {
		n := g.nodes[at]
		if n.obj == nil {
			continue
		}
		for _, k := range []string{"$ref", "$dynamicRef"} {
			ref, ok := n.obj[k].(string)
			if !ok {
				continue
			}
			target, found := g.resolve(n.base, ref)
			if !found {
				return fmt.Errorf("%s: %s %q: mm cannot follow it to bound the work of validating: write it as a JSON Pointer (#/$defs/…) or an $anchor", pointer(at), k, ref)
			}
			n.inPlace = append(n.inPlace, target)
			if k == "$dynamicRef" {
				if u, err := url.Parse(ref); err == nil && u.Fragment != "" && !strings.HasPrefix(u.Fragment, "/") {
					for _, d := range g.dynamic[u.Fragment] {
						if d != target {
							n.inPlace = append(n.inPlace, d)
						}
					}
				}
			}
		}
	}
	return nil
}

// resolve is the pointer of the subschema ref names, seen from base.
func (g *schemaGraph) resolve(base *url.URL, ref string) (string, bool) {
	u, err := base.Parse(ref)
	if err != nil {
		return "", false
	}
	frag := u.Fragment
	doc := *u
	doc.Fragment = ""
	if frag != "" && !strings.HasPrefix(frag, "/") {
		at, ok := g.ids[u.String()]
		return at, ok
	}
	root, ok := g.ids[doc.String()]
	if !ok {
		return "", false
	}
	at := root + frag
	_, ok = g.nodes[at]
	return at, ok
}

// inPlaceOrder orders the subschemas so that each comes before those it
// applies in place; a cycle of in-place edges is an error naming it: it
// applies to the same value again and again, and validating never ends.
func (g *schemaGraph) inPlaceOrder() ([]string, error) {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var order, stack []string
	var visit func(at string) error
	visit = func(at string) error {
		switch state[at] {
		case done:
			return nil
		case open:
			i := len(stack) - 1
			for i > 0 && stack[i] != at {
				i--
			}
			cycle := make([]string, 0, len(stack)-i+1)
			for _, s := range append(stack[i:], at) {
				cycle = append(cycle, pointer(s))
			}
			return fmt.Errorf("%s comes back to itself without going into a property or item (%s): validating would never end",
				pointer(at), strings.Join(cycle, " → "))
		}
		state[at] = open
		stack = append(stack, at)
		for _, c := range g.nodes[at].inPlace {
			if err := visit(c); err != nil {
				return err
			}
		}
		stack = stack[:len(stack)-1]
		state[at] = done
		order = append(order, at)
		return nil
	}
	for _, at := range g.order {
		if err := visit(at); err != nil {
			return nil, err
		}
	}
	// visit appends a subschema after those it applies: reversed, each
	// comes first.
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order, nil
}

// checkApplied counts, depth by depth down to MaxValueDepth, how many
// subschemas may apply to one value at that depth (an upper bound: every
// property's and item's subschemas are counted for each value below), and
// refuses a schema where it passes MaxApplied.
func (g *schemaGraph) checkApplied(topo []string) error {
	const over = MaxApplied + 1
	add := func(a, b int) int { return min(a+b, over) }
	reached := map[string]int{"": 1}
	for depth := 0; depth <= MaxValueDepth && len(reached) > 0; depth++ {
		total := map[string]int{}
		for at, c := range reached {
			total[at] = c
		}
		applied := 0
		for _, at := range topo {
			c := total[at]
			if c == 0 {
				continue
			}
			applied = add(applied, c)
			for _, next := range g.nodes[at].inPlace {
				total[next] = add(total[next], c)
			}
		}
		if applied > MaxApplied {
			where := "the answer's value itself"
			if depth > 0 {
				where = fmt.Sprintf("one value %d levels inside the answer", depth)
			}
			return fmt.Errorf("it applies more than %d subschemas, the limit, to %s: allOf, anyOf, oneOf and $ref multiply each other: make it simpler", MaxApplied, where)
		}
		next := map[string]int{}
		for _, at := range topo {
			if c := total[at]; c > 0 {
				for _, into := range g.nodes[at].into {
					next[into] = add(next[into], c)
				}
			}
		}
		if sameCounts(next, reached) {
			break // every level below counts the same
		}
		reached = next
	}
	return nil
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// depthOf is how deep v nests (a scalar: 0), counted up to limit.
func depthOf(v any, limit int) int {
	if limit == 0 {
		return 0
	}
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			d = max(d, depthOf(c, limit-1))
		}
		return d + 1
	case []any:
		for _, c := range x {
			d = max(d, depthOf(c, limit-1))
		}
		return d + 1
	}
	return 0
}

// pointer is at as the messages write a subschema: "#" and "#/$defs/a".
func pointer(at string) string { return "#" + at }

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
