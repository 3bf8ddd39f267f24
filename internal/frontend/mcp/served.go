package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/internal/frontend"
)

// servedLane is the lane of the served agent's own turns; the lane of a
// hand-off is its agent's name.
const servedLane = ""

// allLanes is the weight a turn of the served agent takes: all of them.
const allLanes = 1 << 20

// served is the mm session of one MCP session, and the calls under way
// in it. Each call holds a lane: what the session emits is the call's
// whose lane it comes from, the asked agent's name for a hand-off, the
// served agent's own for its turn. Calls to different agents run at once;
// two calls to one agent wait for each other, as two hand-offs to one
// agent do; a turn of the served agent runs alone, for its hand-offs'
// events name the agents it asks.
type served struct {
	srv *server
	ss  *sdk.ServerSession
	// turns is taken whole by a turn, one unit by each hand-off.
	turns *semaphore.Weighted

	// starting is held while the session starts: one start at a time.
	starting sync.Mutex

	mu     sync.Mutex
	sess   Session
	end    func() error // ends the saving of sess; nil when not saved
	closed bool
	agents map[string]*semaphore.Weighted // one hand-off at a time per agent
	lanes  map[string]*call               // the call holding each lane
}

func newServed(srv *server, ss *sdk.ServerSession) *served {
	return &served{srv: srv, ss: ss, turns: semaphore.NewWeighted(allLanes),
		agents: map[string]*semaphore.Weighted{}, lanes: map[string]*call{}}
}

// run answers call c with its lane held: a turn of the served agent, or
// a hand-off to the agent of c's lane.
func (sv *served) run(ctx context.Context, c *call, turn bool, in input) (string, error) {
	sess, err := sv.session()
	if err != nil {
		return "", err
	}
	// The call's progress is ready before it holds its lane: the session's
	// events for the lane are the call's from then on.
	c.start(!turn && sess.HoldsAskAnswer())
	defer c.finish()
	release, err := sv.take(ctx, c, turn)
	if err != nil {
		return "", err
	}
	defer release()
	if turn {
		if err := sess.Prompt(ctx, in.message()); err != nil {
			return "", err
		}
		return c.answerText(), nil
	}
	conversation := ""
	if in.Conversation != nil {
		conversation = *in.Conversation
	}
	return sess.AskForClient(ctx, c.lane, in.Question, conversation != "", conversation)
}

// take holds c's lane until release; an error when ctx ended first.
func (sv *served) take(ctx context.Context, c *call, turn bool) (release func(), err error) {
	weight := int64(1)
	if turn {
		weight = allLanes
	}
	if err := sv.turns.Acquire(ctx, weight); err != nil {
		return nil, cancelled(err)
	}
	var agent *semaphore.Weighted
	if !turn {
		sv.mu.Lock()
		agent = sv.agents[c.lane]
		if agent == nil {
			agent = semaphore.NewWeighted(1)
			sv.agents[c.lane] = agent
		}
		sv.mu.Unlock()
		if err := agent.Acquire(ctx, 1); err != nil {
			sv.turns.Release(weight)
			return nil, cancelled(err)
		}
	}
	sv.mu.Lock()
	sv.lanes[c.lane] = c
	sv.mu.Unlock()
	return func() {
		sv.mu.Lock()
		delete(sv.lanes, c.lane)
		sv.mu.Unlock()
		if agent != nil {
			agent.Release(1)
		}
		sv.turns.Release(weight)
	}, nil
}

// cancelled is a wait for a lane that ended with the call.
func cancelled(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("cancelled")
	}
	return err
}

// session is the mm session, started on the first call. It starts
// without sv.mu held: a session may emit while it starts, and its sink
// takes sv.mu.
func (sv *served) session() (Session, error) {
	sv.starting.Lock()
	defer sv.starting.Unlock()
	sv.mu.Lock()
	sess, closed := sv.sess, sv.closed
	sv.mu.Unlock()
	switch {
	case closed:
		return nil, errStopping
	case sess != nil:
		return sess, nil
	}
	srv := sv.srv
	o := srv.opts.Session
	o.Sink = &sink{sv: sv}
	var end func() error
	var err error
	if srv.opts.Store != nil {
		o.Recorder, end, err = srv.opts.Store.Open(o)
	}
	if err == nil {
		sess, err = srv.opts.NewSession(srv.ctx, o)
	}
	sv.mu.Lock()
	defer sv.mu.Unlock()
	sv.end = end
	if err != nil {
		sv.endSaving()
		srv.log.Printf("a session could not start: %v", err)
		return nil, fmt.Errorf("the session could not start: %s", frontend.ErrorText(err))
	}
	sv.sess = sess
	return sess, nil
}

// close closes the session once its calls have returned (the MCP SDK
// waits for them before an MCP session ends).
func (sv *served) close() {
	// A session still starting is closed once it has.
	sv.starting.Lock()
	defer sv.starting.Unlock()
	sv.mu.Lock()
	sv.closed = true
	sess := sv.sess
	sv.mu.Unlock()
	if sess != nil {
		if err := sess.Close(); err != nil {
			sv.srv.log.Printf("closing a session: %v", err)
		}
	}
	sv.mu.Lock()
	sv.endSaving()
	sv.mu.Unlock()
}

// endSaving closes the session's file, if it is saved; sv.mu is held.
func (sv *served) endSaving() {
	if sv.end == nil {
		return
	}
	if err := sv.end(); err != nil {
		sv.srv.log.Printf("saving a session: %v", err)
	}
	sv.end = nil
}

// holder is the call of lane, or nil.
func (sv *served) holder(lane string) *call {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.lanes[lane]
}

// call is one tool call under way: where its progress goes, and the
// answer gathered.
type call struct {
	ctx context.Context
	ss  *sdk.ServerSession
	// token is the client's progressToken; nil: it asked for no progress.
	token any
	lane  string
	// hold says the answer's text is not sent as it streams: postAsk
	// hooks decide what leaves.
	hold   bool
	gather *frontend.Gatherer

	mu     sync.Mutex
	answer strings.Builder // the served agent's answer (a turn)
	// chars is the progress so far: the answer's characters.
	chars int
}

// start opens the call's progress.
func (c *call) start(hold bool) {
	c.hold = hold
	c.gather = frontend.NewGatherer(c.notify)
}

// finish sends the progress still gathered.
func (c *call) finish() { c.gather.Close() }

// answerText is the served agent's answer, as it streamed.
func (c *call) answerText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answer.String()
}

// text takes a piece of the answer.
func (c *call) text(t string) {
	if c.lane == servedLane {
		c.mu.Lock()
		c.answer.WriteString(t)
		c.mu.Unlock()
	}
	if c.token != nil {
		c.gather.Add(t)
	}
}

// notify sends one progress notification: the characters so far, and the
// text gathered unless it is held back. A client that cannot read it any
// more is not waited for: the call goes on.
func (c *call) notify(text string) {
	c.chars += utf8.RuneCountInString(text)
	p := &sdk.ProgressNotificationParams{ProgressToken: c.token, Progress: float64(c.chars)}
	if !c.hold {
		p.Message = text
	}
	_ = c.ss.NotifyProgress(c.ctx, p)
}
