package tracing

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// defaultEndpoint is where OTLP/HTTP traces go when OTEL_TRACES_EXPORTER
// asks for otlp and no endpoint is given (the OTel specification's default).
const defaultEndpoint = "http://localhost:4318/v1/traces"

// defaultTimeout bounds one export request (OTEL_EXPORTER_OTLP_TIMEOUT's
// default in the specification).
const defaultTimeout = 10 * time.Second

// maxTimeout bounds OTEL_EXPORTER_OTLP_TIMEOUT: the last spans are sent as
// mm exits, so a collector that does not answer holds the exit for this
// long, and ten minutes is already more than anyone waits for a prompt to
// come back. Past it the variable is refused, not cut: milliseconds near
// 2^63 overflow a time.Duration into a negative timeout.
const maxTimeout = 10 * time.Minute

// Config is what the OTEL_* variables ask of mm's tracing.
type Config struct {
	// Endpoint is the full URL spans are posted to; "" when tracing is off.
	Endpoint string
	// Headers are sent with every export request.
	Headers map[string]string
	// Timeout bounds one export request.
	Timeout time.Duration
	// ServiceName is the resource's service.name.
	ServiceName string
	// Resource are OTEL_RESOURCE_ATTRIBUTES' pairs.
	Resource map[string]string
}

// On reports whether spans are to be exported.
func (c Config) On() bool { return c.Endpoint != "" }

// ParseEnv reads the OTEL_* variables of environ (as os.Environ gives
// them). Tracing is on when OTEL_TRACES_EXPORTER is otlp, or when it is
// unset and an OTLP endpoint variable is set; OTEL_SDK_DISABLED=true and
// OTEL_TRACES_EXPORTER=none turn it off. An error names the variable and
// what it accepts; the Config returned with it is off.
func ParseEnv(environ []string) (Config, error) {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "OTEL_") {
			env[k] = strings.TrimSpace(v)
		}
	}
	if strings.EqualFold(env["OTEL_SDK_DISABLED"], "true") {
		return Config{}, nil
	}
	tracesURL, baseURL := env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], env["OTEL_EXPORTER_OTLP_ENDPOINT"]
	switch exp := strings.ToLower(env["OTEL_TRACES_EXPORTER"]); exp {
	case "":
		if tracesURL == "" && baseURL == "" {
			return Config{}, nil
		}
	case "otlp":
	case "none":
		return Config{}, nil
	default:
		return Config{}, fmt.Errorf("OTEL_TRACES_EXPORTER=%s is not one mm has: set it to otlp or none", env["OTEL_TRACES_EXPORTER"])
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p, ok := env[k]; ok && p != "" {
			// http/protobuf is the specification's default, and every
			// OTLP/HTTP receiver reads JSON at the same path too.
			if p != "http/json" && p != "http/protobuf" {
				return Config{}, fmt.Errorf("%s=%s is not one mm has: mm sends OTLP over HTTP (http/json); point the endpoint at an OTLP/HTTP receiver (port 4318)", k, p)
			}
			break
		}
	}
	c := Config{Endpoint: defaultEndpoint, Timeout: defaultTimeout, ServiceName: "mm"}
	var err error
	switch {
	case tracesURL != "":
		// The signal's own variable is used as it is.
		c.Endpoint, err = checkURL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tracesURL)
	case baseURL != "":
		// The base one gets the signal's path.
		if _, err = checkURL("OTEL_EXPORTER_OTLP_ENDPOINT", baseURL); err == nil {
			c.Endpoint = strings.TrimRight(baseURL, "/") + "/v1/traces"
		}
	}
	if err != nil {
		return Config{}, err
	}
	if c.Headers, err = headers(env); err != nil {
		return Config{}, err
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"} {
		if v, ok := env[k]; ok && v != "" {
			ms, err := strconv.Atoi(v)
			if err != nil || ms <= 0 {
				return Config{}, fmt.Errorf("%s=%s is not a number of milliseconds: set it to e.g. 10000", k, v)
			}
			if ms > int(maxTimeout/time.Millisecond) {
				return Config{}, fmt.Errorf("%s=%s is longer than mm waits for an export (%d ms, %v): set it to e.g. 10000", k, v, maxTimeout/time.Millisecond, maxTimeout)
			}
			c.Timeout = time.Duration(ms) * time.Millisecond
			break
		}
	}
	if c.Resource, err = pairs("OTEL_RESOURCE_ATTRIBUTES", env["OTEL_RESOURCE_ATTRIBUTES"]); err != nil {
		return Config{}, err
	}
	if n := c.Resource["service.name"]; n != "" {
		c.ServiceName = n
	}
	if n := env["OTEL_SERVICE_NAME"]; n != "" {
		c.ServiceName = n
	}
	delete(c.Resource, "service.name")
	return c, nil
}

// checkURL checks that an endpoint variable holds an http or https URL.
func checkURL(key, v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s=%s is not an http:// or https:// URL: set it to e.g. http://localhost:4318", key, v)
	}
	return v, nil
}

// headers merges OTEL_EXPORTER_OTLP_HEADERS and, over it, the traces' own.
func headers(env map[string]string) (map[string]string, error) {
	h, err := pairs("OTEL_EXPORTER_OTLP_HEADERS", env["OTEL_EXPORTER_OTLP_HEADERS"])
	if err != nil {
		return nil, err
	}
	t, err := pairs("OTEL_EXPORTER_OTLP_TRACES_HEADERS", env["OTEL_EXPORTER_OTLP_TRACES_HEADERS"])
	if err != nil {
		return nil, err
	}
	for k, v := range t {
		if h == nil {
			h = map[string]string{}
		}
		h[k] = v
	}
	return h, nil
}

// pairs reads the specification's "key1=value1,key2=value2" list, values
// percent-encoded.
func pairs(key, v string) (map[string]string, error) {
	if v == "" {
		return nil, nil
	}
	out := map[string]string{}
	for _, item := range strings.Split(v, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, val, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s: %q is not key=value: write the list as key1=value1,key2=value2", key, item)
		}
		dec, err := url.PathUnescape(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("%s: the value of %s is not percent-encoded text: %v", key, k, err)
		}
		out[k] = dec
	}
	return out, nil
}
