package safepath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Finishing a journal: what each file holds now, then forward to what it
// is to hold or back to what it held, and the test hooks that stand for a
// kill midway.

const (
	absent  = iota // no file
	present        // a regular file inside the repository: sum is its hash
	other          // anything else: a link, a folder, unreadable
)

type fileState struct {
	kind int
	sum  string
	mode os.FileMode
}

// state is what rel holds now.
func (j *Journal) state(rel string) fileState {
	p := j.abs(rel)
	if Inside(filepath.Dir(p), j.Root) != nil {
		return fileState{kind: other}
	}
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileState{kind: absent}
	case err != nil || !fi.Mode().IsRegular():
		return fileState{kind: other}
	}
	b, err := ReadFile(p, JournalBlobLimit, j.Root)
	if err != nil {
		return fileState{kind: other}
	}
	return fileState{kind: present, sum: sum(b), mode: fi.Mode().Perm()}
}

// holds says whether a file in state st holds b (nil: no file).
func (st fileState) holds(b *blob) bool {
	if b == nil {
		return st.kind == absent
	}
	return st.kind == present && st.sum == b.SHA
}

// finish finishes the journal name: forward when every file holds its
// content before or after, else back. A writer (writing) finishes its
// own journal the same way.
func (j *Journal) finish(name string, finish Finish, writing bool) Interrupted {
	p := filepath.Join(j.Dir, name)
	in := Interrupted{Journal: p}
	l, err := j.load(p)
	if err != nil {
		in.Outcome, in.Err = Damaged, err
		in.Aside = p + DamagedExt
		if rerr := os.Rename(p, in.Aside); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			in.Outcome, in.Aside = Unfinished, ""
			in.Err = fmt.Errorf("%w, and it could not be set aside: %w", err, rerr)
		}
		return in
	}
	defer l.f.Close()
	m := &l.m
	in.What, in.PID, in.Record = m.What, m.PID, m.Record
	for _, f := range m.Files {
		in.Files = append(in.Files, Entry{Path: f.Path, Created: f.Before == nil, Removed: f.After == nil})
	}
	states := make([]fileState, len(m.Files))
	forward := true
	for i, f := range m.Files {
		states[i] = j.state(f.Path)
		if !states[i].holds(f.Before) && !states[i].holds(f.After) {
			forward = false
			in.Changed = append(in.Changed, f.Path)
		}
	}
	if forward {
		err := j.forward(l, states, &in, writing)
		if err == nil {
			if finish != nil {
				in.Err = finish(m.Record, in.Files)
			}
			if killPoint != nil {
				killPoint(-1)
			}
			in.Outcome = Finished
			j.removeJournal(p, &in)
			return in
		}
		in.Err = err
		for i, f := range m.Files { // what forward wrote is put back
			states[i] = j.state(f.Path)
		}
		in.Written = nil
	}
	if err := j.back(l, states, &in); err != nil {
		in.Outcome = Unfinished
		if in.Err != nil {
			err = fmt.Errorf("%w; then putting back: %w", in.Err, err)
		}
		in.Err = err
		return in
	}
	in.Outcome = Undone
	j.removeJournal(p, &in)
	return in
}

func (j *Journal) removeJournal(p string, in *Interrupted) {
	if err := Remove(p, j.Guard...); err != nil && !errors.Is(err, fs.ErrNotExist) && in.Err == nil {
		in.Err = fmt.Errorf("remove the journal %s: %w", p, err)
	}
	syncDir(j.Dir)
}

// forward gives every file that does not hold it yet its content after.
func (j *Journal) forward(l *loaded, states []fileState, in *Interrupted, writing bool) error {
	stop := stopAfter(writing)
	done := 0
	for i, f := range l.m.Files {
		if states[i].holds(f.After) {
			continue
		}
		if done == stop {
			killSelf()
		}
		if err := j.put(l, f.Path, f.After, 0o644); err != nil {
			return err
		}
		in.Written = append(in.Written, f.Path)
		done++
		if killPoint != nil {
			killPoint(done)
		}
	}
	if done == stop {
		killSelf()
	}
	return nil
}

// back gives every file that holds its content after (and not the same
// before) its content before again; a file that holds neither is left.
func (j *Journal) back(l *loaded, states []fileState, in *Interrupted) error {
	var errs []error
	for i, f := range l.m.Files {
		if !states[i].holds(f.After) || states[i].holds(f.Before) {
			continue
		}
		perm := os.FileMode(f.Mode)
		if perm == 0 {
			perm = 0o644
		}
		if err := j.put(l, f.Path, f.Before, perm); err != nil {
			errs = append(errs, err)
			continue
		}
		in.Written = append(in.Written, f.Path)
	}
	return errors.Join(errs...)
}

// put makes rel hold b (nil: removes it), a new file with perm.
func (j *Journal) put(l *loaded, rel string, b *blob, perm os.FileMode) error {
	p := j.abs(rel)
	if b == nil {
		if err := Remove(p, j.Root); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", rel, err)
		}
		return nil
	}
	data, err := l.content(b)
	if err != nil {
		return err
	}
	if err := MkdirAll(filepath.Dir(p), 0o755, j.Root); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	write := j.WriteFile
	if write == nil {
		write = WriteFile
	}
	if err := write(p, data, perm, j.Root); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// killPoint, when a test sets it, is called at each point a kill could
// leave a write: 0 once the journal is written, N once N files are,
// -1 once the record is made (before the journal is removed). It panics
// to stand for the kill.
var killPoint func(step int)

// stopAfter is the test hook's count, or -1. Only a writer's own
// journal stops: the command run after it finishes it.
func stopAfter(writing bool) int {
	if !writing {
		return -1
	}
	n, err := strconv.Atoi(os.Getenv(StopAfterFilesEnv))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// killSelf ends the process at once, as kill -9 does: no deferred
// function runs, no lock is released but by the system.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill() //nolint:errcheck // os.Exit follows
	}
	os.Exit(137)
}
