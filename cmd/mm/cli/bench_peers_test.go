package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/fakegemini"
	"github.com/mm-agent/mm/internal/nodetest"
)

// BenchmarkAskGeminiVsMM is one mm --ask answered at once by the model: to
// an echo mm by file, to Gemini CLI against the fake Gemini API, and to
// Gemini CLI told not to start itself again (GEMINI_CLI_NO_RELAUNCH: one
// node process instead of two), interleaved in each iteration, in turns
// first. It reports each one's median (mm-ms, gemini-ms,
// gemini-norelaunch-ms): what asking Gemini CLI costs before its model
// says a word.
//
//	go test ./cmd/mm/cli -run '^$' -bench AskGeminiVsMM -benchtime 20x
func BenchmarkAskGeminiVsMM(b *testing.B) {
	peers := filepath.Join(repoRoot(), "test", "peers")
	nodetest.Require(b, peers)
	dir := b.TempDir()
	srv := fakegemini.Start(b, func(fakegemini.Request) fakegemini.Reply { return fakegemini.Say("An inode holds a file's metadata.") })
	env, err := srv.CLIEnv(filepath.Join(dir, "gemini-home"))
	if err != nil {
		b.Fatal(err)
	}
	gemini := filepath.Join(peers, "node_modules", ".bin", "gemini")
	cfg := "model: echo/main\nmmConfigs:\n  gemini: {command: [" + gemini + ", --acp]}\n"
	if err := os.WriteFile(filepath.Join(dir, "gemini.yaml"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(extra []string, args ...string) time.Duration {
		cmd := benchCmd(b, dir, mmBin, args...)
		cmd.Env = append(append(cmd.Env, env...), extra...)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("mm %v: %v\n%s", args, err, out)
		}
		return time.Since(t0)
	}
	runs := []struct {
		unit  string
		extra []string
		args  []string
		times []time.Duration
	}{
		{unit: "mm-ms", args: []string{"--config", fixture("echo.yaml"), "--ask", "expert", "What is an inode?"}},
		{unit: "gemini-ms", args: []string{"--config", "gemini.yaml", "--ask", "gemini", "What is an inode?"}},
		{unit: "gemini-norelaunch-ms", extra: []string{"GEMINI_CLI_NO_RELAUNCH=true"}, args: []string{"--config", "gemini.yaml", "--ask", "gemini", "What is an inode?"}},
	}
	first := 0
	for b.Loop() {
		for i := range runs {
			r := &runs[(first+i)%len(runs)]
			r.times = append(r.times, run(r.extra, r.args...))
		}
		first = (first + 1) % len(runs)
	}
	for _, r := range runs {
		b.ReportMetric(medianMs(r.times), r.unit)
	}
}
