package safepath

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"
)

// A write to several files is all or none, for a process killed midway
// as for a write that fails (ADR-0058). Before the first file is touched,
// a journal is written atomically beside canon's index (under the git
// folder, never in the working tree): for every file its path, the hash
// and bytes of what it holds and of what it is to hold. Then the files
// are replaced one by one (WriteFile: a temporary file and a rename, the
// mode kept), then the caller records what it records, then the journal
// is removed. The next command that finds a journal whose writer is gone
// finishes it: forward when every file still holds what it held before
// or already what it is to hold, else back, leaving alone the file that
// someone changed since. A journal is input like any file of the
// repository: it is bounded, every path it names is proven again, and
// one that does not read as canon writes it is set aside, not applied.

const (
	// JournalManifestLimit is the most the list of files of one journal
	// may take (paths, hashes, the caller's record): about 100,000 files.
	JournalManifestLimit = 32 << 20
	// JournalBlobLimit is the most one file's content in a journal may
	// be: twice the most max_file_size allows (ADR-0032).
	JournalBlobLimit = 64 << 20
	// JournalFileLimit is the most a journal may be, contents included:
	// what one command may rewrite at once, read once more to prove it.
	JournalFileLimit = 1 << 30
	// journalWhatLimit bounds the command a journal names.
	journalWhatLimit = 512
	// journalsPerRun is the most journals one recovery looks at; more are
	// left for the next command (a folder filled by someone else).
	journalsPerRun = 64

	journalMagic = "canon-journal 1\n"
	// JournalExt ends the name of a journal; DamagedExt that of one set
	// aside.
	JournalExt = ".journal"
	DamagedExt = ".damaged"
	// journalLock is the file whose lock a writer holds from before its
	// journal exists until it is removed: a journal whose lock nobody
	// holds belongs to a process that is gone.
	journalLock = "lock"

	// StopAfterFilesEnv is a test hook: CANON_TEST_STOP_AFTER_FILES=N
	// kills canon (SIGKILL) once a journaled write has replaced N files,
	// as a power cut or kill -9 would (the end-to-end scripts).
	StopAfterFilesEnv = "CANON_TEST_STOP_AFTER_FILES"
)

// Change is one file of a write: the content it must hold now and the
// content it is to hold.
type Change struct {
	Path   string // relative to the working tree, slash-separated
	Before []byte // what it holds now (unless Absent)
	After  []byte // what it is to hold (unless Remove)
	Absent bool   // there is no file now: the write creates it
	Remove bool   // the write removes the file
}

// Entry is what a journal says of one file, for a caller's record.
type Entry struct {
	Path    string
	Created bool // there was no file before
	Removed bool // there is no file after
}

// Finish records what a write did once every file holds its new
// content: a promote's findings in its workset, the files a rename moved
// in git's index. It is given the record the writer gave and the files;
// it must do no harm when run twice (a process killed right after it ran
// is finished again).
type Finish func(record []byte, files []Entry) error

// Journal writes files all or none. Its fields say where.
type Journal struct {
	Dir   string   // the folder of the journals (under the git folder)
	Guard []string // the folders Dir must be inside (the git folder)
	Root  string   // the working tree every path is relative to
	// Allow says whether a path may be written: checked for every file
	// a write changes and every path a journal names.
	Allow func(rel string) error
	// Wait is how long a writer waits for another one (default a minute).
	Wait time.Duration
	// WriteFile replaces one file (default WriteFile; tests make it fail).
	WriteFile func(path string, data []byte, perm os.FileMode, roots ...string) error
	// Note hears of each journal a killed writer left and what became of
	// it (also those a writer finds first).
	Note func(Interrupted)
}

// Outcome is what recovery did with a journal.
type Outcome string

const (
	// Finished: every file holds what the write meant, recorded.
	Finished Outcome = "finished"
	// Undone: a file changed since the write, so the others hold again
	// what they held before it; that one is left as it is.
	Undone Outcome = "undone"
	// Damaged: the journal did not read as canon writes it; it was set
	// aside, nothing applied.
	Damaged Outcome = "damaged"
	// Unfinished: neither way could be completed (Err); the journal is
	// kept for the next command.
	Unfinished Outcome = "unfinished"
)

// Interrupted is a journal a killed writer left and what recovery did.
type Interrupted struct {
	Journal string // its file
	What    string // the command that wrote it, as the journal says
	PID     int    // the process that wrote it
	Record  []byte // the writer's record
	Files   []Entry
	Outcome Outcome
	// Written are the files recovery wrote or removed: the rest of the
	// write (Finished), or those it put back (Undone).
	Written []string
	// Changed are the files that held neither what the write found nor
	// what it meant (Undone): left as they are.
	Changed []string
	Aside   string // Damaged: where the journal is now
	// Err is why the journal is damaged, why a write forward failed
	// (Undone), what failed (Unfinished), or the record's failure
	// (Finished: the files are written, the record is not).
	Err error
}

// RecordError is a record that failed after every file was written: the
// write stands.
type RecordError struct{ Err error }

func (e *RecordError) Error() string { return e.Err.Error() }
func (e *RecordError) Unwrap() error { return e.Err }

// ChangedError says a file does not hold what the writer read: nothing
// was written.
type ChangedError struct {
	Path     string
	Appeared bool // a file was to be created and one is there
}

func (e *ChangedError) Error() string {
	if e.Appeared {
		return fmt.Sprintf("%s appeared while canon ran; run the command again", e.Path)
	}
	return fmt.Sprintf("%s changed while canon ran; run the command again", e.Path)
}

// Write changes the files all or none. Under the journals' lock it first
// finishes what a killed writer left (refusing to write while one is
// left), proves every file still as the caller read it, writes the
// journal, replaces the files, runs finish with record (a failure there
// is a *RecordError: the files stand), and removes the journal. A write
// that fails puts back what was written before it. A context cancelled
// meanwhile does not stop it halfway: what it does is short, and a half
// is what it exists to prevent.
func (j *Journal) Write(ctx context.Context, what string, record []byte, changes []Change, finish Finish) error {
	if len(changes) == 0 {
		return nil
	}
	if err := checkWhat(what); err != nil {
		return fmt.Errorf("journal: %w (a bug in canon)", err)
	}
	seen := make(map[string]bool, len(changes))
	for _, c := range changes {
		if err := j.checkPath(c.Path); err != nil {
			return err
		}
		if seen[c.Path] {
			return fmt.Errorf("%s is changed twice in one write (a bug in canon)", c.Path)
		}
		seen[c.Path] = true
		if int64(len(c.Before)) > JournalBlobLimit || int64(len(c.After)) > JournalBlobLimit {
			return fmt.Errorf("%s is larger than %s, the most canon writes of one file", c.Path, sizeText(JournalBlobLimit))
		}
	}
	unlock, err := j.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	for _, in := range j.recoverLocked(finish) {
		if in.Outcome == Unfinished {
			return fmt.Errorf("an interrupted %s is not finished (%w); canon writes no file until it is", in.What, in.Err)
		}
	}
	modes := make([]os.FileMode, len(changes))
	for i, c := range changes {
		st := j.state(c.Path)
		switch {
		case c.Absent && st.kind != absent:
			return &ChangedError{Path: c.Path, Appeared: true}
		case !c.Absent && (st.kind != present || st.sum != sum(c.Before)):
			return &ChangedError{Path: c.Path}
		}
		modes[i] = st.mode
	}
	name, err := j.writeJournal(what, record, changes, modes)
	if err != nil {
		return fmt.Errorf("write the journal of the change: %w; nothing was written", err)
	}
	if killPoint != nil {
		killPoint(0)
	}
	in := j.finish(name, finish, true)
	switch in.Outcome {
	case Finished:
		if in.Err != nil {
			return &RecordError{in.Err}
		}
		return nil
	case Undone:
		if len(in.Changed) > 0 {
			return &ChangedError{Path: in.Changed[0]}
		}
		return fmt.Errorf("%w; nothing was written (what was written before it was put back)", in.Err)
	case Damaged:
		return fmt.Errorf("the journal of the change does not read back (%w); nothing was written", in.Err)
	}
	return fmt.Errorf("%w; putting back what was written failed too: the next canon command finishes the change", in.Err)
}

// Recover finishes the journals killed writers left, each forward or
// back, and says what it did with each (also to Note). A journal whose
// writer still runs is left to it. It returns nil at once when there is
// none, without taking the lock: every command asks.
func (j *Journal) Recover(finish Finish) []Interrupted {
	if len(j.names()) == 0 {
		return nil
	}
	if err := j.guard(); err != nil {
		return []Interrupted{{Journal: j.Dir, Outcome: Unfinished, Err: err}}
	}
	fl, err := j.flock()
	if err != nil {
		return []Interrupted{{Journal: j.Dir, Outcome: Unfinished, Err: err}}
	}
	if ok, err := fl.TryLock(); err != nil || !ok || Locked(fl) != nil {
		return nil // a writer runs: the journal is its own
	}
	defer fl.Unlock()
	return j.recoverLocked(finish)
}

// Pending lists the journals a killed writer left, without finishing
// them (a hook tells of them and leaves them). The one of a writer that
// runs is not listed.
func (j *Journal) Pending() []string {
	names := j.names()
	if len(names) == 0 || j.guard() != nil {
		return nil
	}
	fl, err := j.flock()
	if err != nil {
		return nil
	}
	if ok, err := fl.TryLock(); err != nil || !ok || Locked(fl) != nil {
		return nil
	}
	defer fl.Unlock()
	return j.names() // what is there now that nobody writes
}

// PendingWhat is the command a pending journal names, read no further
// than its list of files (it may be damaged: "" then).
func (j *Journal) PendingWhat(name string) string {
	l, err := j.load(filepath.Join(j.Dir, name))
	if err != nil {
		return ""
	}
	l.f.Close()
	return l.m.What
}

func (j *Journal) recoverLocked(finish Finish) []Interrupted {
	var out []Interrupted
	for _, name := range j.names() {
		in := j.finish(name, finish, false)
		if in.PID > 0 && j.Root != "" {
			// Its writer is gone (it held the lock this process holds):
			// a temporary file it left beside a file is debris.
			for _, e := range in.Files {
				RemoveTempsOf(j.abs(e.Path), in.PID, j.Root)
			}
		}
		if j.Note != nil {
			j.Note(in)
		}
		out = append(out, in)
	}
	StaleIn(j.Dir, j.Guard...) // a journal's temporary file a kill left
	return out
}

// names lists the journals in Dir, oldest first (their names begin with
// the time), at most journalsPerRun.
func (j *Journal) names() []string {
	f, err := os.Open(j.Dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	var names []string
	for len(names) < journalsPerRun {
		es, err := f.ReadDir(256)
		for _, e := range es {
			if strings.HasSuffix(e.Name(), JournalExt) && !strings.HasPrefix(e.Name(), ".") && len(names) < journalsPerRun {
				names = append(names, e.Name())
			}
		}
		if err != nil {
			break
		}
	}
	sort.Strings(names)
	return names
}

func (j *Journal) guard() error {
	if len(j.Guard) == 0 {
		return fmt.Errorf("journal %s: no folder to keep it inside (a bug in canon)", j.Dir)
	}
	return Inside(j.Dir, j.Guard...)
}

func (j *Journal) flock() (*flock.Flock, error) {
	p := filepath.Join(j.Dir, journalLock)
	if err := Writable(p, j.Guard...); err != nil {
		return nil, err
	}
	return NewLock(p), nil
}

// lock takes the journals' lock for a writer, waiting for another one.
func (j *Journal) lock(ctx context.Context) (func(), error) {
	if err := j.guard(); err != nil {
		return nil, err
	}
	if err := MkdirAll(j.Dir, 0o755, j.Guard...); err != nil {
		return nil, err
	}
	fl, err := j.flock()
	if err != nil {
		return nil, err
	}
	wait := j.Wait
	if wait <= 0 {
		wait = time.Minute
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ok, err := fl.TryLockContext(wctx, 20*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), LockError(fl.Path(), err))
	}
	if !ok {
		return nil, fmt.Errorf("another canon command is writing files in this repository (it holds %s); run the command again when it is done", fl.Path())
	}
	if err := Locked(fl); err != nil {
		return nil, err
	}
	return func() { fl.Unlock() }, nil
}

// checkPath proves rel a path a journal may name: a clean relative path,
// not in a .git folder, and one Allow takes.
func (j *Journal) checkPath(rel string) error {
	if c, err := CleanRel(rel); err != nil || c != rel || c == "." {
		return fmt.Errorf("%q is not a path inside the repository", rel)
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%s is inside a .git folder; canon writes no file there", rel)
		}
	}
	if j.Allow != nil {
		return j.Allow(rel)
	}
	return nil
}

func (j *Journal) abs(rel string) string { return filepath.Join(j.Root, filepath.FromSlash(rel)) }

func checkWhat(what string) error {
	if what == "" || len(what) > journalWhatLimit || !utf8.ValidString(what) {
		return fmt.Errorf("the command is empty, longer than %d bytes or not UTF-8", journalWhatLimit)
	}
	for _, r := range what {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			return errors.New("the command holds a control character")
		}
	}
	return nil
}

// ---- the journal's file ----

// ---- finishing a journal ----
