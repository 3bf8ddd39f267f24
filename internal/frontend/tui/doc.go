// Package tui is mm's window (mm -tui): a full-screen terminal front end.
//
// Like the line mode it only renders the orchestrator's events and reads the
// person's input; what a turn does is decided by the session. The screen
// holds, from the top: the banner (one line, cut to the width), the
// transcript (questions, the streamed answers, tool lines, asked agents'
// text and tool lines indented, notices dim, the ⚙ line after each turn with
// the displayCommands list and one notice per hook run under it), a status
// line, and the input line.
//
// One goroutine owns the screen: events from the session, the consent
// questions, the keys read from the terminal and the resize signal all
// arrive on channels, and each batch is followed by one redraw of the rows
// that changed. The terminal is put in raw mode on the alternate screen and
// always restored when Run returns, whether it ends normally, on an error
// or by a panic.
//
// Widths, wrapping and editing go by grapheme cluster, with
// github.com/rivo/uniseg's Unicode tables (see stringWidth): a letter and
// its combining marks, an emoji with its modifiers or a ZWJ sequence is one
// character, never split, moved over or deleted in parts. A terminal that
// draws a character otherwise shifts that row only; autowrap is off, so
// nothing spills onto the next row.
package tui
