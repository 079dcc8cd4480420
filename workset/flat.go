package workset

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/edit"
)

// What canon writes into canonical files and notes.md is flattened and
// bounded (ADR-0033): one line of plain text, of a bounded length. A
// value that is not (an agent name with a newline forged a "## Decisions"
// entry) is refused with the reason where a person or an agent gave it,
// and flattened where canon only reads it back (a workset's manifest).
const (
	// MaxAgent is the longest agent name, in bytes.
	MaxAgent = 64
	// MaxNote is the longest note text (canon workset note, the MCP note
	// tool, a checkpoint note) and the longest finding promote writes, in
	// bytes.
	MaxNote = 8 << 10
)

// ErrNotPlain says a value canon would write into a file is not one line
// of plain text of a bounded length: the edit engine's (edit.Plain), where
// the one predicate lives.
var ErrNotPlain = edit.ErrNotPlain

// plainError says why s is no plain line of at most most bytes, or nil.
// what names the value in the sentence ("the agent name").
func plainError(what, s string, most int) error { return edit.Plain(what, s, most) }

// CheckAgent refuses an agent name canon cannot write into a worklog line
// ("[agent=NAME]") as it is: more than MaxAgent bytes, a control
// character, or a bracket.
func CheckAgent(name string) error {
	if err := plainError("the agent name", name, MaxAgent); err != nil {
		return err
	}
	if strings.ContainsAny(name, "[]") {
		return fmt.Errorf("%w: the agent name %q holds a bracket, which would end [agent=NAME] early; leave it out", ErrNotPlain, name)
	}
	return nil
}

// flatAgent is an agent name as canon writes it, whatever it was read
// from: flattened to one line without brackets, cut to MaxAgent bytes.
func flatAgent(name string) string {
	return clipBytes(flatten(strings.Map(func(r rune) rune {
		if r == '[' || r == ']' {
			return ' '
		}
		return r
	}, name)), MaxAgent)
}

// flatten makes s one line: every control character and line separator a
// space, whitespace collapsed, invalid UTF-8 replaced.
func flatten(s string) string { return edit.Flatten(s) }

// clipBytes cuts s to at most n bytes at a character boundary.
func clipBytes(s string, n int) string { return edit.Clip(s, n) }

// uncommentable makes text unable to open or close an HTML comment in
// notes.md, which would hide the findings after it (or, closed, the lines
// before it): "<!--" and "-->" are written with an entity, which Markdown
// shows as the same characters.
func uncommentable(text string) string {
	// "<!-->" becomes "&lt;!-->" on the first pass: the second takes the
	// "-->" that made. Neither replacement holds "<" or ">", so two do.
	for range 2 {
		text = commentMarks.Replace(text)
	}
	return text
}

var commentMarks = strings.NewReplacer("<!--", "&lt;!--", "-->", "--&gt;")

// checkCheckpoint refuses a checkpoint's agent name or a note longer
// than MaxNote; the note is kept on one line (flatten).
func checkCheckpoint(opt CheckpointOptions) error {
	if opt.Agent != "" {
		if err := CheckAgent(opt.Agent); err != nil {
			return err
		}
	}
	if len(opt.Note) > MaxNote {
		return fmt.Errorf("%w: the checkpoint note is %d bytes long, more than %d; shorten it", ErrNotPlain, len(opt.Note), MaxNote)
	}
	return nil
}
