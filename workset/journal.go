package workset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// Every write canon makes into several canonical files (promote, id
// rename and id fix, check --fix) goes through writeChanges, which hands
// the files to one journal (safepath.Journal, ADR-0058): all of them are
// written or none, for a process killed midway as for a write that
// fails, and what the command records once they are (a promote's
// findings, a rename's moves in git's index) is in the journal, so that
// the next command that finishes the write records it too.

// journalRecord is what a write records once its files are written.
type journalRecord struct {
	// Promoted: the findings a promote wrote, for its workset.
	Promoted *promotedRecord `json:"promoted,omitempty"`
	// Moved: the files a rename moved, told to git's index as git mv
	// does.
	Moved []movedFile `json:"moved,omitempty"`
}

type promotedRecord struct {
	Workset    string      `json:"workset"`
	Promotions []Promotion `json:"promotions"`
}

type movedFile struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// teller is a Repository that says one-line notes to a person (a
// *gitsync.Session does, through its Note).
type teller interface{ Tell(msg string) }

// journal is the journal of the repository's writes: its folder under
// the git folder (GITDIR/canon/journal), the working tree, and which
// paths it may write: Markdown files inside the repository, outside
// canon's cache, in no folder a link leads out of, never a link.
func journal(repo Repository, root string) *safepath.Journal {
	dir := repo.JournalDir()
	scope := repo.Documents()
	j := &safepath.Journal{
		Dir: dir, Guard: []string{filepath.Dir(filepath.Dir(dir))}, Root: root,
		Allow: func(rel string) error {
			if index.InWorksetDir(rel) || rel == ".cache" || strings.HasPrefix(rel, ".cache/") {
				return fmt.Errorf("%s is in canon's cache; canon writes no document there", rel)
			}
			_, err := safeFile(root, rel, scope, false, true)
			return err
		},
		WriteFile: writeFile,
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
// write that made the journal and for the command that finishes it.
func finisher(ctx context.Context, repo Repository, root string) safepath.Finish {
	return func(data []byte, files []safepath.Entry) error {
		if len(data) == 0 {
			return nil
		}
		var r journalRecord
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("its record does not decode: %w", err)
		}
		var errs []error
		if p := r.Promoted; p != nil && len(p.Promotions) > 0 {
			if err := RecordPromoted(ctx, root, p.Workset, p.Promotions); err != nil {
				errs = append(errs, fmt.Errorf("record the promoted findings in workset %s: %w", p.Workset, err))
			}
		}
		created, removed := map[string]bool{}, map[string]bool{}
		for _, f := range files {
			created[f.Path], removed[f.Path] = f.Created, f.Removed
		}
		for _, mv := range r.Moved {
			// Only a move of the journal's own files, which its checks
			// proved; git reads a leading colon as pathspec magic.
			if !removed[mv.From] || !created[mv.To] || strings.HasPrefix(mv.From, ":") || strings.HasPrefix(mv.To, ":") {
				errs = append(errs, fmt.Errorf("the move of %s to %s is not one of the journal's files", human.QuotePath(mv.From), human.QuotePath(mv.To)))
				continue
			}
			if err := repo.StageRename(ctx, mv.From, mv.To); err != nil {
				errs = append(errs, fmt.Errorf("tell git's index that %s is now %s: %w", mv.From, mv.To, err))
			}
		}
		return errors.Join(errs...)
	}
}

// writeChanges writes files all or none through the journal, what being
// the command (said when a killed one is finished or undone) and rec
// what it records once they are written. Every file is proven first: a
// path the command may write (a document, or with Markdown any Markdown
// file inside the repository), still a regular file holding what was
// read, a new one still absent. It returns the paths written (a renamed
// file's old path too); with a *safepath.RecordError the files are
// written and the record failed.
func writeChanges(ctx context.Context, repo Repository, root string, files []*FileChange, what string, rec *journalRecord) ([]string, error) {
	scope := repo.Documents()
	var changes, removals []safepath.Change
	var out []string
	for _, fc := range files {
		fresh := fc.New || fc.From != ""
		if _, err := safeFile(root, fc.Path, scope, !fresh, fc.Markdown); err != nil {
			return nil, err
		}
		if fc.From != "" {
			if _, err := safeFile(root, fc.From, scope, true, fc.Markdown); err != nil {
				return nil, err
			}
			changes = append(changes, safepath.Change{Path: fc.Path, After: fc.After, Absent: true})
			removals = append(removals, safepath.Change{Path: fc.From, Before: fc.Before, Remove: true})
			continue
		}
		changes = append(changes, safepath.Change{Path: fc.Path, Before: fc.Before, After: fc.After, Absent: fc.New})
	}
	// The new paths are written before the old ones are removed.
	changes = append(changes, removals...)
	for _, fc := range files {
		if fc.From != "" {
			out = append(out, fc.From)
		}
		out = append(out, fc.Path)
	}
	var data []byte
	if rec != nil && (rec.Promoted != nil || len(rec.Moved) > 0) {
		var err error
		if data, err = json.Marshal(rec); err != nil {
			return nil, err
		}
	}
	err := journal(repo, root).Write(ctx, clipBytes(flatten(what), 500), data, changes, finisher(ctx, repo, root))
	if re := (*safepath.RecordError)(nil); errors.As(err, &re) {
		return out, err
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FinishInterrupted finishes the writes of canon commands killed midway
// (their journals), forward or back, and says what it did in one line
// each through note. Every command that opens a repository runs it
// first; it costs one read of an empty folder.
func FinishInterrupted(ctx context.Context, repo Repository, root string, note func(string)) []safepath.Interrupted {
	j := journal(repo, root)
	j.Note = func(in safepath.Interrupted) {
		if msg := Recovered(root, in); msg != "" && note != nil {
			note(msg)
		}
	}
	done := j.Recover(finisher(ctx, repo, root))
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

// PendingInterrupted is what a hook says of journals a killed command
// left, which it leaves for the next command: one line, or "".
func PendingInterrupted(repo Repository, root string) string {
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
