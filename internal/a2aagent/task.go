package a2aagent

import (
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/mm-agent/mm/internal/a2aconn"
)

// task follows one question's task through the events the agent sends.
//
// The answer is the text of the task's artifacts, shown as each update
// arrives; an agent that writes no artifact answers with the message of
// its last status (or with a message instead of a task). The messages of
// intermediate "working" statuses are progress notes, not the answer.
type task struct {
	a      *Agent
	onText func(string)

	id       a2a.TaskID
	state    a2a.TaskState
	status   *a2a.Message // the message of the latest status
	reply    *a2a.Message // a message sent instead of a task
	shown    bool         // some artifact text was shown
	artifact map[a2a.ArtifactID]bool
	done     bool
}

// apply takes one event into the task.
func (t *task) apply(ev a2a.Event) {
	switch e := ev.(type) {
	case *a2a.Message:
		t.learnContext(e.ContextID)
		t.reply, t.done = e, true
		t.show(a2aconn.Text(e.Parts))
	case *a2a.Task:
		t.learnContext(e.ContextID)
		t.id = e.ID
		for _, art := range e.Artifacts {
			t.showArtifact(art)
		}
		t.setStatus(e.Status, e.Status.State.Terminal())
	case *a2a.TaskStatusUpdateEvent:
		t.learnContext(e.ContextID)
		t.id = e.TaskID
		t.setStatus(e.Status, e.Final || e.Status.State.Terminal())
	case *a2a.TaskArtifactUpdateEvent:
		t.learnContext(e.ContextID)
		t.id = e.TaskID
		if e.Artifact != nil {
			t.showArtifact(e.Artifact)
		}
	}
}

func (t *task) setStatus(st a2a.TaskStatus, final bool) {
	t.state, t.status = st.State, st.Message
	switch st.State {
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		// The agent waits for what a hand-off cannot give.
		final = true
	}
	if final {
		t.done = true
	}
}

func (t *task) showArtifact(art *a2a.Artifact) {
	if t.artifact == nil {
		t.artifact = map[a2a.ArtifactID]bool{}
	}
	text := a2aconn.Text(art.Parts)
	if text == "" {
		return
	}
	if len(t.artifact) > 0 && !t.artifact[art.ID] {
		// Another artifact starts on a line of its own.
		text = "\n" + text
	}
	t.artifact[art.ID] = true
	t.show(text)
	t.shown = true
}

func (t *task) show(text string) {
	if text != "" && t.onText != nil {
		t.onText(text)
	}
}

// learnContext keeps the context the agent put the task in, so that the
// next question goes in it too.
func (t *task) learnContext(id string) {
	if id == "" {
		return
	}
	t.a.mu.Lock()
	t.a.contextID = id
	t.a.mu.Unlock()
}

func (t *task) ended() bool { return t.done }

func (t *task) lastState() string {
	if t.state == "" {
		return "none yet"
	}
	return string(t.state)
}

// outcome is nil for an answered question, else why it was not.
func (t *task) outcome() error {
	if t.reply != nil {
		return nil
	}
	note := ""
	if t.status != nil {
		if s := strings.Join(strings.Fields(a2aconn.Text(t.status.Parts)), " "); s != "" {
			note = ": " + s
		}
	}
	switch t.state {
	case a2a.TaskStateCompleted:
		if !t.shown && t.status != nil {
			t.show(a2aconn.Text(t.status.Parts))
		}
		return nil
	case a2a.TaskStateFailed:
		return t.a.errorf("the task failed%s", note)
	case a2a.TaskStateRejected:
		return t.a.errorf("the agent rejected the task%s", note)
	case a2a.TaskStateCanceled:
		return t.a.errorf("the agent cancelled the task%s", note)
	case a2a.TaskStateInputRequired:
		return t.a.errorf("the agent asks for more input (input-required), which a hand-off cannot give%s", note)
	case a2a.TaskStateAuthRequired:
		return t.a.errorf("the agent asks for authentication (auth-required), which a hand-off cannot give%s", note)
	}
	return t.a.errorf("the agent ended the exchange with its task still %s", t.lastState())
}
