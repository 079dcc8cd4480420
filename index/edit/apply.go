package edit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// Every write canon makes into canonical files (promote, id rename and id
// fix, check --fix, and whatever edits them next) goes through Apply,
// which hands the files to one journal (safepath.Journal, ADR-0058): all
// of them are written or none, for a process killed midway as for a
// write that fails, and what the command records once they are (a
// rename's moves in git's index, a promote's findings in its workset) is
// in the journal, so that the next command that finishes the write
// records it too. Then the index takes the files.

// Repo is what writing needs of the open repository (a *gitsync.Session
// is one).
type Repo interface {
	// JournalDir is the folder of the journals of writes
	// (GITDIR/canon/journal): under the git folder, never in the
	// working tree.
	JournalDir() string
	// Documents is which files are documents: where canon may write.
	Documents() *scan.Scope
	// StageRename tells git's index that a file moved, as git mv does (a
	// rename's record).
	StageRename(ctx context.Context, from, to string) error
	// SyncWritten brings the index to files just written.
	SyncWritten(ctx context.Context, paths []string) error
	// SyncWorkingTree brings the index to the working tree as it is.
	SyncWorkingTree(ctx context.Context) error
}

// teller is a Repo that says one-line notes to a person (a
// *gitsync.Session does, through its Note).
type teller interface{ Tell(msg string) }

// fileWriter is a Repo that writes each file itself (a test that makes a
// write fail, or kills the process, midway).
type fileWriter interface {
	WriteFile(path string, data []byte, perm os.FileMode, roots ...string) error
}

// Recorder makes a caller's part of a write's record once the files are
// written: given the part's JSON as the write gave it, by the write that
// made the journal and by the command that finishes a killed one. Run
// twice, it must do no harm.
type Recorder func(ctx context.Context, data json.RawMessage) error

// Recorders are the recorders of the parts a journal's record may hold,
// by name ("promoted": a promote's findings, made by the workset
// package). A record holding a part no recorder knows does not decode.
type Recorders map[string]Recorder

// Part is a caller's part of a write's record: Data under Name, made by
// Make.
type Part struct {
	Name string
	Data any
	Make Recorder
}

// moved is the part of a record the engine makes itself: the files a
// rename moved, told to git's index as git mv does.
const moved = "moved"

type movedFile struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// journal is the journal of the repository's writes: its folder under
// the git folder (GITDIR/canon/journal), the working tree, and which
// paths it may write: Markdown files inside the repository, outside
// canon's cache, in no folder a link leads out of, never a link.
func journal(repo Repo, root string) *safepath.Journal {
	dir := repo.JournalDir()
	scope := repo.Documents()
	j := &safepath.Journal{
		Dir: dir, Guard: []string{filepath.Dir(filepath.Dir(dir))}, Root: root,
		Allow: func(rel string) error {
			if index.InWorksetDir(rel) || rel == ".cache" || strings.HasPrefix(rel, ".cache/") {
				return fmt.Errorf("%s is in canon's cache; canon writes no document there", rel)
			}
			_, err := Writable(root, rel, scope, false, true)
			return err
		},
		WriteFile: safepath.WriteFile,
	}
	if w, ok := repo.(fileWriter); ok {
		j.WriteFile = w.WriteFile
	}
	if t, ok := repo.(teller); ok {
		j.Note = func(in safepath.Interrupted) {
			if msg := Recovered(root, in); msg != "" {
				t.Tell(msg)
			}
		}
	}
	return j
}

// finisher makes the record a journal keeps: the same function for the
// write that made the journal and for the command that finishes it. The
// callers' parts first, in the order of their names, then the moves.
func finisher(ctx context.Context, repo Repo, rec Recorders) safepath.Finish {
	return func(data []byte, files []safepath.Entry) error {
		if len(data) == 0 {
			return nil
		}
		var parts map[string]json.RawMessage
		if err := json.Unmarshal(data, &parts); err != nil {
			return fmt.Errorf("its record does not decode: %w", err)
		}
		names := make([]string, 0, len(parts))
		for name := range parts {
			if name != moved && rec[name] == nil {
				return fmt.Errorf("its record does not decode: it holds %q, which this canon does not record", name)
			}
			names = append(names, name)
		}
		sort.Strings(names)
		var errs []error
		for _, name := range names {
			if name != moved {
				if err := rec[name](ctx, parts[name]); err != nil {
					errs = append(errs, err)
				}
			}
		}
		if raw, ok := parts[moved]; ok {
			var mvs []movedFile
			if err := strictJSON(raw, &mvs); err != nil {
				return fmt.Errorf("its record does not decode: %w", err)
			}
			errs = append(errs, stageMoves(ctx, repo, mvs, files)...)
		}
		return errors.Join(errs...)
	}
}

// strictJSON decodes data into v refusing a field v does not have.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// StrictJSON decodes a part of a record as a Recorder reads it: a field
// the part does not have is an error.
func StrictJSON(data json.RawMessage, v any) error { return strictJSON(data, v) }

// stageMoves tells git's index of the files a rename moved: only moves
// of the journal's own files, which its checks proved (git reads a
// leading colon as pathspec magic).
func stageMoves(ctx context.Context, repo Repo, mvs []movedFile, files []safepath.Entry) []error {
	created, removed := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		created[f.Path], removed[f.Path] = f.Created, f.Removed
	}
	var errs []error
	for _, mv := range mvs {
		if !removed[mv.From] || !created[mv.To] || strings.HasPrefix(mv.From, ":") || strings.HasPrefix(mv.To, ":") {
			errs = append(errs, fmt.Errorf("the move of %s to %s is not one of the journal's files", human.QuotePath(mv.From), human.QuotePath(mv.To)))
			continue
		}
		if err := repo.StageRename(ctx, mv.From, mv.To); err != nil {
			errs = append(errs, fmt.Errorf("tell git's index that %s is now %s: %w", mv.From, mv.To, err))
		}
	}
	return errs
}

// Apply writes the set all or none (Apply of its files).
func (s *Set) Apply(ctx context.Context, repo Repo, what string, part *Part) ([]string, error) {
	return Apply(ctx, repo, s.root, s.Files(), what, part)
}

// Apply writes files all or none through the journal, what being the
// command (said when a killed one is finished or undone), then records
// the moves of the renamed files in git's index and part, and brings the
// index to the files. Every file is proven first: a path canon may write
// (Writable: a document, or with Markdown any Markdown file inside the
// repository), still a regular file holding what was read, a new one
// still absent. It returns the paths written (a renamed file's old path
// too). With a *safepath.RecordError the files are written (and the index
// has them) and the record failed; any other error means nothing was
// written.
func Apply(ctx context.Context, repo Repo, root string, files []*File, what string, part *Part) ([]string, error) {
	scope := repo.Documents()
	var changes, removals []safepath.Change
	var out []string
	var mvs []movedFile
	whole := false // a file moved or removed: the index takes the working tree
	for _, f := range files {
		switch {
		case f.From != "":
			if _, err := Writable(root, f.Path, scope, false, f.Markdown); err != nil {
				return nil, err
			}
			if _, err := Writable(root, f.From, scope, true, f.Markdown); err != nil {
				return nil, err
			}
			changes = append(changes, safepath.Change{Path: f.Path, After: f.After, Absent: true})
			removals = append(removals, safepath.Change{Path: f.From, Before: f.Before, Remove: true})
			mvs = append(mvs, movedFile{From: f.From, To: f.Path})
			out = append(out, f.From, f.Path)
			whole = true
		case f.Remove:
			if _, err := Writable(root, f.Path, scope, true, f.Markdown); err != nil {
				return nil, err
			}
			removals = append(removals, safepath.Change{Path: f.Path, Before: f.Before, Remove: true})
			out = append(out, f.Path)
			whole = true
		default:
			if _, err := Writable(root, f.Path, scope, !f.New, f.Markdown); err != nil {
				return nil, err
			}
			changes = append(changes, safepath.Change{Path: f.Path, Before: f.Before, After: f.After, Absent: f.New})
			out = append(out, f.Path)
		}
	}
	// The new paths are written before the old ones are removed.
	changes = append(changes, removals...)
	record := map[string]any{}
	rec := Recorders{}
	if len(mvs) > 0 {
		record[moved] = mvs
	}
	if part != nil && part.Data != nil {
		if part.Name == moved || part.Make == nil {
			return nil, fmt.Errorf("edit: a record part %q (a bug in canon)", part.Name)
		}
		record[part.Name], rec[part.Name] = part.Data, part.Make
	}
	var data []byte
	if len(record) > 0 {
		var err error
		if data, err = json.Marshal(record); err != nil {
			return nil, err
		}
	}
	err := journal(repo, root).Write(ctx, Clip(Flatten(what), 500), data, changes, finisher(ctx, repo, rec))
	if re := (*safepath.RecordError)(nil); err != nil && !errors.As(err, &re) {
		return nil, err
	}
	if len(out) == 0 {
		return out, err
	}
	var sync error
	if whole {
		sync = repo.SyncWorkingTree(ctx)
	} else {
		sync = repo.SyncWritten(ctx, out)
	}
	if err != nil {
		return out, err
	}
	return out, sync
}

// Finish finishes the writes of canon commands killed midway (their
// journals), forward or back, and says what it did in one line each
// through note; rec makes the callers' parts of their records. Every
// command that opens a repository runs it first; it costs one read of an
// empty folder.
func Finish(ctx context.Context, repo Repo, root string, rec Recorders, note func(string)) []safepath.Interrupted {
	j := journal(repo, root)
	j.Note = func(in safepath.Interrupted) {
		if msg := Recovered(root, in); msg != "" && note != nil {
			note(msg)
		}
	}
	done := j.Recover(finisher(ctx, repo, rec))
	// The index is brought to the files as they are now, as the write
	// would have brought it: a reconcile, which reads what changed and
	// compares contents (a file put back is no change to the index that
	// never saw it written), and takes the removals of a rename.
	for _, in := range done {
		if in.Outcome == safepath.Finished || in.Outcome == safepath.Undone {
			if err := repo.SyncWorkingTree(ctx); err != nil && note != nil {
				note(fmt.Sprintf("the index did not take the files the interrupted write left (the next sync does): %v", err))
			}
			break
		}
	}
	return done
}

// Pending is what a hook says of journals a killed command left, which it
// leaves for the next command: one line, or "".
func Pending(repo Repo, root string) string {
	j := journal(repo, root)
	names := j.Pending()
	if len(names) == 0 {
		return ""
	}
	what := j.PendingWhat(names[0])
	if what == "" {
		what = "canon write"
	}
	more := ""
	if len(names) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(names)-1)
	}
	return fmt.Sprintf("%s was interrupted and left files half-written%s; the next canon command outside a hook (canon status) finishes it", human.Quote(what), more)
}

// Recovered is the sentence that says what became of an interrupted
// write: finished, undone (with the file changed since and the command to
// run again), set aside as damaged, or left (and why).
func Recovered(root string, in safepath.Interrupted) string {
	what := human.Quote(in.What)
	shown := human.QuotePath
	aside := in.Aside
	if rel, err := filepath.Rel(root, aside); err == nil && !strings.HasPrefix(rel, "..") {
		aside = filepath.ToSlash(rel)
	}
	switch in.Outcome {
	case safepath.Finished:
		msg := fmt.Sprintf("%s (pid %d) was interrupted; it is finished now: the other %d of its %s are written, nothing is committed", what, in.PID,
			len(in.Written), human.Plural(len(in.Files), "file"))
		if len(in.Written) == 0 {
			msg = fmt.Sprintf("%s (pid %d) was interrupted after writing its %s; it is recorded now, nothing is committed", what, in.PID, human.Plural(len(in.Files), "file"))
		}
		if in.Err != nil {
			msg += fmt.Sprintf("; but recording it failed (%v): run %s again to record it", in.Err, what)
		}
		return msg
	case safepath.Undone:
		why := "a write failed"
		if len(in.Changed) > 0 {
			why = fmt.Sprintf("%s changed since, and is left as it is", shown(in.Changed[0]))
			if len(in.Changed) > 1 {
				why = fmt.Sprintf("%s and %d more changed since, and are left as they are", shown(in.Changed[0]), len(in.Changed)-1)
			}
		} else if in.Err != nil {
			why = fmt.Sprintf("writing the rest failed (%v)", in.Err)
		}
		back := fmt.Sprintf("the %d files it had written hold what they held before", len(in.Written))
		switch len(in.Written) {
		case 0:
			back = "no other file it had written needed putting back"
		case 1:
			back = "the 1 file it had written holds what it held before"
		}
		return fmt.Sprintf("%s (pid %d) was interrupted and is undone: %s; %s; run %s again", what, in.PID, why, back, what)
	case safepath.Damaged:
		return fmt.Sprintf("the journal of an interrupted write is damaged (%v) and was set aside as %s, nothing applied: see what git status shows, put back what you do not want, then delete it",
			in.Err, human.QuotePath(aside))
	case safepath.Unfinished:
		if in.What == "" {
			return fmt.Sprintf("the journals of interrupted writes in %s cannot be read: %v", human.QuotePath(in.Journal), in.Err)
		}
		return fmt.Sprintf("%s (pid %d) was interrupted and could not be finished or undone (%v); the next canon command tries again", what, in.PID, in.Err)
	}
	return ""
}
