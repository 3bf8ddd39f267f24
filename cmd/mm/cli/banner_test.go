package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// bannerFiles are the configurations the banner tests run: one whose file
// says every part, one that says no model (for $MM_MODEL), one with yolo:
// true, and a folder with none.
var bannerFiles = map[string]string{
	"agent.yaml":        "model: echo/file\n",
	"plain.yaml":        "maxSteps: 5\n",
	"yolo.yaml":         "model: echo/yolo\nyolo: true\nmmConfigs:\n  expert: agent.yaml\n",
	"empty/.keep":       "",
	"hooked/agent.yaml": "model: echo/hooked\nhooks:\n  preGeneration:\n    - command: \"true\"\n",
}

// bannerCases are each flag and variable that changes a part of the
// banner, alone and together: what the banner of the line mode, the
// window and mm check shows after "mm <version> | ".
var bannerCases = []struct {
	name string
	dir  string // the working folder, under the test's
	env  []string
	args []string
	want string
	// asked is the banner mm check shows next: the agent the
	// configuration asks by file, started without the flags.
	asked string
}{
	{"the file", "", nil, nil, "config: agent.yaml | model: echo/file | sandbox: workspace, network on | yolo: off", ""},
	{"--yolo", "", nil, []string{"--yolo"}, "config: agent.yaml | model: echo/file | sandbox: workspace, network on | yolo: on", ""},
	{"--model", "", nil, []string{"--model", "echo/flag"}, "config: agent.yaml | model: echo/flag | sandbox: workspace, network on | yolo: off", ""},
	{"$MM_MODEL under model:", "", []string{"MM_MODEL=echo/env"}, nil, "config: agent.yaml | model: echo/file | sandbox: workspace, network on | yolo: off", ""},
	{"$MM_MODEL without model:", "", []string{"MM_MODEL=echo/env"}, []string{"--config", "plain.yaml"}, "config: plain.yaml | model: echo/env | sandbox: workspace, network on | yolo: off", ""},
	{"--config", "", nil, []string{"--config", "yolo.yaml"}, "config: yolo.yaml | model: echo/yolo | agents: expert | sandbox: workspace, network on | yolo: on", askedBanner},
	{"-c", "", nil, []string{"-c", "yolo.yaml"}, "config: yolo.yaml | model: echo/yolo | agents: expert | sandbox: workspace, network on | yolo: on", askedBanner},
	{"$MM_CONFIG", "", []string{"MM_CONFIG=yolo.yaml"}, nil, "config: yolo.yaml | model: echo/yolo | agents: expert | sandbox: workspace, network on | yolo: on", askedBanner},
	{"--config over $MM_CONFIG", "", []string{"MM_CONFIG=yolo.yaml"}, []string{"--config", "agent.yaml"}, "config: agent.yaml | model: echo/file | sandbox: workspace, network on | yolo: off", ""},
	{"--model over yolo.yaml", "", nil, []string{"-c", "yolo.yaml", "--model", "echo/flag"}, "config: yolo.yaml | model: echo/flag | agents: expert | sandbox: workspace, network on | yolo: on", askedBanner},
	{"no file, $MM_MODEL", "empty", []string{"MM_MODEL=echo/env"}, nil, "model: echo/env | sandbox: workspace, network on | yolo: off", ""},
	{"no file, --yolo --model", "empty", []string{"MM_MODEL=echo/env"}, []string{"--yolo", "--model", "echo/flag"}, "model: echo/flag | sandbox: workspace, network on | yolo: on", ""},
	{"--yolo with hooks", "hooked", nil, []string{"--yolo"}, "config: agent.yaml | model: echo/hooked | sandbox: workspace, network on | yolo: on | hooks: preGeneration×1", ""},
}

// askedBanner is the banner of yolo.yaml's expert in mm check: its own
// file's model and yolo, whatever the flags.
const askedBanner = "config: agent.yaml | model: echo/file | sandbox: workspace, network on | yolo: off"

// bannerEnv is env as a map, with PATH.
func bannerEnv(env []string) map[string]string {
	m := map[string]string{"PATH": os.Getenv("PATH")}
	for _, kv := range env {
		for i := range kv {
			if kv[i] == '=' {
				m[kv[:i]] = kv[i+1:]
				break
			}
		}
	}
	return m
}

// TestBannerTellsTheTruth: the line mode's first line is what the session
// runs, whatever flag or variable changed it (issue 37: mm --yolo showed
// yolo: off while every tool ran unasked).
func TestBannerTellsTheTruth(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, bannerFiles)
	for _, tc := range bannerCases {
		t.Run(tc.name, func(t *testing.T) {
			s, out, errOut := testStreams(filepath.Join(root, tc.dir), "/exit\n", bannerEnv(tc.env))
			code := runWith(context.Background(), nil, s, append([]string{"--no-save"}, tc.args...))
			if want := versionLine() + " | " + tc.want + "\n"; code != 0 || out.String() != want || errOut.Len() != 0 {
				t.Errorf("mm %q: exit %d, stdout %q, stderr %q; want stdout %q", tc.args, code, out, errOut, want)
			}
		})
	}
}

// TestCheckBannerTellsTheTruth: mm check's first line is the banner a
// session of the same flags and variables shows; an agent it asks by file
// is started with none, and its line says so.
func TestCheckBannerTellsTheTruth(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, bannerFiles)
	for _, tc := range bannerCases {
		t.Run(tc.name, func(t *testing.T) {
			s, out, errOut := testStreams(filepath.Join(root, tc.dir), "", bannerEnv(tc.env))
			code := runWith(context.Background(), nil, s, append([]string{"check"}, tc.args...))
			want := versionLine() + " | " + tc.want + "\n"
			if tc.asked != "" {
				want += versionLine() + " | " + tc.asked + "\n"
			}
			if code != 0 || out.String() != want || errOut.Len() != 0 {
				t.Errorf("mm check %q: exit %d, stdout %q, stderr %q; want stdout %q", tc.args, code, out, errOut, want)
			}
		})
	}
}

// TestWindowBannerTellsTheTruth: the window's banner row is what the
// session runs, as the line mode's is.
func TestWindowBannerTellsTheTruth(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, bannerFiles)
	for _, tc := range bannerCases {
		t.Run(tc.name, func(t *testing.T) {
			term := startTerminalEnv(t, filepath.Join(root, tc.dir), 200, 40, tc.env, append([]string{"-tui", "--no-save"}, tc.args...)...)
			term.waitFor("mm devel | " + tc.want + "\x1b")
			term.waitFor("idle · Enter sends")
			term.send("/exit\r")
			term.waitExit()
		})
	}
}

// TestCheckChecksTheModelThatRuns: mm check --model checks the model the
// flag gives, the one a session would run, not the file's.
func TestCheckChecksTheModelThatRuns(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, bannerFiles)
	s, out, errOut := testStreams(root, "", bannerEnv(nil))
	code := runWith(context.Background(), nil, s, []string{"check", "--model", "bogus/x"})
	wantOut := versionLine() + " | config: agent.yaml | model: bogus/x | sandbox: workspace, network on | yolo: off\n"
	const wantErr = `[config error: agent.yaml: model "bogus/x": unknown provider "bogus" (known: echo, llamacpp, llmman, lmstudio, ollama, openai, script)]` + "\n"
	if code != 1 || out.String() != wantOut || errOut.String() != wantErr {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1, stdout %q, stderr %q", code, out, errOut, wantOut, wantErr)
	}
}
