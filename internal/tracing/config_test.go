package tracing

import (
	"reflect"
	"testing"
	"time"
)

// TestParseEnv: the OTEL_ variables mm follows, as the OpenTelemetry
// specification defines them, and a one-line error for each it cannot.
func TestParseEnv(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		want    Config
		wantErr string
	}{
		{name: "nothing set: off", env: []string{"PATH=/bin", "TRACEPARENT=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}},
		{name: "base endpoint gets the signal's path",
			env:  []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318/"},
			want: Config{Endpoint: "http://collector:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "mm"}},
		{name: "traces endpoint used as it is, over the base one",
			env:  []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://b/otlp/traces"},
			want: Config{Endpoint: "https://b/otlp/traces", Timeout: defaultTimeout, ServiceName: "mm"}},
		{name: "exporter otlp alone: the default endpoint",
			env:  []string{"OTEL_TRACES_EXPORTER=otlp"},
			want: Config{Endpoint: defaultEndpoint, Timeout: defaultTimeout, ServiceName: "mm"}},
		{name: "exporter none wins over an endpoint",
			env: []string{"OTEL_TRACES_EXPORTER=none", "OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318"}},
		{name: "SDK disabled wins over everything",
			env: []string{"OTEL_SDK_DISABLED=true", "OTEL_TRACES_EXPORTER=otlp", "OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318"}},
		{name: "SDK disabled false is no word",
			env:  []string{"OTEL_SDK_DISABLED=false", "OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "mm"}},
		{name: "headers, percent-decoded, the traces' over the base ones",
			env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318",
				"OTEL_EXPORTER_OTLP_HEADERS=Authorization=Basic%20eDp5, X-Team = core",
				"OTEL_EXPORTER_OTLP_TRACES_HEADERS=X-Team=agents"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "mm",
				Headers: map[string]string{"Authorization": "Basic eDp5", "X-Team": "agents"}}},
		{name: "timeout in milliseconds, the traces' first",
			env:  []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_TIMEOUT=5000", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=250"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: 250 * time.Millisecond, ServiceName: "mm"}},
		{name: "service name: OTEL_SERVICE_NAME over the resource's",
			env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_RESOURCE_ATTRIBUTES=service.name=team,deployment.environment=ci",
				"OTEL_SERVICE_NAME=reviewer"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "reviewer",
				Resource: map[string]string{"deployment.environment": "ci"}}},
		{name: "resource's service name",
			env:  []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_RESOURCE_ATTRIBUTES=service.name=team"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "team", Resource: map[string]string{}}},
		{name: "protocol http/json and http/protobuf are both taken",
			env:  []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json"},
			want: Config{Endpoint: "http://a:4318/v1/traces", Timeout: defaultTimeout, ServiceName: "mm"}},

		{name: "unknown exporter", env: []string{"OTEL_TRACES_EXPORTER=zipkin"},
			wantErr: "OTEL_TRACES_EXPORTER=zipkin is not one mm has: set it to otlp or none"},
		{name: "grpc", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4317", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc"},
			wantErr: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not one mm has: mm sends OTLP over HTTP (http/json); point the endpoint at an OTLP/HTTP receiver (port 4318)"},
		{name: "endpoint without scheme", env: []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=collector:4318"},
			wantErr: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=collector:4318 is not an http:// or https:// URL: set it to e.g. http://localhost:4318"},
		{name: "timeout not a number", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_TIMEOUT=10s"},
			wantErr: "OTEL_EXPORTER_OTLP_TIMEOUT=10s is not a number of milliseconds: set it to e.g. 10000"},
		{name: "timeout past the bound", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_TIMEOUT=9223372036854775807"},
			wantErr: "OTEL_EXPORTER_OTLP_TIMEOUT=9223372036854775807 is longer than mm waits for an export (600000 ms, 10m0s): set it to e.g. 10000"},
		{name: "header without =", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_HEADERS=token"},
			wantErr: `OTEL_EXPORTER_OTLP_HEADERS: "token" is not key=value: write the list as key1=value1,key2=value2`},
		{name: "header badly encoded", env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://a:4318", "OTEL_EXPORTER_OTLP_HEADERS=k=%zz"},
			wantErr: `OTEL_EXPORTER_OTLP_HEADERS: the value of k is not percent-encoded text: invalid URL escape "%zz"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseEnv(tc.env)
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			if errText != tc.wantErr {
				t.Fatalf("error %q, want %q", errText, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if got.On() != (tc.want.Endpoint != "") {
				t.Errorf("On() = %v", got.On())
			}
		})
	}
}
