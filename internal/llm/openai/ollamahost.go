package openai

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// ollamaHostEnv moves Ollama: the variable its server listens at and its
// own CLI connects to.
const ollamaHostEnv = "OLLAMA_HOST"

// ollamaBaseURL is the ollama provider's API root for the value of
// OLLAMA_HOST, read as Ollama's CLI reads it (its envconfig.Host): quotes
// and spaces trimmed; without a scheme, http; without a port, 11434 (80
// or 443 when the scheme is given); a path kept. An unspecified address
// (0.0.0.0, ::), which a server listens at to take every interface, is
// reached at the loopback one. "" gives the default, localhost:11434.
func ollamaBaseURL(v string) (string, error) {
	s := strings.Trim(strings.TrimSpace(v), "\"'")
	if s == "" {
		return "http://localhost:11434/v1", nil
	}
	port := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return "", fmt.Errorf("%s=%q: the scheme %q is neither http nor https; set it like 127.0.0.1:11434 or http://gpu.lan:11434", ollamaHostEnv, v, scheme)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	} else {
		port = p
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%s=%q: the port %q is not a number from 1 to 65535; set it like 127.0.0.1:11434", ollamaHostEnv, v, port)
	}
	switch ip := net.ParseIP(host); {
	case host == "":
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	root := scheme + "://" + net.JoinHostPort(host, port)
	if path = strings.Trim(path, "/"); path != "" {
		root += "/" + path
	}
	return root + "/v1", nil
}
