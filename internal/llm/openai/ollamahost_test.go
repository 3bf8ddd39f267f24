package openai

import "testing"

// TestOllamaHost reads OLLAMA_HOST in each form Ollama's own CLI takes
// (its envconfig.Host), into the ollama provider's API root.
func TestOllamaHost(t *testing.T) {
	tests := []struct {
		env, want, wantErr string
	}{
		{env: "", want: "http://localhost:11434/v1"},
		{env: "127.0.0.1:11555", want: "http://127.0.0.1:11555/v1"},
		{env: "gpu.lan", want: "http://gpu.lan:11434/v1"},
		{env: "gpu.lan:8000", want: "http://gpu.lan:8000/v1"},
		{env: "http://gpu.lan", want: "http://gpu.lan:80/v1"},
		{env: "https://ollama.example", want: "https://ollama.example:443/v1"},
		{env: "http://127.0.0.1:11555/", want: "http://127.0.0.1:11555/v1"},
		{env: "http://proxy.lan:8080/ollama", want: "http://proxy.lan:8080/ollama/v1"},
		{env: "0.0.0.0", want: "http://127.0.0.1:11434/v1"},
		{env: "0.0.0.0:11555", want: "http://127.0.0.1:11555/v1"},
		{env: ":11555", want: "http://127.0.0.1:11555/v1"},
		{env: "[::]:11555", want: "http://[::1]:11555/v1"},
		{env: "[::1]", want: "http://[::1]:11434/v1"},
		{env: ` "127.0.0.1:11555" `, want: "http://127.0.0.1:11555/v1"},
		{env: "127.0.0.1:99999", wantErr: `OLLAMA_HOST="127.0.0.1:99999": the port "99999" is not a number from 1 to 65535; set it like 127.0.0.1:11434`},
		{env: "ftp://x", wantErr: `OLLAMA_HOST="ftp://x": the scheme "ftp" is neither http nor https; set it like 127.0.0.1:11434 or http://gpu.lan:11434`},
	}
	for _, tc := range tests {
		getenv := func(k string) string {
			if k == "OLLAMA_HOST" {
				return tc.env
			}
			return ""
		}
		m, err := New("ollama/tiny", Options{Getenv: getenv})
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("OLLAMA_HOST=%q: error %v, want %s", tc.env, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("OLLAMA_HOST=%q: %v", tc.env, err)
			continue
		}
		if got := m.(*openAIModel).baseURL; got != tc.want {
			t.Errorf("OLLAMA_HOST=%q: base URL %s, want %s", tc.env, got, tc.want)
		}
	}
	// A configured baseURL is the more particular: it wins.
	m, err := New("ollama/tiny", Options{
		Getenv:    func(string) string { return "127.0.0.1:11555" },
		Providers: map[string]Provider{"ollama": {BaseURL: "http://gpu.lan:11434/v1"}},
	})
	if err != nil || m.(*openAIModel).baseURL != "http://gpu.lan:11434/v1" {
		t.Errorf("providers.ollama.baseURL with OLLAMA_HOST set: %v, %v", m, err)
	}
}
