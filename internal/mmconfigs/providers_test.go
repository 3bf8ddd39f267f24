package mmconfigs

import (
	"reflect"
	"testing"
	"time"
)

func TestProviderIdleTimeout(t *testing.T) {
	tests := []struct {
		name, body string
		want       map[string]Provider
		wantErr    string
	}{
		{
			name: "a built-in provider's idle time alone",
			body: "providers:\n  ollama: {idleTimeout: 20m}\n",
			want: map[string]Provider{"ollama": {IdleTimeout: 20 * time.Minute}},
		},
		{
			name: "a new provider",
			body: "providers:\n  gpu:\n    baseURL: http://gpu.lan:8080/v1\n    idleTimeout: 90s\n",
			want: map[string]Provider{"gpu": {BaseURL: "http://gpu.lan:8080/v1", IdleTimeout: 90 * time.Second}},
		},
		{
			name:    "not a duration",
			body:    "providers:\n  ollama:\n    idleTimeout: 5\n",
			wantErr: `agent.yaml:3: providers: ollama: idleTimeout: want a positive duration like 90s or 10m, not "5"`,
		},
		{
			name:    "zero",
			body:    "providers:\n  ollama: {idleTimeout: 0s}\n",
			wantErr: `agent.yaml:2: providers: ollama: idleTimeout: want a positive duration like 90s or 10m, not "0s"`,
		},
		{
			name:    "a list",
			body:    "providers:\n  ollama: {idleTimeout: [5m]}\n",
			wantErr: `agent.yaml:2: providers: ollama: idleTimeout: want a duration like 90s or 10m, not a list`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "agent.yaml", tt.body)
			c, err := Load("agent.yaml", dir, noenv)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error:\n got %v\nwant %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Providers, tt.want) {
				t.Errorf("got %#v\nwant %#v", c.Providers, tt.want)
			}
		})
	}
}
