package httpdoor

import (
	"bytes"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// refusedWriteTimeout bounds the 503 written to a connection over the
// limit: a client that does not read it is not waited for.
const refusedWriteTimeout = time.Second

// refusedReadWait bounds the wait for a refused client's request: the
// answer comes after it, so that an HTTP client reads it as the answer to
// what it sent (Go's client drops a response that comes before its
// request as unsolicited, and reports the connection broken).
const refusedReadWait = 500 * time.Millisecond

// busyText is what a connection over the limit reads, as a whole HTTP
// response, before it is closed: a client can say why.
const busyText = "mm serve holds as many connections as it may: try again in a moment\n"

// CapListener hands at most max connections to the server at once; one
// more is answered 503 and closed. Unlike a listener that stops
// accepting, a client over the limit is told at once, and the backlog of
// the kernel does not fill.
type CapListener struct {
	net.Listener
	max int

	mu   sync.Mutex
	open int
	// refused counts the connections answered 503, for tests.
	refused int
}

// Listen hands at most max of ln's connections to the server at once.
func Listen(ln net.Listener, max int) *CapListener {
	return &CapListener{Listener: ln, max: max}
}

// Accept is net.Listener's: a connection over the cap is answered 503 and
// closed, and the next one waited for.
func (l *CapListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.open >= l.max {
			l.refused++
			l.mu.Unlock()
			go refuse(c)
			continue
		}
		l.open++
		l.mu.Unlock()
		return &countedConn{Conn: c, l: l}, nil
	}
}

// Counts is the connections open and refused so far.
func (l *CapListener) Counts() (open, refused int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open, l.refused
}

// refuse answers 503 and closes c, once the client has sent its request's
// head (or refusedReadWait has passed). What the client sent after it is
// read (for a moment) after the answer: closing on unread bytes would
// reset the connection, and the client would read the reset, not the
// answer.
func refuse(c net.Conn) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(refusedReadWait))
	readHead(c)
	_ = c.SetDeadline(time.Now().Add(refusedWriteTimeout))
	resp := "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nRetry-After: 1\r\n" +
		"Content-Length: " + strconv.Itoa(len(busyText)) + "\r\n\r\n" + busyText
	if _, err := c.Write([]byte(resp)); err != nil {
		return
	}
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
}

// readHead reads from c until the end of an HTTP request's head, the end
// of the stream, an error (the read deadline) or 64 KiB.
func readHead(c net.Conn) {
	var head []byte
	buf := make([]byte, 4096)
	for len(head) < 64<<10 {
		n, err := c.Read(buf)
		head = append(head, buf[:n]...)
		if bytes.Contains(head, []byte("\r\n\r\n")) || err != nil {
			return
		}
	}
}

// countedConn gives its place back when closed, once.
type countedConn struct {
	net.Conn
	l    *CapListener
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return err
}
