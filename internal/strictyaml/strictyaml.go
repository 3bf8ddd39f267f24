// Package strictyaml reads the YAML of mm's own files — agent
// configurations and scripted models — strictly: a file holds one
// document, uses no alias, and gives each key of every map once.
//
// gopkg.in/yaml.v3 checks none of this when it parses into a yaml.Node,
// which is how mm reads its files (so that each error names its key and
// line): it reads the first document and ignores the rest; it keeps
// aliases as they are, so its own guard against alias bombs ("document
// contains excessive aliasing") runs only when a node is later decoded
// into Go values, and code that follows aliases itself walks a tree that
// grows exponentially with the file (nine lines of nine aliases each are
// 9^9 nodes); and it keeps both of two equal keys, so that the last one
// wins in whatever reads the map next.
//
// mm's files refuse aliases outright rather than bound them: none of its
// examples or tests needs one, a configuration is short enough to write out,
// and a file without aliases is read in time and memory proportional to
// its size.
package strictyaml

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/lexer"
	goccyparser "github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"gopkg.in/yaml.v3"
)

// Parse parses data as one YAML document and checks it. It returns the
// document's root node, or nil when data holds no document (it is empty or
// only comments). Errors name the key, e.g. `mcpServers.fs: key "command"
// is given twice (first on line 3)`, and carry their line (a *PosError);
// paths are dotted, with list items as [i] from 0: `hooks.preToolCall[0]`.
// A syntax error carries its column too, and its excerpt: the source line,
// a caret and a hint (see excerpt).
func Parse(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(data, err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, Errorf(&next, "a second YAML document (after ---): a file holds one; remove the --- line and what follows, or merge them")
	case !errors.Is(err, io.EOF):
		return nil, syntaxError(data, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if err := check(root, nil); err != nil {
		return nil, err
	}
	return root, nil
}

// syntaxError words yaml.v3's syntax error err in data as "<problem>" at
// its line and column (a *PosError, with the excerpt that shows it), the
// caller naming the file.
//
// yaml.v3 names the line where the construct around the problem starts
// (its parser's context mark) rather than the problem's own, so that an
// error deep in a hooks: block is reported at the block's first line, and
// it gives no column. goccy/go-yaml's parser, run on this error path only,
// points at the token where the problem is; when it finds none (the two
// disagree), yaml.v3's own text is kept, without its "yaml: " prefix. A
// control character, which yaml.v3 refuses without a line, is found here.
func syntaxError(data []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line, col := 0, 0
	switch l, c, m, ok := locate(data); {
	case msg == controlMessage:
		line, col = firstControl(data)
	case ok:
		line, col, msg = l, c, m
	default:
		line, msg = cutLine(msg)
	}
	if line < 1 {
		return errors.New(oneLine(msg))
	}
	return &PosError{Line: line, Column: col, Err: errors.New(oneLine(msg)), Excerpt: excerpt(data, line, col, msg)}
}

// atLine reads the position yaml.v3 writes in front of a message,
// "line 4: <problem>", into a *PosError; a message without one is kept
// as it is.
func atLine(msg string) error {
	if line, problem := cutLine(msg); line > 0 {
		return &PosError{Line: line, Err: errors.New(problem)}
	}
	return errors.New(msg)
}

// cutLine cuts the "line 4: " yaml.v3 writes in front of a message; line
// is 0 when there is none. (No regexp: a package-level one costs every
// start of mm.)
func cutLine(msg string) (line int, problem string) {
	rest, ok := strings.CutPrefix(msg, "line ")
	if num, problem, found := strings.Cut(rest, ": "); ok && found {
		if line, err := strconv.Atoi(num); err == nil && line > 0 {
			return line, problem
		}
	}
	return 0, msg
}

// tokenError is the part of goccy/go-yaml's errors that says where.
type tokenError interface {
	GetToken() *token.Token
	GetMessage() string
}

// locate finds the position of data's first syntax error with goccy's
// parser; ok is false when that parser accepts data or cannot say where,
// or when it would take more than linear work to say (see pathBytes).
func locate(data []byte) (line, col int, msg string, ok bool) {
	defer func() {
		// A second parser is a second body of code reading untrusted
		// input: a panic in it must not end mm, only lose the position.
		if recover() != nil {
			ok = false
		}
	}()
	tokens := lexer.Tokenize(string(data))
	if pathBytes(tokens) > locateBytesPerByte*len(data)+locateFloor {
		return 0, 0, "", false
	}
	_, err := goccyparser.Parse(tokens, 0)
	var te tokenError
	if err == nil || !errors.As(err, &te) {
		return 0, 0, "", false
	}
	tk := te.GetToken()
	if tk == nil || tk.Position == nil || tk.Position.Line < 1 {
		return 0, 0, "", false
	}
	return tk.Position.Line, max(tk.Position.Column, 1), te.GetMessage(), true
}

// locateBytesPerByte and locateFloor bound goccy's work on the error path:
// the paths it writes may take at most this many bytes per byte of the
// file, plus the floor. Past it the error keeps yaml.v3's own line. A
// configuration as written (a few levels deep, keys of a few words) takes
// under 20 bytes per byte, and any file of 4 KiB or less passes; what is
// left out is nesting hundreds deep, or a long key over many items, whose
// paths grow with the square of the file: 40 KB of "[" took 2.4 GB.
const (
	locateBytesPerByte = 64
	locateFloor        = 256 << 10
)

// pathBytes is, in a pass over tokens, about how many bytes of paths
// goccy's parser writes for them: it gives every node the path from the
// root to it ($.hooks.preToolCall[0].command), each a copy of its parent's
// and one step more, so that its work grows with the nodes times their
// depth. The estimate follows the open collections: a flow one from its
// bracket to the matching one, a block one from its indicator (a key's ":",
// "-", "?") until one at its column or left of it; each adds a step to the
// path, a key's length or an index's.
func pathBytes(tokens token.Tokens) int {
	type open struct {
		col, path int
		flow      bool
	}
	stack := []open{{col: -1, path: len("$")}}
	index := len("[]") + len(strconv.Itoa(len(tokens)))
	work, key := 0, 0
	block := func(col, step int) {
		for len(stack) > 1 && !stack[len(stack)-1].flow && stack[len(stack)-1].col >= col {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, open{col: col, path: stack[len(stack)-1].path + step})
	}
	for i, tk := range tokens {
		top := stack[len(stack)-1]
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			stack = append(stack, open{flow: true, path: top.path + index + key})
			key = 0
		case token.SequenceEndType, token.MappingEndType:
			if top.flow && len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case token.CollectEntryType:
			key = 0
		case token.MappingValueType:
			k, col := 0, column(tk)
			if i > 0 {
				k, col = len(tokens[i-1].Value), column(tokens[i-1])
			}
			if top.flow {
				key = k
			} else {
				block(col, len(".")+k)
			}
		case token.SequenceEntryType, token.MappingKeyType:
			if !top.flow {
				block(column(tk), index)
			}
		}
		work += stack[len(stack)-1].path
	}
	return work
}

// column is tk's column, 0 when it has none.
func column(tk *token.Token) int {
	if tk.Position == nil {
		return 0
	}
	return tk.Position.Column
}

// check walks n, at path, refusing aliases and repeated keys. The path is
// written out only for an error: a node's own path is as long as its
// depth, and writing each out made a deep document's check quadratic.
func check(n *yaml.Node, path *step) error {
	switch n.Kind {
	case yaml.AliasNode:
		return Errorf(n, "%salias *%s: mm's files take no YAML aliases; write the value out", prefix(path.String()), n.Value)
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if err := check(item, &step{up: path, index: i, item: true}); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		first := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			if err := check(key, path); err != nil {
				return err
			}
			if key.Kind == yaml.ScalarNode {
				if line, ok := first[key.Value]; ok {
					return Errorf(key, "%skey %q is given twice (first on line %d)", prefix(path.String()), key.Value, line)
				}
				first[key.Value] = key.Line
			}
			if err := check(val, &step{up: path, key: key.Value}); err != nil {
				return err
			}
		}
	}
	return nil
}

// step is the last step of a path from the root: a key, or a list's item;
// nil is the root.
type step struct {
	up    *step
	key   string
	index int
	item  bool
}

// String is the dotted path, list items as [i]: hooks.preToolCall[0];
// written in one pass, from the root down.
func (s *step) String() string {
	var steps []*step
	for ; s != nil; s = s.up {
		steps = append(steps, s)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		switch st := steps[i]; {
		case st.item:
			b.WriteString("[" + strconv.Itoa(st.index) + "]")
		case b.Len() == 0:
			b.WriteString(st.key)
		default:
			b.WriteString("." + st.key)
		}
	}
	return b.String()
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}
