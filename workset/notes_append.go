package workset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// NoteArgs is one finding to append to a workset's notes.md.
type NoteArgs struct {
	Target string // an id, uid, path or wiki-link target of a canonical document
	Kind   string // "" (a worklog line), decision, risk or finding
	Text   string
	// Expect, when set, is the hash of notes.md as the caller last read it
	// (NoteResult.NotesHash): the append is refused if it changed since.
	Expect string
}

// NoteResult says what AppendNote wrote.
type NoteResult struct {
	Line      string `json:"line"`       // as appended
	Finding   string `json:"finding"`    // its finding hash (what promote records)
	NotesHash string `json:"notes_hash"` // of notes.md after the append
}

// ErrNotesChanged says notes.md is not what the caller last read.
var ErrNotesChanged = errors.New("notes.md changed")

// AppendNote appends a finding to a workset's notes.md in the format
// promote reads ("- [TARGET] kind: text"), atomically: the file is
// rewritten through a temporary file and a rename, and the append is
// refused when notes.md changed between the caller's read (Expect) or
// this one's and the rename.
func AppendNote(ctx context.Context, e *Env, name string, a NoteArgs) (*NoteResult, error) {
	if err := e.refuseForeign(ctx, name); err != nil {
		return nil, err
	}
	dir, err := existing(e.Root, name)
	if err != nil {
		return nil, err
	}
	target := strings.TrimSpace(a.Target)
	if len(a.Text) > MaxNote {
		return nil, fmt.Errorf("%w: the note is %d bytes long, more than %d; write a shorter note and put the detail in the document", ErrNotPlain, len(a.Text), MaxNote)
	}
	// One line of plain text that cannot open or close an HTML comment:
	// nothing a note says hides another.
	text := uncommentable(flatten(a.Text))
	switch {
	case target == "" || strings.ContainsAny(target, "[]|"):
		return nil, fmt.Errorf("a note needs a target: the id, uid or path of the document it is about (no [ ] or |)")
	case text == "":
		return nil, fmt.Errorf("a note needs text")
	}
	if err := plainError("the target", target, 1024); err != nil {
		return nil, err
	}
	if uncommentable(target) != target {
		return nil, fmt.Errorf("the target %q holds <!-- or -->, which no document's id or path holds; give the document's id, uid or path", target)
	}
	kind := strings.ToLower(strings.TrimSpace(a.Kind))
	switch kind {
	case "", "worklog", "decision", "risk", "finding":
	case "none":
		kind = "" // what tools/list once documented for a worklog line
	default:
		return nil, fmt.Errorf("kind %q is not decision, risk, finding or worklog (the default)", a.Kind)
	}
	if err := noteTarget(ctx, e, target); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, NotesFile)
	// Writers take turns (three agents appending at once lost a third of
	// their notes to each other's renames): an exclusive lock beside
	// notes.md for the read, the check and the rename. A person's editor
	// takes no lock; the hash check below still sees its save.
	fl := safepath.NewLock(path + ".lock")
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if ok, err := fl.TryLockContext(lctx, 5*time.Millisecond); !ok {
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("lock %s: %w", NotesFile, safepath.LockError(fl.Path(), err))
		}
		return nil, fmt.Errorf("%w: another writer held it for 10 s; try again", ErrNotesChanged)
	}
	if err := safepath.Locked(fl); err != nil {
		return nil, fmt.Errorf("lock %s: %w", NotesFile, err)
	}
	defer fl.Unlock()
	read := func() ([]byte, string, error) {
		data, err := readOwn(e.Root, dir, NotesFile)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, "", err
		}
		sum := sha256.Sum256(data)
		return data, hex.EncodeToString(sum[:]), nil
	}
	data, hash, err := read()
	if err != nil {
		return nil, err
	}
	if a.Expect != "" && a.Expect != hash {
		return nil, fmt.Errorf("%w since you read it; read it again (workset_show or the file) and append then", ErrNotesChanged)
	}
	line := noteLine(target, kind, text)
	// What promote will read of it: a text that is only a separator or
	// a kind (":", "risk:") is no finding, and a kind written in the text
	// ("decision: ...") is the finding's kind.
	parsed := ParseNotes(line)
	if len(parsed) != 1 {
		return nil, fmt.Errorf("a note needs text: %q says nothing promote can append", a.Text)
	}
	out := append([]byte{}, data...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, line+"\n"...)
	if _, now, err := read(); err != nil {
		return nil, err
	} else if now != hash {
		return nil, fmt.Errorf("%w while the note was written (another agent appended); try again", ErrNotesChanged)
	}
	if err := safepath.WriteFile(path, out, 0o644, e.Root); err != nil {
		return nil, fmt.Errorf("write %s: %w", NotesFile, err)
	}
	sum := sha256.Sum256(out)
	return &NoteResult{Line: line, Finding: parsed[0].Hash, NotesHash: hex.EncodeToString(sum[:])}, nil
}

// noteLine is the line AppendNote writes: "- [TARGET] kind: text".
func noteLine(target, kind, text string) string {
	tagged := "[" + target + "]"
	if !refLike(target) {
		tagged = "[[" + target + "]]" // "glossary": [glossary] would read as a plain word
	}
	if kind != "" && kind != "worklog" {
		return "- " + tagged + " " + kind + ": " + text
	}
	return "- " + tagged + " " + text
}

// noteTarget refuses a note whose target names no document, or several,
// now rather than at promote, where the agent that wrote it is gone
// (issue 47: an unknown target was taken and failed at promote).
func noteTarget(ctx context.Context, e *Env, target string) error {
	if e.Index == nil {
		return nil // a workset read without the repository's index
	}
	ref := target
	if i := strings.IndexByte(ref, '#'); i > 0 {
		ref = ref[:i] // target#heading
	}
	_, err := e.Index.FindOne(ctx, ref)
	var nf *index.NotFoundError
	var amb *index.AmbiguousError
	switch {
	case errors.As(err, &nf):
		return fmt.Errorf("no document is %s (by id, uid, path or file name); give the id, uid or path of the document the note is about", target)
	case errors.As(err, &amb):
		return fmt.Errorf("the note's target %w", amb)
	}
	return err
}
