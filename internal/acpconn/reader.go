package acpconn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mm-agent/mm/internal/regularfile"
)

// MaxMessage is the longest JSON-RPC message, newline included, that mm
// reads from a peer: the SDK's own line limit (10 MiB). Reader checks it
// first, so that an over-long message is refused with a JSON-RPC error
// instead of closing the connection.
const MaxMessage = 10 << 20

// idPrefix is how much of an over-long message is kept to find its id: an
// id comes before the params in every encoder we know of.
const idPrefix = 64 << 10

// Notify handles one notification from the peer, in the order they were
// sent, on the goroutine that reads the connection. It may block: the
// reading waits, the peer's writes wait behind it, and nothing is lost.
type Notify func(method string, params json.RawMessage)

// Refused is told of a message Reader did not pass on.
type Refused func(err error)

// Reader reads a peer's line-delimited JSON-RPC messages for an SDK
// connection. Notifications go to a Notify func instead of the SDK, whose
// bounded queue of notifications closes the connection when a handler
// is slower than the peer; requests and responses pass through to the SDK.
// Because a response passes only after every notification before it has
// been handed to Notify, the order the peer sent them in is kept.
//
// A message over MaxMessage is not passed on: a request gets a JSON-RPC
// error on out, saying so, and the connection goes on.
type Reader struct {
	br      *bufio.Reader
	out     *Writer
	notify  Notify
	refused Refused
	notJSON func(line []byte)
	rest    []byte // what of a message the SDK's buffer has not taken yet
	err     error
}

// NewReader reads from r. out is the connection's writer, for the errors
// it answers itself; refused may be nil.
func NewReader(r io.Reader, out *Writer, notify Notify, refused Refused) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), out: out, notify: notify, refused: refused}
}

// OnNotJSON makes Reader tell f of each line that is not JSON (blank lines
// aside), as it passes it on to the SDK, which logs and skips it: a peer
// that prints a banner on stdout does not speak JSON-RPC. Call it before
// the first Read.
func (r *Reader) OnNotJSON(f func(line []byte)) { r.notJSON = f }

// Read gives the SDK the next request or response, a line at a time.
func (r *Reader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		line, err := r.line()
		r.err = err
		if len(line) > 0 && r.pass(line) {
			r.rest = line
		}
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// envelope is a message as the SDK decodes it (its anyMessage): a line
// that does not decode as one is skipped by the SDK, and so never
// answered; one that does and has an id and a method is a request it
// answers.
type envelope struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id"`
	Method  string           `json:"method"`
	Params  json.RawMessage  `json:"params"`
	Result  json.RawMessage  `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	} `json:"error"`
}

// pass reports whether the SDK should read line; a notification is
// handed to notify instead. A request passed on is counted on r.out, which
// counts its answer (Writer.Answered).
func (r *Reader) pass(line []byte) bool {
	var env envelope
	if json.Unmarshal(line, &env) != nil {
		if r.notJSON != nil && len(bytes.TrimSpace(line)) > 0 {
			r.notJSON(line)
		}
		return true // the SDK reports what it cannot parse
	}
	switch {
	case env.ID != nil && env.Method != "":
		r.out.asked()
		return true
	case env.ID != nil || env.Method == "" || env.Method == "$/cancel_request":
		// A response, or $/cancel_request: the SDK's own, which it takes
		// at once.
		return true
	}
	r.notify(env.Method, env.Params)
	return false
}

// line reads one message, newline included. An over-long one is read to
// its end, refused, and not returned.
func (r *Reader) line() ([]byte, error) {
	var buf []byte
	size := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		size += len(chunk)
		if size <= MaxMessage {
			buf = append(buf, chunk...)
		} else if len(buf) < idPrefix {
			buf = append(buf, chunk[:min(len(chunk), idPrefix-len(buf))]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case size > MaxMessage:
			r.refuse(buf, size)
			if err != nil {
				return nil, err
			}
			return nil, nil
		default:
			return buf, err
		}
	}
}

// refuse answers an over-long request with an error, and tells refused.
func (r *Reader) refuse(prefix []byte, size int) {
	err := fmt.Errorf("message of %d bytes refused: over the limit of %d bytes (%s) for one message", size, MaxMessage, regularfile.FormatSize(MaxMessage))
	if r.refused != nil {
		r.refused(err)
	}
	id, ok := requestID(prefix)
	if !ok {
		return // a notification, or no id to be found: nobody to answer
	}
	resp, mErr := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{Code: codeInvalidRequest, Message: err.Error()}})
	if mErr == nil {
		r.out.asked() // answered here, by the write below
		_, _ = r.out.Write(append(resp, '\n'))
	}
}

// codeInvalidRequest is JSON-RPC's "Invalid Request".
const codeInvalidRequest = -32600

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// requestID finds the id of a request in the start of a message: the value
// of a top-level "id" key that comes before anything too long to decode.
func requestID(prefix []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if t == "id" {
			return v, string(v) != "null"
		}
	}
	return nil, false
}

// Writer is a connection's output, shared by the SDK and Reader: each
// writes a whole message with one Write call, which Writer keeps whole.
// It counts the responses it writes, against the requests its Reader
// passed on (Answered).
type Writer struct {
	mu sync.Mutex
	w  io.Writer
	// requests are those its Reader passed on or refused, responses
	// those written; answered is closed when they meet, once asked for.
	requests, responses int
	answered            chan struct{}
}

// NewWriter writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Write(p []byte) (int, error) {
	response := isResponse(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if response {
		w.responses++
		w.settle()
	}
	return n, err
}

// asked counts a request the Reader passed on, to be answered.
func (w *Writer) asked() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests++
}

// Answered is closed once every request the Reader has passed on has had
// its response written (a write that failed counts: nobody reads it). An
// agent whose input has ended waits on it, so that it answers what it had
// read before it exits.
func (w *Writer) Answered() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.answered == nil {
		w.answered = make(chan struct{})
		w.settle()
	}
	return w.answered
}

// settle closes answered when every request has its response; w.mu held.
func (w *Writer) settle() {
	if w.answered != nil && w.responses >= w.requests {
		select {
		case <-w.answered:
		default:
			close(w.answered)
		}
	}
}

// isResponse reports whether p, one message, is a response: an object
// with an id and a result or an error, and no method. Only its first keys
// are read (the SDK writes jsonrpc, id, then method or result or error),
// never the params or the result.
func isResponse(p []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(p))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	id := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case "method":
			return false
		case "result", "error":
			return id
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		if t == "id" {
			id = string(v) != "null"
		}
	}
	return false
}
