package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// eventsPkg is the package that declares the events a session emits: each
// is a type with the method event() (orchestrator/event.go).
const eventsPkg = "orchestrator"

// renderers are the functions that take every event of a session and show
// it (or not) in their front end: each names every event type in its type
// switch, an event it shows nothing of in a case of its own with a comment
// that says why. A new front end's renderer is added here.
var renderers = []string{
	"frontend/line renderer.Emit",   // the line mode, and mm -p's text
	"frontend/line jsonSink.Emit",   // mm -p --output-format json
	"frontend Progress.Observe",     // the line mode's spinner and the window's status line
	"frontend/tui transcript.event", // the window's transcript
	"frontend/acp sink.Emit",        // an editor's session/update notifications
	"frontend/a2a sink.Emit",        // an A2A task's events
	"frontend/mcp sink.Emit",        // an MCP tool call's progress notifications
}

// passers take events and hand them on, to a renderer above, with why: a
// Sink that wraps another, or a switch that changes a few events and keeps
// the others as they are.
var passers = map[string]string{
	"frontend/line askSink.Emit": "mm --ask: the asked agent's text goes to stdout, every other event to the renderer (renderer.Emit); its switch only notes the tool lines",
	"frontend/line spinner.Emit": "every event goes to Progress.Observe and to the renderer it wraps",
	"frontend/tui sink.Emit":     "every event goes to the window's goroutine: Progress.Observe and transcript.event",
	"frontend Shown":             "a replayed conversation: the events it does not name are kept as they are, for the renderer",
}

// TestEveryFrontEndHandlesEveryEvent fails when the orchestrator declares
// an event that a front end's renderer does not name, or when a function
// outside the orchestrator takes events without being in renderers or
// passers (a new front end, a new switch on events).
func TestEveryFrontEndHandlesEveryEvent(t *testing.T) {
	pkgs, err := parsePackages(t)
	if err != nil {
		t.Fatal(err)
	}
	events := eventTypes(pkgs[eventsPkg])
	if len(events) < 10 {
		t.Fatalf("found %d event types in %s (%v): the test no longer finds them", len(events), eventsPkg, events)
	}
	for _, msg := range checkEvents(pkgs, events, renderers, passers) {
		t.Error(msg)
	}
}

// TestCheckEvents: the failures name the renderer, the events it misses
// and what to do, as a new event or a new front end meets them.
func TestCheckEvents(t *testing.T) {
	const render = `package line
import "github.com/mm-agent/mm/internal/orchestrator"
type renderer struct{}
func (r *renderer) Emit(ev orchestrator.Event) {
	switch ev.(type) {
	case orchestrator.Text:
	case orchestrator.TurnEnded, orchestrator.ModelStarted:
		// not shown
	}
}
`
	const other = `package web
import o "github.com/mm-agent/mm/internal/orchestrator"
type sink struct{ next o.Sink }
func (s sink) Emit(ev o.Event) { s.next.Emit(ev) }
func show(ev o.Event) string {
	switch ev.(type) {
	case o.Text:
		return "text"
	}
	return ""
}
`
	events := []string{"ModelStarted", "Text", "TurnEnded"}
	for _, tc := range []struct {
		name      string
		events    []string
		files     map[string]string
		renderers []string
		passers   map[string]string
		want      []string
	}{
		{"every event named", events, map[string]string{"frontend/line": render}, []string{"frontend/line renderer.Emit"}, nil, nil},
		{
			"an event added", append(events, "Thinking"), map[string]string{"frontend/line": render}, []string{"frontend/line renderer.Emit"}, nil,
			[]string{"frontend/line renderer.Emit does not handle orchestrator.Thinking: give it a case (an empty one, with a comment that says why, for an event it shows nothing of)"},
		},
		{
			"a new front end", events, map[string]string{"frontend/line": render, "frontend/web": other}, []string{"frontend/line renderer.Emit"}, nil,
			[]string{
				"frontend/web show switches on events and is neither a renderer nor a passer: name it in renderers (and handle every event) or in passers, with where it passes them, in internal/archtest/events_test.go",
				"frontend/web sink.Emit takes the session's events and is neither a renderer nor a passer: name it in renderers (and handle every event) or in passers, with where it passes them, in internal/archtest/events_test.go",
			},
		},
		{
			"a name that is gone", events, map[string]string{"frontend/line": render}, []string{"frontend/line renderer.Emit", "frontend/tui transcript.event"},
			map[string]string{"frontend/web sink.Emit": "to the renderer"},
			[]string{
				"frontend/tui transcript.event is in renderers but takes no events: correct internal/archtest/events_test.go",
				"frontend/web sink.Emit is in passers but takes no events: correct internal/archtest/events_test.go",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pkgs := map[string][]*ast.File{}
			for dir, src := range tc.files {
				f, err := parser.ParseFile(token.NewFileSet(), dir+"/x.go", src, 0)
				if err != nil {
					t.Fatal(err)
				}
				pkgs[dir] = []*ast.File{f}
			}
			got := checkEvents(pkgs, tc.events, tc.renderers, tc.passers)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// parsePackages parses the non-test files of every package of mm, as the
// go command builds them on this system, by directory relative to the
// module.
func parsePackages(t *testing.T) (map[string][]*ast.File, error) {
	cmd := exec.CommandContext(t.Context(), "go", "list", "-json=Dir,ImportPath,GoFiles", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing mm's packages with go list: %w: %s", err, stderr.Bytes())
	}
	pkgs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Dir, ImportPath string
			GoFiles         []string
		}
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return pkgs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("parsing %s: %w", name, err)
			}
			pkgs[short(p.ImportPath)] = append(pkgs[short(p.ImportPath)], f)
		}
	}
}

// eventTypes are the types of files that have the method event(), sorted.
func eventTypes(files []*ast.File) []string {
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "event" || fn.Recv == nil || fn.Type.Params.NumFields() != 0 || fn.Type.Results.NumFields() != 0 {
				continue
			}
			if name, _, ok := strings.Cut(funcName(fn), "."); ok {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// taker is a function that takes events: a Sink's Emit, or one with a type
// switch that names an event.
type taker struct {
	named  map[string]bool // the event types its type switches name
	isEmit bool
}

// checkEvents returns what is wrong with pkgs (by directory): a renderer
// that misses an event, a function that takes events and is in neither
// list, a name in a list that takes no events.
func checkEvents(pkgs map[string][]*ast.File, events, renderers []string, passers map[string]string) []string {
	takers := map[string]taker{}
	for _, dir := range slices.Sorted(maps.Keys(pkgs)) {
		if dir == eventsPkg {
			continue
		}
		for _, f := range pkgs[dir] {
			findTakers(dir, f, events, takers)
		}
	}
	var msgs []string
	for _, name := range renderers {
		tk, ok := takers[name]
		if !ok {
			msgs = append(msgs, name+" is in renderers but takes no events: correct internal/archtest/events_test.go")
			continue
		}
		for _, e := range events {
			if !tk.named[e] {
				msgs = append(msgs, fmt.Sprintf("%s does not handle %s.%s: give it a case (an empty one, with a comment that says why, for an event it shows nothing of)", name, eventsPkg, e))
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(passers)) {
		if _, ok := takers[name]; !ok {
			msgs = append(msgs, name+" is in passers but takes no events: correct internal/archtest/events_test.go")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(takers)) {
		if slices.Contains(renderers, name) || passers[name] != "" {
			continue
		}
		what := "switches on events"
		if takers[name].isEmit {
			what = "takes the session's events"
		}
		msgs = append(msgs, fmt.Sprintf("%s %s and is neither a renderer nor a passer: name it in renderers (and handle every event) or in passers, with where it passes them, in internal/archtest/events_test.go", name, what))
	}
	return msgs
}

// findTakers adds to takers the functions of f that take events, named
// "<dir> <Type>.<Method>" or "<dir> <Func>".
func findTakers(dir string, f *ast.File, events []string, takers map[string]taker) {
	local := importName(f, full(eventsPkg))
	if local == "" {
		return
	}
	isEvent := func(x ast.Expr) (string, bool) {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		id, ok := sel.X.(*ast.Ident)
		return sel.Sel.Name, ok && id.Name == local && slices.Contains(events, sel.Sel.Name)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := dir + " " + funcName(fn)
		tk := taker{named: map[string]bool{}}
		if fn.Name.Name == "Emit" && fn.Recv != nil && fn.Type.Params.NumFields() == 1 {
			sel, ok := fn.Type.Params.List[0].Type.(*ast.SelectorExpr)
			tk.isEmit = ok && sel.Sel.Name == "Event" && isIdent(sel.X, local)
		}
		switches := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			for _, s := range sw.Body.List {
				for _, x := range s.(*ast.CaseClause).List {
					if e, ok := isEvent(x); ok {
						tk.named[e], switches = true, true
					}
				}
			}
			return true
		})
		if switches || tk.isEmit {
			takers[name] = tk
		}
	}
}

// importName is the name f uses for the package path; "" when f does not
// import it.
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}

// funcName is "Type.Method" for a method, the function's name otherwise.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

func isIdent(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}
