package openai

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestListModels: a server's models are its ids in its order, blanks left
// out; a server that lists none, refuses, or answers something else is an
// error that says which.
func TestListModels(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		want    []string
		wantErr string
	}{
		{name: "models", status: 200, body: `{"object":"list","data":[{"id":"qwen3:8b"},{"id":" "},{"id":" llama3.2:3b "}]}`, want: []string{"qwen3:8b", "llama3.2:3b"}},
		{name: "none", status: 200, body: `{"object":"list","data":[]}`, wantErr: "GET /models: no model"},
		{name: "refused", status: 500, body: `no`, wantErr: "GET /models: 500 Internal Server Error"},
		{name: "not a list", status: 200, body: `<html>`, wantErr: "GET /models: invalid character '<' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/models" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			got, err := ListModels(t.Context(), srv.Client(), srv.URL+"/v1/")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error: got %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
