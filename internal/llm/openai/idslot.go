package openai

import (
	"context"
	"errors"
	"hash/fnv"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Place is where a model's agent stands in a chain of hand-offs. On a
// server whose slots keep a prompt cache each (llama.cpp's llama-server,
// which says how many in GET /props), each agent of a chain takes a slot
// of its own, named in each request (id_slot), so that an asked agent
// does not evict the prompt its asker will send again once it answers
// (docs/explanation/decisions/models.md, "A hand-off and the server's
// cache").
type Place struct {
	// Asked names the asked agents from the first one down to this one,
	// as MM_ASK_CHAIN lists them; empty for the agent a person started.
	Asked []string
	// Asks says the agent may ask others.
	Asks bool
}

// inChain says the agent takes part in hand-offs: an agent that neither
// asks nor was asked leaves the choice of slot to the server, which
// spreads unrelated sessions over its slots better than one fixed slot.
func (p Place) inChain() bool { return p.Asks || len(p.Asked) > 0 }

// slotFor is the slot, of a server's n, of the agent at the end of asked
// (the agent a person started, for an empty asked, takes slot 0). Each
// agent keeps clear of the slots of its n-1 nearest askers, who wait for
// its answer with their prompts cached; of the slots left it takes one by
// a hash of its chain of names, so that two agents asked by one asker
// (at once, or one after the other and each kept for the session) take
// different slots when there are enough, and each agent the same slot at
// every hand-off. With two slots the chain alternates 0, 1, 0, …; past n
// agents deep, an agent takes the slot of its farthest asker it can see,
// whose prompt is needed last.
func slotFor(asked []string, n int) int {
	if n < 2 {
		return 0
	}
	slots := []int{0}
	for depth := 1; depth <= len(asked); depth++ {
		near := slots[max(0, len(slots)-(n-1)):]
		free := make([]int, 0, n)
		for s := range n {
			if !slices.Contains(near, s) {
				free = append(free, s)
			}
		}
		h := fnv.New32a()
		h.Write([]byte(strings.Join(asked[:depth], "/")))
		slots = append(slots, free[int(h.Sum32()%uint32(len(free)))])
	}
	return slots[len(slots)-1]
}

// llamaCppProps is what mm reads of llama.cpp's GET /props: the window of
// one slot and how many slots the server runs (its --parallel).
type llamaCppProps struct {
	Default struct {
		NCtx int `json:"n_ctx"`
	} `json:"default_generation_settings"`
	TotalSlots int `json:"total_slots"`
}

// propsCache keeps the server's answer to GET /props for the model's
// life: the window and the slots do not change while a server runs.
type propsCache struct {
	mu    sync.Mutex
	done  bool
	props llamaCppProps
	err   error
}

// llamaProps asks GET /props once: its answer, or its refusal (a server
// of another kind), is kept; a server not listening yet, or a caller that
// gave up, is asked again next time.
func (m *openAIModel) llamaProps(ctx context.Context) (llamaCppProps, error) {
	c := &m.props
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.props, c.err
	}
	var p llamaCppProps
	err := m.probe(ctx, http.MethodGet, "/props", nil, &p)
	if err != nil && (ctx.Err() != nil || errors.Is(err, syscall.ECONNREFUSED)) {
		return llamaCppProps{}, err
	}
	if err == nil {
		p.TotalSlots = m.inRange("GET /props", "total_slots", p.TotalSlots, maxSlots,
			"mm leaves each request's slot to the server; check its --parallel")
		p.Default.NCtx = m.inRange("GET /props", "default_generation_settings.n_ctx", p.Default.NCtx, maxWindow, windowThen)
	}
	c.done, c.props, c.err = true, p, err
	return p, err
}

// idSlot is the slot the model's requests name, nil to leave it to the
// server: a server of a kind without slots, one with a single slot (where
// naming it changes nothing), or an agent outside any chain of hand-offs.
func (m *openAIModel) idSlot(ctx context.Context) *int {
	if !m.place.inChain() {
		return nil
	}
	switch m.kind(ctx) {
	case kindOllama, kindLMStudio, kindOpenAI:
		return nil
	}
	p, err := m.llamaProps(ctx)
	if err != nil || p.TotalSlots < 2 {
		return nil
	}
	s := slotFor(m.place.Asked, p.TotalSlots)
	return &s
}
