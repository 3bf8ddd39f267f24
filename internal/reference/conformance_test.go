package reference

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	update = flag.Bool("update", false, "rewrite the reference table of docs/explanation/testing.md from testdata/rows.tsv")
	runAll = flag.Bool("reference.run", false, "also run, package by package, every test rows.tsv names")
)

// root is the module's root, from this package's folder.
const root = "../.."

const (
	referenceFile = "testdata/hooks-reference.md"
	indexFile     = "testdata/rows.tsv"
	testingDoc    = "docs/explanation/testing.md"
	tableBegin    = "<!-- reference table: generated from internal/reference/testdata/rows.tsv by go test ./internal/reference -run Reference -update -->"
	tableEnd      = "<!-- end of the reference table -->"
)

// TestReferenceConformance holds the hooks reference whole: every unit of it
// (table row, sentence, list item, example block) has a row in
// testdata/rows.tsv naming the tests that hold it, every test named exists,
// and the units no test holds yet are listed, each by name, as gaps.
func TestReferenceConformance(t *testing.T) {
	units := readUnits(t)
	rows := readIndex(t)

	byID := map[string]Row{}
	for _, r := range rows {
		if _, twice := byID[r.ID]; twice {
			t.Errorf("rows.tsv:%d: %s is given twice", r.Line, r.ID)
		}
		byID[r.ID] = r
	}
	inReference := map[string]bool{}
	for _, u := range units {
		inReference[u.ID] = true
		r, ok := byID[u.ID]
		switch {
		case !ok:
			t.Errorf("not in the index: %s — add this line to internal/reference/%s, with the tests that hold it (or gap: what is missing):\n%s\tgap: no test yet\t%s", u.ID, indexFile, u.ID, u.Text)
		case r.Text != u.Text:
			t.Errorf("rows.tsv:%d: %s changed in the reference: check that its tests still hold it, then copy its text:\n reference: %s\n     index: %s", r.Line, u.ID, u.Text, r.Text)
		}
	}
	for _, r := range rows {
		if !inReference[r.ID] {
			t.Errorf("rows.tsv:%d: %s is no longer in the reference: remove the row (and see whether its tests still have a reason to be)", r.Line, r.ID)
		}
	}
	for i := 0; i < len(rows) && i < len(units); i++ {
		if rows[i].ID != units[i].ID {
			t.Errorf("rows.tsv:%d: %s, where the reference has %s: keep the rows in the reference's order", rows[i].Line, rows[i].ID, units[i].ID)
			break
		}
	}

	tests := newTestFinder()
	for _, r := range rows {
		for _, h := range r.Held {
			if err := tests.exists(h); err != nil {
				t.Errorf("rows.tsv:%d: %s: %v", r.Line, r.ID, err)
			}
		}
	}

	held, gaps, none := 0, 0, 0
	for _, r := range rows {
		if len(r.Held) > 0 {
			held++
		}
		if len(r.Gaps) > 0 {
			gaps++
			t.Logf("no test yet: %s: %s (%s)", r.ID, strings.Join(r.Gaps, "; "), r.Text)
		}
		if len(r.Held) == 0 && len(r.Gaps) == 0 {
			none++
		}
	}
	t.Logf("%d units of the reference: %d held by a test, %d with a gap, %d with nothing to hold", len(rows), held, gaps, none)

	checkTable(t, rows, units)
	if *runAll {
		runHolders(t, rows)
	}
}

// TestReferenceCopy: the copy in testdata is the user's reference, when the
// reference is beside the repository (../shared, as CI and the sessions have it).
func TestReferenceCopy(t *testing.T) {
	shared := filepath.Join(root, "..", "shared", "spec", "hooks-reference.md")
	want, err := os.ReadFile(shared)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is not beside the repository: the copy in %s stands", shared, referenceFile)
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("internal/reference/%s differs from %s: copy the reference over it (cp %s internal/reference/%s), then let TestReferenceConformance say which rows changed", referenceFile, shared, shared, referenceFile)
	}
}

func readUnits(t *testing.T) []Unit {
	t.Helper()
	b, err := os.ReadFile(referenceFile)
	if err != nil {
		t.Fatal(err)
	}
	units, err := Units(string(b))
	if err != nil {
		t.Fatalf("%s: %v", referenceFile, err)
	}
	return units
}

func readIndex(t *testing.T) []Row {
	t.Helper()
	b, err := os.ReadFile(indexFile)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseIndex(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// testFinder knows the tests of the packages rows.tsv names, from their
// source: the top-level Test functions, and the string literals a subtest
// may be named by.
type testFinder struct {
	pkgs map[string]*pkgTests
}

type pkgTests struct {
	err      error
	funcs    map[string]bool
	literals map[string]bool // each string literal of the test files, spaces as underscores
}

func newTestFinder() *testFinder { return &testFinder{pkgs: map[string]*pkgTests{}} }

func (f *testFinder) pkg(dir string) *pkgTests {
	if p, ok := f.pkgs[dir]; ok {
		return p
	}
	p := &pkgTests{funcs: map[string]bool{}, literals: map[string]bool{}}
	f.pkgs[dir] = p
	// rows.tsv names mm's parts as CONTRIBUTING.md does, without the
	// internal/ they live under.
	folder := filepath.Join(root, dir)
	if _, err := os.Stat(folder); err != nil {
		folder = filepath.Join(root, "internal", dir)
	}
	files, err := filepath.Glob(filepath.Join(folder, "*_test.go"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no test files in %s", dir)
	}
	if err != nil {
		p.err = err
		return p
	}
	fset := token.NewFileSet()
	for _, name := range files {
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			p.err = fmt.Errorf("parse %s: %w", name, err)
			return p
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				p.funcs[fn.Name.Name] = true
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					p.literals[strings.ReplaceAll(s, " ", "_")] = true
				}
			}
			return true
		})
	}
	return p
}

// exists says why h names no test, or nil. A subtest of TestScripts is a
// testscript file of the package's testdata/script; any other subtest is
// named by one of the package's string literals.
func (f *testFinder) exists(h Holder) error {
	p := f.pkg(h.Pkg)
	if p.err != nil {
		return p.err
	}
	top, sub, _ := strings.Cut(h.Test, "/")
	if !p.funcs[top] {
		return fmt.Errorf("%s has no func %s in its test files", h.Pkg, top)
	}
	if sub == "" {
		return nil
	}
	if top == "TestScripts" {
		script := filepath.Join(h.Pkg, "testdata", "script", sub+".txtar")
		if _, err := os.Stat(filepath.Join(root, script)); err != nil {
			return fmt.Errorf("no script %s", script)
		}
		return nil
	}
	if first, _, _ := strings.Cut(sub, "/"); !p.literals[first] {
		return fmt.Errorf("%s: no subtest %q of %s (no string literal of its test files names it)", h.Pkg, first, top)
	}
	return nil
}

// checkTable keeps the reference table of docs/explanation/testing.md equal
// to the index, or rewrites it with -update.
func checkTable(t *testing.T, rows []Row, units []Unit) {
	t.Helper()
	path := filepath.Join(root, testingDoc)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	begin, end := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no reference table between the lines\n%s\n%s", testingDoc, tableBegin, tableEnd)
	}
	want := doc[:begin] + tableBegin + "\n" + Table(rows, units) + tableEnd + doc[end+len(tableEnd):]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the reference table of %s differs from %s: go test ./internal/reference -run Reference -update rewrites it", testingDoc, indexFile)
}

// runHolders runs every test rows.tsv names, one go test per package (and
// one more for each test whose subtests are named), with -short unless this
// run is not.
func runHolders(t *testing.T, rows []Row) {
	whole := map[string]map[string]bool{}           // pkg → tests named whole
	subs := map[string]map[string]map[string]bool{} // pkg → test → subtests
	for _, r := range rows {
		for _, h := range r.Held {
			top, sub, _ := strings.Cut(h.Test, "/")
			sub, _, _ = strings.Cut(sub, "/") // go test -run matches each level apart
			if sub == "" {
				if whole[h.Pkg] == nil {
					whole[h.Pkg] = map[string]bool{}
				}
				whole[h.Pkg][top] = true
				continue
			}
			if subs[h.Pkg] == nil {
				subs[h.Pkg] = map[string]map[string]bool{}
			}
			if subs[h.Pkg][top] == nil {
				subs[h.Pkg][top] = map[string]bool{}
			}
			subs[h.Pkg][top][sub] = true
		}
	}
	var runs [][2]string // package, -run pattern
	for pkg, tests := range whole {
		runs = append(runs, [2]string{pkg, "^(" + strings.Join(sortedQuoted(tests), "|") + ")$"})
	}
	for pkg, tests := range subs {
		for top, names := range tests {
			if whole[pkg][top] {
				continue // run whole already
			}
			runs = append(runs, [2]string{pkg, "^" + top + "$/^(" + strings.Join(sortedQuoted(names), "|") + ")$"})
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i][0]+runs[i][1] < runs[j][0]+runs[j][1] })
	for _, run := range runs {
		args := []string{"test", "-count=1", "-run", run[1], "./" + run[0]}
		if testing.Short() {
			args = append(args, "-short")
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			continue
		}
		t.Logf("go %s: ok", strings.Join(args, " "))
	}
}

func sortedQuoted(set map[string]bool) []string {
	var out []string
	for s := range set {
		out = append(out, regexp.QuoteMeta(s))
	}
	sort.Strings(out)
	return out
}
