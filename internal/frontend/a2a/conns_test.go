package a2a

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// cardRequest is a GET of the card on a connection kept alive.
func cardRequest(addr string) string {
	return "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
}

// getCard asks for the card on conn and reads the answer's status.
func getCard(t *testing.T, conn net.Conn, r *bufio.Reader, addr string) string {
	t.Helper()
	if _, err := io.WriteString(conn, cardRequest(addr)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.Status
}

// TestIdleConnectionsClosed: a kept-alive connection that asks nothing
// more is closed at the idle timeout (the header timeout does not cover
// the time between requests).
func TestIdleConnectionsClosed(t *testing.T) {
	url, _, _ := serve(t, Options{IdleTimeout: 100 * time.Millisecond})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	if st := getCard(t, conn, r, addr); st != "200 OK" {
		t.Fatalf("the card: %s", st)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("an idle connection read %v, want it closed by the server (EOF)", err)
	}
}

// TestConnectionCap: beyond MaxConns open connections, one more is
// answered 503 with one line and closed; a place freed is taken again.
func TestConnectionCap(t *testing.T) {
	url, _, _ := serve(t, Options{MaxConns: 3})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	var held []net.Conn
	for range 3 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if st := getCard(t, conn, bufio.NewReader(conn), addr); st != "200 OK" {
			t.Fatalf("connection %d: %s", len(held)+1, st)
		}
		held = append(held, conn)
	}
	resp, err := http.Get(url + ".well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "mm serve holds as many connections as it may: try again in a moment\n"; resp.StatusCode != 503 || string(b) != want {
		t.Errorf("over the cap: %s %q, want 503 %q", resp.Status, b, want)
	}
	held[0].Close()
	mustend.WaitFor(t, "a freed place taken", func() bool {
		resp, err := http.Get(url + ".well-known/agent-card.json")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

// TestStalledStreamFreesItsConnection: a stream whose reader stopped
// reading is cut at the write timeout, and its connection given back: with
// one connection allowed, the next client is answered once it is cut.
func TestStalledStreamFreesItsConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a stalled reader's socket buffers, seconds: the full lane runs it")
	}
	url, _, _ := serveOn(t, listenSmallBuffers(t), Options{MaxConns: 1, WriteTimeout: 200 * time.Millisecond})
	conn := startFlood(t, url)
	mustend.WaitFor(t, "the stalled stream's connection given back", func() bool {
		resp, err := http.Get(url + ".well-known/agent-card.json")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	// What the server wrote before it cut the stream is there; then the
	// end of the connection.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, conn); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		var ne net.Error
		if !errors.As(err, &ne) {
			t.Errorf("reading the cut stream: %v", err)
		}
	}
}

// stallBuffer is the socket buffer, each way, of a stream whose reader
// stops reading. The kernel's own grow with the traffic (to 4 MiB and more
// on loopback): the flood could fit in them nearly whole, and its writer
// stall only at its end, after seconds of work on a loaded machine, if at
// all.
const stallBuffer = 64 << 10

// smallBuffers hands out connections whose send buffer is stallBuffer.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		if err := tc.SetWriteBuffer(stallBuffer); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, err
}

// listenSmallBuffers is a loopback listener of smallBuffers.
func listenSmallBuffers(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return smallBuffers{ln}
}

// startFlood asks the server at url for the flood, on a connection whose
// receive buffer is stallBuffer, and reads nothing of it.
func startFlood(t *testing.T, url string) net.Conn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.(*net.TCPConn).SetReadBuffer(stallBuffer); err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"flood"}]}}}`
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
	return conn
}

// TestDeadlineEndsWithTheRequest: the write deadline of a request's last
// write is lifted when it ends, so that the next request on the connection
// kept alive, after longer than the timeout, is answered.
func TestDeadlineEndsWithTheRequest(t *testing.T) {
	url, _, _ := serve(t, Options{WriteTimeout: 50 * time.Millisecond})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(rpcBody), rpcBody)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	time.Sleep(150 * time.Millisecond) // past the deadline of the last write
	if st := getCard(t, conn, r, addr); st != "200 OK" {
		t.Errorf("the next request on the connection: %s", st)
	}
}

// TestRefusedAfterTheRequest: a connection over the cap is answered once
// its request has come, never before (a client would drop an answer to
// nothing as unsolicited).
func TestRefusedAfterTheRequest(t *testing.T) {
	url, _, _ := serve(t, Options{MaxConns: 1})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	held, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if st := getCard(t, held, bufio.NewReader(held), addr); st != "200 OK" {
		t.Fatalf("the first connection: %s", st)
	}
	over, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer over.Close()
	_ = over.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := over.Read(make([]byte, 1)); n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the refused connection was answered before its request: %d bytes, %v", n, err)
	}
	_ = over.SetReadDeadline(time.Time{})
	if st := getCard(t, over, bufio.NewReader(over), addr); st != "503 Service Unavailable" {
		t.Errorf("over the cap, after the request: %s, want 503 Service Unavailable", st)
	}
}
