package archtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// graph maps the import path of each package to the import paths its non-test
// files import.
type graph map[string][]string

// parts are mm's parts, the packages of its design (CONTRIBUTING.md): they
// live under internal/, as none is an API, and the policy names them
// without it ("orchestrator", "frontend/acp"). The rest of internal/ are
// the mechanisms they share ("internal/proc").
var parts = []string{"a2aagent", "agentproc", "commandfiles", "frontend", "handoff", "hooks", "llm", "mmconfigs",
	"orchestrator", "permissions", "projectdocs", "question", "sessions", "skills", "tools"}

// isPart reports whether name, a name of the policy, is one of mm's parts
// or under one.
func isPart(name string) bool {
	first, _, _ := strings.Cut(name, "/")
	return slices.Contains(parts, first)
}

// full turns a name of the policy into an import path: the policy names mm's
// packages relative to the module (its parts without internal/), "..." for
// all of them.
func full(name string) string {
	if isPart(name) {
		return module + "/internal/" + name
	}
	return module + "/" + name
}

// short turns an import path back into the policy's name, for messages.
func short(path string) string {
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return path
	}
	if part, ok := strings.CutPrefix(rest, "internal/"); ok && isPart(part) {
		return part
	}
	return rest
}

// isMM reports whether path is one of mm's packages.
func isMM(path string) bool {
	return strings.HasPrefix(path, module+"/")
}

// matches reports whether path matches pattern: an import path, or one ending
// in "/..." for the path before it and every path under it.
func matches(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

// matchesAny reports whether path matches one of mm's package patterns.
// "internal/..." names the mechanisms alone, not the parts under internal/.
func matchesAny(names []string, path string) bool {
	return slices.ContainsFunc(names, func(n string) bool {
		if n == "internal/..." && isPart(short(path)) {
			return false
		}
		return matches(full(n), path)
	})
}

// forbids reports whether r binds from and forbids it to depend on to.
func (r never) forbids(from, to string) bool {
	if !matchesAny(r.from, from) {
		return false
	}
	return matchesAny(r.to, to) || slices.ContainsFunc(r.toOther, func(o string) bool { return matches(o, to) })
}

// breach is a rule broken: from depends on to along path (from first, to last).
type breach struct {
	rule     string
	from, to string
	path     []string
}

// describe names the breach as the failures do: the import, or the
// dependency and the path to it, with the verbs given ("imports" and
// "depends on" for the code, "may import" and "may depend on" for the policy).
func (b breach) describe(imports, dependsOn string) string {
	if len(b.path) == 2 {
		return fmt.Sprintf("%s %s %s, which breaks the rule %q", short(b.from), imports, short(b.to), b.rule)
	}
	steps := make([]string, len(b.path))
	for i, p := range b.path {
		steps[i] = short(p)
	}
	return fmt.Sprintf("%s %s %s (%s), which breaks the rule %q",
		short(b.from), dependsOn, short(b.to), strings.Join(steps, " → "), b.rule)
}

// breaches finds, for each rule and each package of mm it binds, the nearest
// package the rule forbids it to reach in g.
func breaches(g graph, rules []never) []breach {
	var out []breach
	for _, r := range rules {
		for _, p := range mmPackages(g) {
			if !matchesAny(r.from, p) {
				continue
			}
			if b, ok := nearest(g, p, r); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// nearest walks g breadth first from from — only its own imports if the rule
// is about them — and returns the first package r forbids it, with the path.
func nearest(g graph, from string, r never) (breach, bool) {
	parent := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range slices.Sorted(slices.Values(g[p])) {
			if _, seen := parent[q]; seen {
				continue
			}
			parent[q] = p
			if r.forbids(from, q) {
				path := []string{q}
				for at := p; at != ""; at = parent[at] {
					path = append(path, at)
				}
				slices.Reverse(path)
				return breach{rule: r.rule, from: from, to: q, path: path}, true
			}
			if !r.direct {
				queue = append(queue, q)
			}
		}
	}
	return breach{}, false
}

// mmPackages returns mm's packages in g, sorted.
func mmPackages(g graph) []string {
	var pkgs []string
	for p := range maps.Keys(g) {
		if isMM(p) {
			pkgs = append(pkgs, p)
		}
	}
	slices.Sort(pkgs)
	return pkgs
}

// check returns what is wrong with g, the packages mm builds: first the
// policy against the rules and the names in both, then mm's imports against
// the policy, then mm's dependencies against the rules. Each forbidden edge
// is named once.
func check(g graph, allowed []allow, rules []never) []string {
	var msgs []string
	named := map[[2]string]bool{} // from, to pairs a message already names

	pg := graph{}
	may := map[string]map[string]bool{}
	for _, a := range allowed {
		p := full(a.pkg)
		pg[p] = nil
		may[p] = map[string]bool{}
		for _, i := range a.imports {
			pg[p] = append(pg[p], full(i))
			may[p][full(i)] = true
		}
	}
	for _, b := range breaches(pg, rules) {
		if named[[2]string{b.from, b.to}] {
			continue
		}
		named[[2]string{b.from, b.to}] = true
		msgs = append(msgs, fmt.Sprintf("%s: by the policy, %s", policyFile, b.describe("may import", "may depend on")))
	}

	msgs = append(msgs, checkNames(g, allowed, rules)...)

	for _, p := range mmPackages(g) {
		if may[p] == nil {
			continue // checkNames said so; the rules still apply to it
		}
		for _, q := range slices.Sorted(slices.Values(g[p])) {
			if !isMM(q) || may[p][q] {
				continue
			}
			named[[2]string{p, q}] = true
			if i := slices.IndexFunc(rules, func(r never) bool { return r.forbids(p, q) }); i >= 0 {
				msgs = append(msgs, fmt.Sprintf("forbidden import: %s imports %s, which breaks the rule %q",
					short(p), short(q), rules[i].rule))
				continue
			}
			msgs = append(msgs, fmt.Sprintf("forbidden import: %s imports %s, which the policy does not allow: "+
				"move the code, or, if the design allows the edge, add it to policy() in %s with the reason",
				short(p), short(q), policyFile))
		}
	}

	for _, b := range breaches(g, rules) {
		if named[[2]string{b.from, b.to}] {
			continue
		}
		named[[2]string{b.from, b.to}] = true
		kind := "forbidden dependency: "
		if len(b.path) == 2 {
			kind = "forbidden import: "
		}
		msgs = append(msgs, kind+b.describe("imports", "depends on"))
	}
	return msgs
}

// checkNames returns the packages of mm the policy leaves out, and the names
// in the policy and the rules that match no package, as a typo would.
func checkNames(g graph, allowed []allow, rules []never) []string {
	var msgs []string
	inPolicy := map[string]bool{}
	for _, a := range allowed {
		inPolicy[full(a.pkg)] = true
	}
	for _, p := range mmPackages(g) {
		if !inPolicy[p] {
			msgs = append(msgs, fmt.Sprintf("package %s is not in the policy: add it to policy() in %s "+
				"with the packages of mm it may import, and why", short(p), policyFile))
		}
	}
	for _, a := range allowed {
		for _, n := range append([]string{a.pkg}, a.imports...) {
			if _, ok := g[full(n)]; !ok {
				msgs = append(msgs, fmt.Sprintf("the policy names %s, which is no package of mm: correct policy() in %s",
					n, policyFile))
			}
		}
	}
	for _, r := range rules {
		var names []string
		for _, n := range slices.Concat(r.from, r.to) {
			if !slices.ContainsFunc(mmPackages(g), func(p string) bool { return matches(full(n), p) }) {
				names = append(names, n)
			}
		}
		for _, o := range r.toOther {
			if !slices.ContainsFunc(slices.Collect(maps.Keys(g)), func(p string) bool { return matches(o, p) }) {
				names = append(names, o)
			}
		}
		for _, n := range names {
			msgs = append(msgs, fmt.Sprintf("the rule %q names %s, which matches no package mm builds: correct neverRules() in %s",
				r.rule, n, policyFile))
		}
	}
	return msgs
}

// mcpSDK is the MCP client's package, which the rules keep in
// tools/mcptools.
const mcpSDK = "github.com/modelcontextprotocol/go-sdk/mcp"

// The other SDKs the rules keep out of mm: wazero, the OpenTelemetry SDK,
// the A2A SDK.
const (
	wazero  = "github.com/tetratelabs/wazero"
	otelSDK = "go.opentelemetry.io/otel/sdk/trace"
	a2aSDK  = "github.com/a2aproject/a2a-go/a2a"
)

// jsonSchemas is the JSON Schema compiler, which the rules keep in
// mmconfigs/schemacheck (and the MCP client's SDK).
const jsonSchemas = "github.com/google/jsonschema-go/jsonschema"

// policyGraph returns the graph the policy draws, with the packages outside mm
// that the rules name: what check finds clean.
func policyGraph() graph {
	g := graph{"os/exec": nil, "net": nil, "net/http": nil, mcpSDK: nil, wazero: nil, otelSDK: nil, jsonSchemas: nil, a2aSDK: nil}
	for _, a := range policy() {
		g[full(a.pkg)] = nil
		for _, i := range a.imports {
			g[full(a.pkg)] = append(g[full(a.pkg)], full(i))
		}
	}
	return g
}

// TestCheck shows what each kind of failure says, on graphs made from the
// policy and changed by one edit.
func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(g graph)
		relax func(a []allow) []allow // a change to the policy, if any
		want  []string
	}{
		{name: "the policy's own graph", edit: func(graph) {}},
		{
			name: "a front end imports a tool",
			edit: func(g graph) { g[full("frontend")] = append(g[full("frontend")], full("tools")) },
			want: []string{`forbidden import: frontend imports tools, which breaks the rule "front ends import neither hooks nor models nor tools (CONTRIBUTING.md)"`},
		},
		{
			name: "the shared package imports a front end",
			edit: func(g graph) { g[full("frontend")] = append(g[full("frontend")], full("frontend/line")) },
			want: []string{
				`forbidden import: frontend imports frontend/line, which breaks the rule "frontend holds what the front ends share: it imports none of its sub-packages (CONTRIBUTING.md)"`,
				`forbidden dependency: frontend/a2a depends on frontend/line (frontend/a2a → frontend → frontend/line), which breaks the rule "a front end imports no other front end: what two of them need is in frontend (CONTRIBUTING.md)"`,
				`forbidden dependency: frontend/mcp depends on frontend/line (frontend/mcp → frontend → frontend/line), which breaks the rule "a front end imports no other front end: what two of them need is in frontend (CONTRIBUTING.md)"`,
				`forbidden dependency: frontend/tui depends on frontend/line (frontend/tui → frontend → frontend/line), which breaks the rule "a front end imports no other front end: what two of them need is in frontend (CONTRIBUTING.md)"`,
			},
		},
		{
			name: "the window imports the line mode",
			edit: func(g graph) { g[full("frontend/tui")] = append(g[full("frontend/tui")], full("frontend/line")) },
			want: []string{`forbidden import: frontend/tui imports frontend/line, which breaks the rule "a front end imports no other front end: what two of them need is in frontend (CONTRIBUTING.md)"`},
		},
		{
			name: "an edge no rule forbids and the policy does not list",
			edit: func(g graph) { g[full("frontend")] = append(g[full("frontend")], full("handoff")) },
			want: []string{"forbidden import: frontend imports handoff, which the policy does not allow: move the code, or, if the design allows the edge, add it to policy() in internal/archtest/deps_test.go with the reason"},
		},
		{
			name: "the ask reaches os/exec through an allowed import",
			edit: func(g graph) { g[full("llm")] = append(g[full("llm")], "os/exec") },
			want: []string{`forbidden dependency: handoff depends on os/exec (handoff → llm → os/exec), which breaks the rule "the ask's types start no process (CONTRIBUTING.md)"`},
		},
		{
			name: "the scripted model reaches a server",
			edit: func(g graph) { g[full("llm/builtin")] = append(g[full("llm/builtin")], "net/http") },
			want: []string{`forbidden import: llm/builtin imports net/http, which breaks the rule "of the models, only llm/openai speaks HTTP (CONTRIBUTING.md)"`},
		},
		{
			name: "the shared types name a model",
			edit: func(g graph) { g[full("llm")] = append(g[full("llm")], full("llm/builtin")) },
			want: []string{
				`forbidden import: llm imports llm/builtin, which breaks the rule "llm holds the types every model shares: it imports no model (CONTRIBUTING.md)"`,
				`forbidden dependency: llm/openai depends on llm/builtin (llm/openai → llm → llm/builtin), which breaks the rule "a server's client knows no built-in model (CONTRIBUTING.md)"`,
			},
		},
		{
			name: "configuration imports a package outside mm that a rule names",
			edit: func(g graph) { g[full("mmconfigs")] = append(g[full("mmconfigs")], "net/http") },
			want: []string{`forbidden import: mmconfigs imports net/http, which breaks the rule "configuration is data: loading it starts no process and opens no connection (CONTRIBUTING.md)"`},
		},
		{
			name: "a new package",
			edit: func(g graph) { g[full("frontend/web")] = []string{full("orchestrator")} },
			want: []string{"package frontend/web is not in the policy: add it to policy() in internal/archtest/deps_test.go with the packages of mm it may import, and why"},
		},
		{
			name: "a package gone",
			edit: func(g graph) { delete(g, full("internal/nodetest")) },
			want: []string{
				"the policy names internal/nodetest, which is no package of mm: correct policy() in internal/archtest/deps_test.go",
				`the rule "a test helper is linked into no mm binary: only _test.go files import it" names internal/nodetest, which matches no package mm builds: correct neverRules() in internal/archtest/deps_test.go`,
			},
		},
		{
			name: "a test helper linked into mm",
			edit: func(g graph) { g[full("tools")] = append(g[full("tools")], full("internal/mustend")) },
			want: []string{`forbidden import: tools imports internal/mustend, which breaks the rule "a test helper is linked into no mm binary: only _test.go files import it"`},
		},
		{
			name: "the policy relaxed against a rule",
			edit: func(g graph) { g[full("tools")] = append(g[full("tools")], full("orchestrator")) },
			relax: func(a []allow) []allow {
				for i := range a {
					if a[i].pkg == "tools" {
						a[i].imports = append(a[i].imports, "orchestrator")
					}
				}
				return a
			},
			want: []string{
				`internal/archtest/deps_test.go: by the policy, tools may import orchestrator, which breaks the rule "a tool knows nothing of the loop that calls it (CONTRIBUTING.md)"`,
				`internal/archtest/deps_test.go: by the policy, tools/mcptools may depend on orchestrator (tools/mcptools → tools → orchestrator), which breaks the rule "a tool knows nothing of the loop that calls it (CONTRIBUTING.md)"`,
				`internal/archtest/deps_test.go: by the policy, mmconfigs may depend on orchestrator (mmconfigs → tools → orchestrator), which breaks the rule "configuration is data (CONTRIBUTING.md)"`,
			},
		},
		{
			name: "the turn loop links the MCP client",
			edit: func(g graph) { g[full("orchestrator")] = append(g[full("orchestrator")], mcpSDK) },
			want: []string{
				`forbidden dependency: frontend depends on github.com/modelcontextprotocol/go-sdk/mcp (frontend → orchestrator → github.com/modelcontextprotocol/go-sdk/mcp), which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
				`forbidden dependency: frontend/a2a depends on github.com/modelcontextprotocol/go-sdk/mcp (frontend/a2a → orchestrator → github.com/modelcontextprotocol/go-sdk/mcp), which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
				`forbidden dependency: frontend/acp depends on github.com/modelcontextprotocol/go-sdk/mcp (frontend/acp → orchestrator → github.com/modelcontextprotocol/go-sdk/mcp), which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
				`forbidden dependency: frontend/line depends on github.com/modelcontextprotocol/go-sdk/mcp (frontend/line → orchestrator → github.com/modelcontextprotocol/go-sdk/mcp), which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
				`forbidden dependency: frontend/tui depends on github.com/modelcontextprotocol/go-sdk/mcp (frontend/tui → orchestrator → github.com/modelcontextprotocol/go-sdk/mcp), which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
				`forbidden import: orchestrator imports github.com/modelcontextprotocol/go-sdk/mcp, which breaks the rule "only tools/mcptools (the client) and frontend/mcp (the server) link the MCP SDK (issues 16, 40)"`,
			},
		},
		{
			name: "mm's command line links wazero",
			edit: func(g graph) { g[full("cmd/mm/cli")] = append(g[full("cmd/mm/cli")], wazero) },
			want: []string{
				`forbidden import: cmd/mm/cli imports github.com/tetratelabs/wazero, which breaks the rule "the command line imports no wasm runtime, MCP client, OTLP export, JSON Schema compiler or A2A SDK itself: it reaches each through the one package of mm that imports it"`,
			},
		},
		{
			name: "the turn loop imports the A2A client again",
			edit: func(g graph) {
				g[full("a2aagent")] = append(g[full("a2aagent")], a2aSDK)
				g[full("orchestrator")] = append(g[full("orchestrator")], full("a2aagent"))
			},
			want: []string{
				"forbidden import: orchestrator imports a2aagent, which the policy does not allow: move the code, or, if the design allows the edge, add it to policy() in internal/archtest/deps_test.go with the reason",
			},
		},
		{
			name: "the configuration compiles its schemas itself",
			edit: func(g graph) { g[full("mmconfigs")] = append(g[full("mmconfigs")], jsonSchemas) },
			want: []string{
				`forbidden dependency: frontend depends on github.com/google/jsonschema-go/jsonschema (frontend → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden dependency: frontend/a2a depends on github.com/google/jsonschema-go/jsonschema (frontend/a2a → frontend → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden dependency: frontend/acp depends on github.com/google/jsonschema-go/jsonschema (frontend/acp → orchestrator → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden dependency: frontend/line depends on github.com/google/jsonschema-go/jsonschema (frontend/line → frontend → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden dependency: frontend/tui depends on github.com/google/jsonschema-go/jsonschema (frontend/tui → frontend → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden import: mmconfigs imports github.com/google/jsonschema-go/jsonschema, which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
				`forbidden dependency: orchestrator depends on github.com/google/jsonschema-go/jsonschema (orchestrator → mmconfigs → github.com/google/jsonschema-go/jsonschema), which breaks the rule "only mmconfigs/schemacheck (and the MCP SDK's two packages) link jsonschema-go (issues 16, 40)"`,
			},
		},
		{
			name: "the hook engine imports the turn loop",
			edit: func(g graph) { g[full("hooks")] = append(g[full("hooks")], full("orchestrator")) },
			want: []string{
				`forbidden import: hooks imports orchestrator, which breaks the rule "the hook engine knows no turn loop (CONTRIBUTING.md)"`,
				`forbidden dependency: hooks/wasm depends on orchestrator (hooks/wasm → hooks → orchestrator), which breaks the rule "the hook engine knows no turn loop (CONTRIBUTING.md)"`,
				`forbidden dependency: mmconfigs depends on orchestrator (mmconfigs → hooks → orchestrator), which breaks the rule "configuration is data (CONTRIBUTING.md)"`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := policyGraph()
			tt.edit(g)
			allowed := policy()
			if tt.relax != nil {
				allowed = tt.relax(allowed)
			}
			got := check(g, allowed, neverRules())
			if !slices.Equal(got, tt.want) {
				t.Errorf("check:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}
