package a2a

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
)

// taskStore keeps tasks in memory, at most max: past that, the oldest
// ended task is forgotten (a2a-go's own store keeps every task for ever).
// Tasks are stored as JSON, so that a caller never shares one with it.
type taskStore struct {
	max int

	mu    sync.Mutex
	tasks map[a2a.TaskID][]byte
	ended map[a2a.TaskID]bool
	order []a2a.TaskID // first saved first
}

func newTaskStore(max int) *taskStore {
	return &taskStore{max: max, tasks: map[a2a.TaskID][]byte{}, ended: map[a2a.TaskID]bool{}}
}

// Save stores task.
func (s *taskStore) Save(_ context.Context, task *a2a.Task) error {
	b, err := json.Marshal(task)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[task.ID]; !ok {
		s.order = append(s.order, task.ID)
	}
	s.tasks[task.ID] = b
	s.ended[task.ID] = task.Status.State.Terminal()
	if len(s.tasks) > s.max {
		s.forgetOldestEnded()
	}
	return nil
}

// forgetOldestEnded drops the oldest ended task; running ones are kept.
func (s *taskStore) forgetOldestEnded() {
	for i, id := range s.order {
		if s.ended[id] {
			delete(s.tasks, id)
			delete(s.ended, id)
			s.order = append(s.order[:i], s.order[i+1:]...)
			return
		}
	}
}

// Get is a copy of the task id, or a2a.ErrTaskNotFound.
func (s *taskStore) Get(_ context.Context, id a2a.TaskID) (*a2a.Task, error) {
	s.mu.Lock()
	b, ok := s.tasks[id]
	s.mu.Unlock()
	if !ok {
		return nil, a2a.ErrTaskNotFound
	}
	var t a2a.Task
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	return &t, nil
}
