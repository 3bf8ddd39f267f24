package cli

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks below run the real binary (built in TestMain) on the
// configurations of bench/fixtures, as a person would. They are the Go side
// of bench/handoff.sh, which runs the same cases interleaved and prints
// medians side by side:
//
//	go test ./cmd/mm/cli -run '^$' -bench . -benchtime 25x

// benchCmd is the mm binary (or any program) with the fixtures' folder at
// hand and an environment that names no configuration.
func benchCmd(b *testing.B, dir string, name string, args ...string) *exec.Cmd {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	env := []string{}
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "MM_CONFIG", "MM_MODEL", "MM_ASKED_DEPTH", "MM_ASK_CHAIN", "MM_BIN":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "MM_BENCH_STAMP="+filepath.Join(dir, "stamp"))
	return cmd
}

func fixture(name string) string {
	return filepath.Join(repoRoot(), "bench", "fixtures", name)
}

// runBench runs the command once per iteration and reports the median wall
// time next to the mean Go reports.
func runBench(b *testing.B, name string, args ...string) {
	dir := b.TempDir()
	var times []time.Duration
	for b.Loop() {
		cmd := benchCmd(b, dir, name, args...)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		times = append(times, time.Since(t0))
	}
	b.ReportMetric(medianMs(times), "median-ms")
}

func medianMs(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return float64(m) / float64(time.Millisecond)
}

// BenchmarkTrue is the floor: a process that does nothing, started the same
// way.
func BenchmarkTrue(b *testing.B) { runBench(b, "/bin/true") }

// BenchmarkPrintEcho is one mm -p turn with the echo model.
func BenchmarkPrintEcho(b *testing.B) {
	runBench(b, mmBin, "--config", fixture("echo.yaml"), "-p", "What is an inode?")
}

// BenchmarkAskEcho is one mm --ask to an echo expert: the same answer as
// BenchmarkPrintEcho, through a child mm process.
func BenchmarkAskEcho(b *testing.B) {
	runBench(b, mmBin, "--config", fixture("echo.yaml"), "--ask", "expert", "What is an inode?")
}

// BenchmarkFanOut is one model reply with four ask_agent calls to four
// agents that each take 500 ms: they run at once.
func BenchmarkFanOut(b *testing.B) {
	runBench(b, mmBin, "--config", fixture("fanout.yaml"), "-p", "go")
}

// BenchmarkAskFirstPiece measures how long after the asked agent's model
// emitted its first piece that piece reached mm --ask's stdout. The asked
// agent's preGeneration hook stamps the wall clock just before its model
// starts; the model pauses 20 ms before the first piece. The time between
// the stamp and the model's start counts against mm: an upper bound.
func BenchmarkAskFirstPiece(b *testing.B) {
	firstPiece(b, "--config", fixture("stream.yaml"), "--ask", "streamer", "go")
}

// BenchmarkPrintFirstPiece is the same model run by mm -p, without a
// hand-off: the difference is what the hand-off adds.
func BenchmarkPrintFirstPiece(b *testing.B) {
	firstPiece(b, "--config", fixture("streamer.yaml"), "-p", "go")
}

func firstPiece(b *testing.B, args ...string) {
	dir := b.TempDir()
	stamp := filepath.Join(dir, "stamp")
	var lat []time.Duration
	for b.Loop() {
		os.Remove(stamp)
		cmd := benchCmd(b, dir, mmBin, args...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(out)
		if _, err := r.ReadByte(); err != nil {
			b.Fatal(err)
		}
		first := time.Now()
		r.WriteTo(io.Discard)
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		data, err := os.ReadFile(stamp)
		if err != nil {
			b.Fatal(err)
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, first.Sub(time.Unix(0, ns))-20*time.Millisecond)
	}
	b.ReportMetric(medianMs(lat), "first-piece-ms")
}
