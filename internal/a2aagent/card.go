package a2aagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/mm-agent/mm/internal/textcut"
)

// maxCard bounds an agent card: a card lists an agent's skills and
// interfaces in a few KiB; 1 MiB is room for any honest one and keeps a
// wrong URL from filling the memory.
const maxCard = 1 << 20

// bodyQuoteBytes is how much of an unexpected reply an error quotes.
const bodyQuoteBytes = 200

// readCard reads the agent card once and picks the JSON-RPC endpoint.
func (a *Agent) readCard(ctx context.Context) error {
	a.mu.Lock()
	done := a.card != nil
	a.mu.Unlock()
	if done {
		return nil
	}
	where := joinURL(a.opts.URL, CardPath)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return a.errorf("agent card: %v", err)
	}
	req.Header.Set("Accept", "application/json")
	a.authorize(req)
	resp, err := a.client.Do(req)
	if err != nil {
		return a.transportError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return a.statusError("agent card at "+where, resp)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCard+1))
	if err != nil {
		return a.errorf("read the agent card at %s: %v", where, err)
	}
	if len(body) > maxCard {
		return a.errorf("the agent card at %s is over %d bytes: is it an A2A agent?", where, maxCard)
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(body, &card); err != nil {
		return a.errorf("the agent card at %s is not JSON (%v): %s: is it an A2A agent?", where, err, quote(body))
	}
	endpoint, err := a.endpointOf(&card)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.card, a.endpoint = &card, endpoint
	a.mu.Unlock()
	return nil
}

// endpointOf is the URL where the card says the agent speaks JSON-RPC.
// The token goes only where the configuration points: a card that names an
// endpoint at another origin is refused when there is a token to send.
func (a *Agent) endpointOf(card *a2a.AgentCard) (string, error) {
	endpoint := ""
	if card.PreferredTransport == "" || card.PreferredTransport == a2a.TransportProtocolJSONRPC {
		endpoint = card.URL
	} else {
		for _, i := range card.AdditionalInterfaces {
			if i.Transport == a2a.TransportProtocolJSONRPC {
				endpoint = i.URL
				break
			}
		}
		if endpoint == "" {
			return "", a.errorf("the agent speaks %s, not JSON-RPC, which is what mm speaks", card.PreferredTransport)
		}
	}
	if endpoint == "" {
		endpoint = a.opts.URL
	}
	base, _ := url.Parse(a.opts.URL)
	u, err := base.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", a.errorf("its agent card names %q as its endpoint, which is not an http:// or https:// URL", endpoint)
	}
	if a.opts.Token != "" && (u.Scheme != base.Scheme || u.Host != base.Host) {
		return "", a.errorf("its agent card names its endpoint at %s, another origin than %s: mm sends $%s only to the URL configured; write that endpoint in a2a:",
			u.Scheme+"://"+u.Host, base.Scheme+"://"+base.Host, a.opts.TokenEnv)
	}
	return u.String(), nil
}

// quote is the start of an unexpected body, on one line, for an error.
func quote(b []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(textcut.Bytes(b, bodyQuoteBytes)), "")), " ")
	if len(b) > bodyQuoteBytes {
		s += "…"
	}
	return fmt.Sprintf("%q", s)
}

// bodyQuote is ": <start of the body>" of a refused request, or "".
func bodyQuote(resp *http.Response) string {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, bodyQuoteBytes+1))
	if len(strings.TrimSpace(string(b))) == 0 {
		return ""
	}
	return ": " + quote(b)
}
