package acpconn

// AskingClient is the clientInfo name an asking mm gives in initialize.
// An mm -acp reads it to tell a hand-off from an editor: what an editor
// sends is what its person typed, what an asking mm sends is a question
// its model (or its person, already expanded) wrote, and is never expanded
// again.
const AskingClient = "mm"
