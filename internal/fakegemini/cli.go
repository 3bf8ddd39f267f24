package fakegemini

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Model is the model the CLI is pinned to: with a model named, Gemini CLI
// asks no routing classifier before each turn.
const Model = "gemini-2.5-flash"

// cliSettings is Gemini CLI's user settings for a run that reaches nothing
// but this server: no usage statistics or telemetry, no update check, the
// model pinned, the folder trusted (no prompt about it over ACP).
var cliSettings = map[string]any{
	"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	"privacy":   map[string]any{"usageStatisticsEnabled": false},
	"telemetry": map[string]any{"enabled": false},
	"model":     map[string]any{"name": Model},
	"security":  map[string]any{"folderTrust": map[string]any{"enabled": false}},
	"ide":       map[string]any{"enabled": false},
}

// CLIEnv prepares home as Gemini CLI's home folder (home/.gemini/settings.json)
// and returns the variables that point the CLI at the server with a fake
// API key, with its home (GEMINI_CLI_HOME) and temporary folder in home:
// the user's own ~/.gemini is never read.
func (s *Server) CLIEnv(home string) ([]string, error) {
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("prepare Gemini CLI's home: %w", err)
	}
	b, err := json.MarshalIndent(cliSettings, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode Gemini CLI's settings: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		return nil, fmt.Errorf("write Gemini CLI's settings: %w", err)
	}
	tmp := filepath.Join(home, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("prepare Gemini CLI's temporary folder: %w", err)
	}
	return []string{
		"GEMINI_CLI_HOME=" + home,
		"TMPDIR=" + tmp,
		"GEMINI_API_KEY=fake-key",
		"GOOGLE_GEMINI_BASE_URL=" + s.URL,
		"NO_COLOR=1",
	}, nil
}
