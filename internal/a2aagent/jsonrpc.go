package a2aagent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/tracing"
)

// MaxEvent bounds one JSON-RPC response or server-sent event read from an
// agent: 10 MiB, the limit of one message between mm and an asked agent
// over ACP, so that an answer that can cross one hand-off can cross the
// other, and an endless line cannot fill the memory.
const MaxEvent = 10 << 20

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

// rpcError is a JSON-RPC error object, as A2A servers send them.
type rpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// text is the error's message, with the detail a2a-go and the JS SDK put
// in data when the message is a generic one, and its code: on one line,
// its runs of blanks one space, cut at bodyQuoteBytes characters, since
// the server wrote it (a newline in it forged a second line).
func (e *rpcError) text() string {
	msg := e.Message
	for _, k := range []string{"error", "details"} {
		if d, ok := e.Data[k].(string); ok && d != "" && d != msg {
			msg += ": " + d
			break
		}
	}
	msg = textcut.Ellipsis(strings.Join(strings.Fields(msg), " "), bodyQuoteBytes)
	return fmt.Sprintf("%s (A2A error %d)", msg, e.Code)
}

// post sends one JSON-RPC request and returns the response, whose body the
// caller closes; accept is the media type wanted back.
func (a *Agent) post(ctx context.Context, method string, params any, accept string) (*http.Response, error) {
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: a.requests.Add(1), Method: method, Params: params})
	if err != nil {
		return nil, a.errorf("encode %s: %v", method, err)
	}
	a.mu.Lock()
	endpoint := a.endpoint
	a.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, a.errorf("%s: %v", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	tracing.Inject(ctx, req.Header) // the hand-off's span, for a traced agent to continue
	req.Header.Set("Accept", accept)
	a.authorize(req)
	resp, err := a.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, a.transportError(err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, a.statusError(method, resp)
	}
	return resp, nil
}

// call sends a JSON-RPC request that is answered with one response, and
// decodes its result into out.
func (a *Agent) call(ctx context.Context, method string, params, out any) error {
	resp, err := a.post(ctx, method, params, "application/json")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxEvent+1))
	switch {
	case err != nil:
		return a.readError(ctx, method, err)
	case len(b) > MaxEvent:
		return a.errorf("the answer to %s is over %d MiB, the limit of one message", method, MaxEvent>>20)
	}
	return a.result(method, b, out)
}

// result decodes one JSON-RPC response into out, or its error.
func (a *Agent) result(method string, b []byte, out any) error {
	var r rpcResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return a.errorf("%s: the answer is not JSON-RPC (%v): %s", method, err, quote(b))
	}
	if r.Error != nil {
		return a.errorf("%s: %s", method, r.Error.text())
	}
	if len(r.Result) == 0 || string(r.Result) == "null" {
		return a.errorf("%s: the answer has neither a result nor an error: %s", method, quote(b))
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		return a.errorf("%s: its result cannot be read (%v): %s", method, err, quote(r.Result))
	}
	return nil
}

// readError is a reply cut while it was read.
func (a *Agent) readError(ctx context.Context, method string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return a.errorf("%s: the answer was cut while read: %v", method, err)
}

// eventResult decodes the result of one event of message/stream, or of
// message/send's response.
type eventResult struct{ ev a2a.Event }

func (e *eventResult) UnmarshalJSON(b []byte) error {
	ev, err := a2a.UnmarshalEventJSON(b)
	e.ev = ev
	return err
}

// send asks with message/send: one response, the task or a message.
func (a *Agent) send(ctx context.Context, params *a2a.MessageSendParams, t *task) error {
	var r eventResult
	if err := a.call(ctx, "message/send", params, &r); err != nil {
		return err
	}
	t.apply(r.ev)
	return nil
}

// stream asks with message/stream and applies each event as it arrives,
// until the task ends or the stream does.
func (a *Agent) stream(ctx context.Context, params *a2a.MessageSendParams, t *task) error {
	resp, err := a.post(ctx, "message/stream", params, "text/event-stream")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		// A server may answer a request it refuses with one JSON-RPC
		// error rather than a stream.
		var r eventResult
		b, err := io.ReadAll(io.LimitReader(resp.Body, MaxEvent+1))
		if err != nil {
			return a.readError(ctx, "message/stream", err)
		}
		if err := a.result("message/stream", b, &r); err != nil {
			return err
		}
		t.apply(r.ev)
		return nil
	}
	events := newEventReader(resp.Body)
	for !t.ended() {
		data, err := events.next()
		if errors.Is(err, io.EOF) {
			return a.errorf("the stream ended before the task did (its last state: %s)", t.lastState())
		}
		if err != nil {
			if errors.Is(err, errEventTooLong) {
				return a.errorf("message/stream: an event is over %d MiB, the limit of one message", MaxEvent>>20)
			}
			return a.readError(ctx, "message/stream", err)
		}
		var r eventResult
		if err := a.result("message/stream", data, &r); err != nil {
			return err
		}
		t.apply(r.ev)
	}
	return nil
}

// errEventTooLong is an event over MaxEvent.
var errEventTooLong = errors.New("event too long")

// eventReader reads the data of server-sent events (the lines "data: …"
// up to a blank line), each up to MaxEvent.
type eventReader struct{ r *bufio.Reader }

func newEventReader(r io.Reader) *eventReader { return &eventReader{r: bufio.NewReaderSize(r, 64<<10)} }

// next is the data of the next event; io.EOF at the stream's end.
func (e *eventReader) next() ([]byte, error) {
	var data []byte
	for {
		line, err := e.line(MaxEvent - len(data))
		if err != nil {
			if errors.Is(err, io.EOF) && len(data) > 0 {
				return data, nil
			}
			return nil, err
		}
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				return data, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
		// Comments (": keep-alive"), id:, event: and retry: lines say
		// nothing mm needs.
	}
}

// line is one line without its end, of at most max bytes.
func (e *eventReader) line(max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := e.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max+2 {
			return nil, errEventTooLong
		}
		if err == nil {
			return bytes.TrimRight(line, "\r\n"), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) && len(line) > 0 {
				return bytes.TrimRight(line, "\r\n"), nil
			}
			return nil, err
		}
	}
}
