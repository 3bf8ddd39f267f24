package cli

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
//	go test ./cmd/mm/cli -run '^$' -bench AskByFileVsCommand -benchtime 60x
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

// BenchmarkAskOverSSH is one mm --ask to an echo expert that is an mm over
// ssh to the test's own sshd on 127.0.0.1, against the same hand-off to an
// mm by file here (file-ms). "master" goes through a ControlMaster
// connection opened once before (ControlPath in the test's folder,
// ControlPersist), as a user's ssh configuration would have it; "fresh"
// makes a whole ssh connection each time; "ssh-true" is `ssh mmtest true`
// through the same master, the floor of any command over ssh: the remote
// login shell's start (Debian's bash reads ~/.bashrc for a command over
// ssh) is paid by every one, mm or not. The four run interleaved in each
// iteration; the overhead per hand-off over ssh is master-ms − file-ms,
// and mm's own part of it master-ms − ssh-true-ms − file-ms.
//
//	go test ./cmd/mm/cli -run '^$' -bench AskOverSSH -benchtime 30x
func BenchmarkAskOverSSH(b *testing.B) {
	s := startSSHD(b)
	files := sshFiles(s)
	control := []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + s.path("cm-%C"), "-o", "ControlPersist=120"}
	files["master.yaml"] = fmt.Sprintf("model: echo/main\nmmConfigs:\n  expert:\n    ssh: mmtest\n    sshArgs: [-F, %s, %s]\n    mm: %s\n    config: %s\n",
		s.clientConfig, joinYAML(control), mmBin, s.path("expert.yaml"))
	files["fresh.yaml"] = fmt.Sprintf("model: echo/main\nmmConfigs:\n  expert:\n    ssh: mmtest\n    sshArgs: [-F, %s]\n    mm: %s\n    config: %s\n",
		s.clientConfig, mmBin, s.path("expert.yaml"))
	files["file.yaml"] = "model: echo/main\nmmConfigs:\n  expert: expert.yaml\n"
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
	run := func(name string, argv ...string) time.Duration {
		cmd := benchCmd(b, s.dir, name, argv...)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, argv, err, out)
		}
		return time.Since(t0)
	}
	ask := func(cfg string) time.Duration {
		return run(mmBin, "--config", s.path(cfg), "--ask", "expert", "What is an inode?")
	}
	var file, sshTrue, master, fresh []time.Duration
	for b.Loop() {
		file = append(file, ask("file.yaml"))
		sshTrue = append(sshTrue, run("ssh", append(args, "mmtest", "true")...))
		master = append(master, ask("master.yaml"))
		fresh = append(fresh, ask("fresh.yaml"))
	}
	f, t, m := medianMs(file), medianMs(sshTrue), medianMs(master)
	b.ReportMetric(f, "file-ms")
	b.ReportMetric(t, "ssh-true-ms")
	b.ReportMetric(m, "master-ms")
	b.ReportMetric(medianMs(fresh), "fresh-ms")
	b.ReportMetric(m-f, "overhead-ms")
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
