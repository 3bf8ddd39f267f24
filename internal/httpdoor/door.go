package httpdoor

import (
	"mime"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Door is what a request must be for mm serve to read it at all, whatever
// its token: addressed to the address served, from no web page the person
// did not name, and JSON. A web page can send a text/plain POST to
// 127.0.0.1 without asking (no CORS preflight), and read the answer after
// DNS rebinding points its own name there: the Host names it, its Origin
// says so, and its body is not application/json.
type Door struct {
	// hosts are the names a request's Host may give; nil: any (a wildcard
	// address serves whatever name reaches it, and the token guards it).
	hosts []string
	// port is the port served: a Host with another one is refused.
	port string
	// origins are the web origins allowed to call (--allow-origin).
	origins []string
	cors    CORS
}

// CORS is what an allowed web page may send and read, as a preflight's
// answer says: the protocol's methods and headers.
type CORS struct {
	// Methods and Headers are the methods and request headers an allowed
	// origin's page may use.
	Methods, Headers []string
	// Expose are the answer's headers its script may read.
	Expose []string
}

// NewDoor is the door of the address served; named is the host the person
// gave to serve on ("localhost", "myhost.lan"), which a Host may name too;
// origins are the web origins whose pages may call, cors what they may
// send.
func NewDoor(addr net.Addr, named string, origins []string, cors CORS) *Door {
	d := &Door{origins: origins, cors: cors}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return d
	}
	d.port = port
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		d.hosts = []string{host}
	case ip.IsUnspecified():
		return d
	case ip.IsLoopback():
		d.hosts = []string{ip.String(), "localhost", "127.0.0.1", "::1"}
	default:
		d.hosts = []string{ip.String()}
	}
	if named != "" && !slices.Contains(d.hosts, named) {
		d.hosts = append(d.hosts, strings.Trim(named, "[]"))
	}
	return d
}

// Wrap is next behind the door.
func (d *Door) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !d.Check(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

// Check refuses r, with a status and one line, when it is not for mm
// serve; it answers the preflight (OPTIONS) of an allowed origin. done
// says r was answered.
func (d *Door) Check(w http.ResponseWriter, r *http.Request) (done bool) {
	if why := d.HostRefused(r.Host); why != "" {
		http.Error(w, why, http.StatusMisdirectedRequest)
		return true
	}
	if o := r.Header.Get("Origin"); o != "" || len(r.Header.Values("Origin")) > 0 {
		if !slices.Contains(d.origins, o) {
			http.Error(w, "mm serve answers no web page: the request's Origin "+strconv.Quote(o)+" is not one --allow-origin names", http.StatusForbidden)
			return true
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", o)
		h.Add("Vary", "Origin")
		if len(d.cors.Expose) > 0 {
			h.Set("Access-Control-Expose-Headers", strings.Join(d.cors.Expose, ", "))
		}
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", strings.Join(d.cors.Methods, ", "))
			h.Set("Access-Control-Allow-Headers", strings.Join(d.cors.Headers, ", "))
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return true
		}
	}
	if r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			http.Error(w, "mm serve reads JSON-RPC: send the request with Content-Type: application/json", http.StatusUnsupportedMediaType)
			return true
		}
	}
	return false
}

// HostRefused is why a request's Host is not the address served, or "".
func (d *Door) HostRefused(hostport string) string {
	if d.hosts == nil {
		return ""
	}
	host, port := hostport, ""
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	}
	host = strings.Trim(host, "[]")
	if (port == "" && d.port == "80") || port == d.port {
		for _, h := range d.hosts {
			if strings.EqualFold(h, host) {
				return ""
			}
		}
	}
	return "mm serve answers requests for " + net.JoinHostPort(d.hosts[0], d.port) + ", not for the Host " + strconv.Quote(hostport)
}
