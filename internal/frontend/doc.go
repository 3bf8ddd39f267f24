// Package frontend holds what mm's terminal front ends share: Visible and
// VisibleLine, the one way text from a model, a tool or an agent reaches a
// terminal; a consent question as a terminal shows it (ConsentQuestion);
// the margin of an asked agent's lines (Indent); whether a terminal gets
// colours (UseColour); a replayed conversation as a terminal shows it
// (Shown); the completion of @path and $name lines (Complete); the refusal
// of an unknown slash command (UnknownCommand); what is running and the
// usage line (Progress, UsageLine); the one report of an error that stops
// mm (ReportError); and the Session an interactive front end drives.
//
// The front ends themselves are its sub-packages: internal/frontend/line (the line
// mode, -p, mm --ask), internal/frontend/tui (the window), internal/frontend/acp (editors),
// internal/frontend/a2a (mm serve --a2a). It imports none of them.
package frontend
