package cli

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var updateInit = flag.Bool("update-inittrace", false, "write the initialisers' figures of today's binary to testdata/inittrace.txt")

// initBudgetRoom is how much the initialisers' allocations may grow over
// testdata/inittrace.txt before the test fails: room for a Go release's
// drift, not for a new dependency.
const initBudgetRoom = 1.10

// initNoise is how many bytes a package's initialiser may vary by from run
// to run (a map's growth, a timer) without being named as one that grew.
const initNoise = 1024

// initCost is what one package's initialiser allocated.
type initCost struct{ bytes, allocs int }

// TestInitBudget guards start-up without timing it: every package linked
// into mm runs its initialiser at every start, used or not, and what the
// initialisers allocate is the same from run to run where their clock time
// is not. It fails when they allocate more than the figures recorded in
// testdata/inittrace.txt (plus initBudgetRoom), naming the packages that
// grew or are new. A dependency that must grow them is recorded anew with
//
//	go test ./cmd/mm/cli -run TestInitBudget -update-inittrace
//
// and the commit says why it is worth its start-up cost.
func TestInitBudget(t *testing.T) {
	if coverBuild {
		t.Skip("mm is built with -cover (GOCOVERDIR is set): its initialisers are not a release's")
	}
	cmd := exec.Command(mmBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm version: %v\n%s", err, stderr.String())
	}
	now := parseInitTrace(t, stderr.String())
	file := filepath.Join("testdata", "inittrace.txt")
	if *updateInit {
		if err := os.WriteFile(file, []byte(formatInitTrace(now)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v: record it with -update-inittrace", err)
	}
	base := parseInitTrace(t, string(b))
	nowTotal, baseTotal := total(now), total(base)
	if float64(nowTotal.bytes) <= float64(baseTotal.bytes)*initBudgetRoom &&
		float64(nowTotal.allocs) <= float64(baseTotal.allocs)*initBudgetRoom {
		return
	}
	var grew []string
	for pkg, c := range now {
		if was, ok := base[pkg]; !ok {
			grew = append(grew, fmt.Sprintf("%s (new: %d bytes, %d allocs)", pkg, c.bytes, c.allocs))
		} else if c.bytes > was.bytes+initNoise || c.allocs > was.allocs+initNoise/100 {
			grew = append(grew, fmt.Sprintf("%s (%d → %d bytes, %d → %d allocs)", pkg, was.bytes, c.bytes, was.allocs, c.allocs))
		}
	}
	sort.Strings(grew)
	t.Errorf("package initialisers allocate %d bytes in %d allocs at every start, over the budget of %d bytes, %d allocs (testdata/inittrace.txt + %.0f%%); grew:\n  %s",
		nowTotal.bytes, nowTotal.allocs, int(float64(baseTotal.bytes)*initBudgetRoom), int(float64(baseTotal.allocs)*initBudgetRoom),
		(initBudgetRoom-1)*100, strings.Join(grew, "\n  "))
}

// parseInitTrace reads inittrace lines ("init <pkg> @… ms, … ms clock,
// <bytes> bytes, <allocs> allocs"), or the recorded "<pkg> <bytes> <allocs>".
func parseInitTrace(t *testing.T, s string) map[string]initCost {
	t.Helper()
	costs := map[string]initCost{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var pkg, bs, as string
		switch {
		case len(f) >= 10 && f[0] == "init":
			pkg, bs, as = f[1], f[7], f[9]
		case len(f) == 3 && !strings.HasPrefix(f[0], "#"):
			pkg, bs, as = f[0], f[1], f[2]
		default:
			continue
		}
		b, err1 := strconv.Atoi(bs)
		a, err2 := strconv.Atoi(as)
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read init trace line %q", sc.Text())
		}
		c := costs[pkg]
		costs[pkg] = initCost{c.bytes + b, c.allocs + a}
	}
	if len(costs) == 0 {
		t.Fatalf("no initialiser figures in:\n%s", s)
	}
	return costs
}

func total(costs map[string]initCost) initCost {
	var sum initCost
	for _, c := range costs {
		sum.bytes += c.bytes
		sum.allocs += c.allocs
	}
	return sum
}

func formatInitTrace(costs map[string]initCost) string {
	pkgs := make([]string, 0, len(costs))
	for p := range costs {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	sum := total(costs)
	fmt.Fprintf(&b, "# What each package initialiser of mm allocates at every start (bytes, allocs),\n# from GODEBUG=inittrace=1 mm version. Total: %d bytes, %d allocs.\n# Written by: go test ./cmd/mm/cli -run TestInitBudget -update-inittrace\n", sum.bytes, sum.allocs)
	for _, p := range pkgs {
		fmt.Fprintf(&b, "%s %d %d\n", p, costs[p].bytes, costs[p].allocs)
	}
	return b.String()
}
