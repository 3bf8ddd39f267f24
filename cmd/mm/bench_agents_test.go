package main

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkAskByFileVsCommand is one mm --ask to the same echo expert,
// declared by its file (expert: expert-echo.yaml) and by command (expert:
// {command: [$MM_BIN, -acp, --config, …]}), the two runs interleaved in
// each iteration, in turns first, so that the machine's drift touches both alike. It
// reports each one's median (file-ms, command-ms) and their ratio.
//
//	go test ./cmd/mm -run '^$' -bench AskByFileVsCommand -benchtime 60x
func BenchmarkAskByFileVsCommand(b *testing.B) {
	dir := b.TempDir()
	var file, command []time.Duration
	run := func(cfg string) time.Duration {
		cmd := benchCmd(b, dir, mmBin, "--config", fixture(cfg), "--ask", "expert", "What is an inode?")
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("mm --config %s --ask: %v\n%s", cfg, err, out)
		}
		return time.Since(t0)
	}
	odd := false
	for b.Loop() {
		// Each goes first every other time: a second run in a row may
		// find the machine's caches warmer.
		if odd {
			command = append(command, run("echo-command.yaml"))
			file = append(file, run("echo.yaml"))
		} else {
			file = append(file, run("echo.yaml"))
			command = append(command, run("echo-command.yaml"))
		}
		odd = !odd
	}
	f, c := medianMs(file), medianMs(command)
	b.ReportMetric(f, "file-ms")
	b.ReportMetric(c, "command-ms")
	b.ReportMetric(c/f, "command/file")
}

// BenchmarkAskOverSSH is one mm --ask to the same kind of echo expert, an
// mm over ssh to the test's own sshd on 127.0.0.1: "master" through a
// ControlMaster connection opened once before (ControlPath in the test's
// folder, ControlPersist), as a user's ssh configuration would have it;
// "fresh" with a whole ssh handshake each time; "ssh-true" is the floor of
// the first, `ssh mmtest true` through the same master: the remote login
// shell's start (its rc files: Debian's bash reads ~/.bashrc for ssh
// commands) is paid by every command over ssh, mm or not. The overhead per
// hand-off over ssh is "master" against BenchmarkAskByFile.
func BenchmarkAskOverSSH(b *testing.B) {
	s := startSSHD(b)
	files := sshFiles(s)
	control := []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + s.path("cm-%C"), "-o", "ControlPersist=120"}
	files["master.yaml"] = fmt.Sprintf("model: echo/main\nmmConfigs:\n  expert:\n    ssh: mmtest\n    sshArgs: [-F, %s, %s]\n    mm: %s\n    config: %s\n",
		s.clientConfig, joinYAML(control), mmBin, s.path("expert.yaml"))
	files["fresh.yaml"] = fmt.Sprintf("model: echo/main\nmmConfigs:\n  expert:\n    ssh: mmtest\n    sshArgs: [-F, %s]\n    mm: %s\n    config: %s\n",
		s.clientConfig, mmBin, s.path("expert.yaml"))
	files["expert.yaml"] = "model: echo/expert\n"
	for name, body := range files {
		if err := os.WriteFile(s.path(name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// The master, started once, outside mm: ssh -MNf.
	args := append([]string{"-F", s.clientConfig}, control...)
	if out, err := exec.Command("ssh", append(args, "-MNf", "mmtest")...).CombinedOutput(); err != nil {
		b.Fatalf("ssh master: %v: %s", err, out)
	}
	b.Cleanup(func() { _ = exec.Command("ssh", append(args, "-O", "exit", "mmtest")...).Run() })
	b.Run("ssh-true", func(b *testing.B) { runBench(b, "ssh", append(args, "mmtest", "true")...) })
	for _, c := range []string{"master", "fresh"} {
		b.Run(c, func(b *testing.B) {
			runBench(b, mmBin, "--config", s.path(c+".yaml"), "--ask", "expert", "What is an inode?")
		})
	}
}

// joinYAML writes words as the items of a YAML flow list.
func joinYAML(words []string) string {
	out := ""
	for i, w := range words {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%q", w)
	}
	return out
}
