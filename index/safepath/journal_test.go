package safepath

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

// jfix is a working tree and a git folder beside it, with a journal
// that may write Markdown files.
type jfix struct {
	t      *testing.T
	root   string
	gitDir string
	j      *Journal
	// records are the records finish was given, in order.
	records []string
}

func newJFix(t *testing.T) *jfix {
	t.Helper()
	base := t.TempDir()
	f := &jfix{t: t, root: filepath.Join(base, "work"), gitDir: filepath.Join(base, "git")}
	for _, d := range []string{f.root, f.gitDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.j = &Journal{
		Dir: filepath.Join(f.gitDir, "canon", "journal"), Guard: []string{f.gitDir}, Root: f.root,
		Allow: func(rel string) error {
			if !strings.HasSuffix(rel, ".md") {
				return fmt.Errorf("%s is not Markdown", rel)
			}
			return nil
		},
	}
	return f
}

func (f *jfix) finish(record []byte, _ []Entry) error {
	f.records = append(f.records, string(record))
	return nil
}

func (f *jfix) write(rel, content string, perm os.FileMode) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		f.t.Fatal(err)
	}
}

// tree is every file of the working tree: content and mode.
func (f *jfix) tree() map[string]string {
	f.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(f.root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[filepath.ToSlash(rel)] = "link to " + target
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%v %s", fi.Mode().Perm(), b)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *jfix) journals() []string {
	ms, _ := filepath.Glob(filepath.Join(f.j.Dir, "*"+JournalExt))
	return ms
}

// scenario is five files before a write and what the write makes of
// them: two edited (one executable: its mode stays), one created in a
// new folder, one removed, one untouched.
func (f *jfix) scenario() (changes []Change, want map[string]string) {
	f.write("a.md", "alpha\n", 0o644)
	f.write("sub/b.md", "beta\n", 0o755)
	f.write("old.md", "old\n", 0o600)
	f.write("keep.md", "keep\n", 0o644)
	changes = []Change{
		{Path: "a.md", Before: []byte("alpha\n"), After: []byte("alpha\nmore\n")},
		{Path: "sub/b.md", Before: []byte("beta\n"), After: []byte("beta\r\nmore\r\n")},
		{Path: "new/c.md", After: []byte("gamma\n"), Absent: true},
		{Path: "old.md", Before: []byte("old\n"), Remove: true},
	}
	want = map[string]string{
		"a.md":     "-rw-r--r-- alpha\nmore\n",
		"sub/b.md": "-rwxr-xr-x beta\r\nmore\r\n",
		"new/c.md": "-rw-r--r-- gamma\n",
		"keep.md":  "-rw-r--r-- keep\n",
	}
	return changes, want
}

func equalTrees(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d files, want %d:\n%v\nwant %v", what, len(got), len(want), got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %q, want %q", what, k, got[k], v)
		}
	}
}

// killedAt runs the write and stands for a kill at step (killPoint): the
// panic unwinds the writer as the system would end it, its lock
// released, nothing after the point done.
func (f *jfix) killedAt(step int, changes []Change) (killed bool) {
	type kill struct{}
	killPoint = func(s int) {
		if s == step {
			panic(kill{})
		}
	}
	defer func() {
		killPoint = nil
		if r := recover(); r != nil {
			if _, ok := r.(kill); !ok {
				panic(r)
			}
			killed = true
		}
	}()
	if err := f.j.Write(context.Background(), "canon test", []byte(`{"n":1}`), changes, f.finish); err != nil {
		f.t.Fatalf("the write failed: %v", err)
	}
	return false
}

// A writer killed at any point, from right after its journal is written
// to right after its record, leaves what the next command finishes: every
// file as the write meant it, byte for byte and with its mode, recorded,
// the journal gone.
func TestJournalKilledAnywhereIsFinished(t *testing.T) {
	steps := []int{0, 1, 2, 3, 4, -1}
	for _, step := range steps {
		t.Run(strconv.Itoa(step), func(t *testing.T) {
			f := newJFix(t)
			changes, want := f.scenario()
			before := f.tree()
			if !f.killedAt(step, changes) {
				t.Fatal("the write was not killed")
			}
			if len(f.journals()) != 1 {
				t.Fatalf("journals after the kill: %v; want one", f.journals())
			}
			if step == 0 {
				equalTrees(t, "killed before the first file", f.tree(), before)
			}
			recordsBefore := len(f.records)
			got := f.j.Recover(f.finish)
			if len(got) != 1 || got[0].Outcome != Finished || got[0].Err != nil {
				t.Fatalf("Recover = %+v; want one finished", got)
			}
			if step >= 0 && len(got[0].Written) != len(changes)-step {
				t.Errorf("recovery wrote %v; want the %d files left", got[0].Written, len(changes)-step)
			}
			equalTrees(t, "after recovery", f.tree(), want)
			if len(f.records) != recordsBefore+1 || f.records[len(f.records)-1] != `{"n":1}` {
				t.Errorf("records %q; want the write's, once more", f.records)
			}
			if len(f.journals()) != 0 {
				t.Errorf("journals left: %v", f.journals())
			}
			if again := f.j.Recover(f.finish); again != nil {
				t.Errorf("a second recovery did %+v", again)
			}
		})
	}
}

// A recovery killed midway is finished by the next one.
func TestJournalRecoveryKilledIsFinished(t *testing.T) {
	f := newJFix(t)
	changes, want := f.scenario()
	if !f.killedAt(1, changes) {
		t.Fatal("the write was not killed")
	}
	type kill struct{}
	func() {
		killPoint = func(s int) {
			if s == 1 {
				panic(kill{})
			}
		}
		defer func() {
			killPoint = nil
			if _, ok := recover().(kill); !ok {
				t.Fatal("the recovery was not killed")
			}
		}()
		f.j.Recover(f.finish)
	}()
	got := f.j.Recover(f.finish)
	if len(got) != 1 || got[0].Outcome != Finished {
		t.Fatalf("Recover = %+v", got)
	}
	equalTrees(t, "after two recoveries", f.tree(), want)
}

// A file that holds neither what the write found nor what it meant (a
// person edited it after the kill, or put a link in its place) is never
// written: the others are put back as they were before the write, the
// record is not made, and the journal goes.
func TestJournalUndoesAroundAChangedFile(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(f *jfix)
		changed string
	}{
		{"a written file edited", func(f *jfix) { f.write("a.md", "alpha\nmore\nmine\n", 0o644) }, "a.md"},
		{"a file not yet written edited", func(f *jfix) { f.write("sub/b.md", "beta\nmine\n", 0o755) }, "sub/b.md"},
		{"a file to create made", func(f *jfix) { f.write("new/c.md", "mine\n", 0o644) }, "new/c.md"},
		{"a file to remove gone", func(f *jfix) { os.Remove(filepath.Join(f.root, "a.md")) }, "a.md"},
		{"a link in a file's place", func(f *jfix) {
			p := filepath.Join(f.root, "sub/b.md")
			os.Remove(p)
			if err := os.Symlink("../keep.md", p); err != nil {
				f.t.Fatal(err)
			}
		}, "sub/b.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newJFix(t)
			changes, _ := f.scenario()
			before := f.tree()
			if !f.killedAt(1, changes) { // a.md written
				t.Fatal("the write was not killed")
			}
			c.change(f)
			mine := f.tree()[c.changed]
			got := f.j.Recover(f.finish)
			if len(got) != 1 || got[0].Outcome != Undone {
				t.Fatalf("Recover = %+v; want undone", got)
			}
			if len(got[0].Changed) != 1 || got[0].Changed[0] != c.changed {
				t.Errorf("changed %v; want [%s]", got[0].Changed, c.changed)
			}
			want := map[string]string{}
			for k, v := range before {
				want[k] = v
			}
			if mine == "" {
				delete(want, c.changed)
			} else {
				want[c.changed] = mine
			}
			equalTrees(t, "after the undo", f.tree(), want)
			if len(f.records) != 0 {
				t.Errorf("an undone write recorded %q", f.records)
			}
			if len(f.journals()) != 0 {
				t.Errorf("journals left: %v", f.journals())
			}
		})
	}
}

// A write that fails midway puts back what it wrote before and leaves no
// journal; one whose file changed since it was read writes nothing.
func TestJournalWriteFailsAllOrNone(t *testing.T) {
	f := newJFix(t)
	changes, _ := f.scenario()
	before := f.tree()
	calls := 0
	f.j.WriteFile = func(path string, data []byte, perm os.FileMode, roots ...string) error {
		if calls++; calls == 3 {
			return errors.New("disk full")
		}
		return WriteFile(path, data, perm, roots...)
	}
	err := f.j.Write(context.Background(), "canon test", nil, changes, f.finish)
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("Write = %v; want the failure, nothing written", err)
	}
	equalTrees(t, "after a failed write", f.tree(), before)
	if len(f.records) != 0 || len(f.journals()) != 0 {
		t.Errorf("records %q, journals %v; want none", f.records, f.journals())
	}

	f.j.WriteFile = nil
	f.write("a.md", "alpha, edited\n", 0o644)
	before = f.tree()
	var ce *ChangedError
	if err := f.j.Write(context.Background(), "canon test", nil, changes, f.finish); !errors.As(err, &ce) || ce.Path != "a.md" {
		t.Fatalf("Write over an edited file = %v; want a.md changed", err)
	}
	equalTrees(t, "after a refused write", f.tree(), before)
}

// The journal of a writer that runs is its own: recovery leaves it and a
// hook does not call it interrupted; a second writer waits.
func TestJournalOfALiveWriterIsLeft(t *testing.T) {
	f := newJFix(t)
	changes, _ := f.scenario()
	if !f.killedAt(1, changes) {
		t.Fatal("the write was not killed")
	}
	live := flock.New(filepath.Join(f.j.Dir, journalLock))
	if ok, err := live.TryLock(); err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	if got := f.j.Recover(f.finish); got != nil {
		t.Errorf("Recover beside a live writer = %+v", got)
	}
	if p := f.j.Pending(); p != nil {
		t.Errorf("Pending beside a live writer = %v", p)
	}
	f.j.Wait = 50 * 1e6
	if err := f.j.Write(context.Background(), "canon test", nil, changes[:1], f.finish); err == nil || !strings.Contains(err.Error(), "another canon command is writing") {
		t.Errorf("Write beside a live writer = %v", err)
	}
	live.Unlock()
	if p := f.j.Pending(); len(p) != 1 {
		t.Errorf("Pending = %v; want the journal", p)
	}
	if what := f.j.PendingWhat(f.j.Pending()[0]); what != "canon test" {
		t.Errorf("PendingWhat = %q", what)
	}
}

// A writer that finds a journal a killed one left finishes it first.
func TestJournalWriterFinishesTheOneBefore(t *testing.T) {
	f := newJFix(t)
	changes, want := f.scenario()
	if !f.killedAt(2, changes) {
		t.Fatal("the write was not killed")
	}
	var told []Interrupted
	f.j.Note = func(in Interrupted) { told = append(told, in) }
	f.write("other.md", "x\n", 0o644)
	if err := f.j.Write(context.Background(), "canon second", nil, []Change{{Path: "other.md", Before: []byte("x\n"), After: []byte("y\n")}}, f.finish); err != nil {
		t.Fatal(err)
	}
	want["other.md"] = "-rw-r--r-- y\n"
	equalTrees(t, "after the second write", f.tree(), want)
	if len(told) != 1 || told[0].Outcome != Finished || told[0].What != "canon test" {
		t.Errorf("told %+v; want the first write finished", told)
	}
}

// A process killed for real (SIGKILL, by the test hook of the end-to-end
// scripts) after two files: its lock goes with it, and the next recovery
// finishes the write.
func TestJournalProcessKilled(t *testing.T) {
	if os.Getenv("CANON_JOURNAL_CHILD") != "" {
		f := &jfix{t: t, root: os.Getenv("CANON_JOURNAL_ROOT"), gitDir: os.Getenv("CANON_JOURNAL_GIT")}
		f.j = &Journal{Dir: filepath.Join(f.gitDir, "canon", "journal"), Guard: []string{f.gitDir}, Root: f.root}
		changes := f.scenarioChanges()
		f.j.Write(context.Background(), "canon child", nil, changes, nil) //nolint:errcheck // killed before it returns
		os.Exit(3)                                                        // not killed: the parent says so
	}
	if testing.Short() {
		t.Skip("runs a process")
	}
	f := newJFix(t)
	_, want := f.scenario()
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalProcessKilled$")
	cmd.Env = append(os.Environ(), "CANON_JOURNAL_CHILD=1", "CANON_JOURNAL_ROOT="+f.root, "CANON_JOURNAL_GIT="+f.gitDir, StopAfterFilesEnv+"=2")
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 3 || ee.ExitCode() == 0 {
		t.Fatalf("the child ended with %v; want killed", err)
	}
	if got := f.tree()["a.md"]; got != want["a.md"] {
		t.Fatalf("a.md after the kill = %q; want written", got)
	}
	if got := f.tree()["new/c.md"]; got != "" {
		t.Fatalf("new/c.md after the kill = %q; want not yet written", got)
	}
	// A kill between a file's write and its rename leaves its temporary
	// file: recovery removes the dead writer's, whatever their age, and
	// leaves another process's.
	debris := filepath.Join(f.root, "new", fmt.Sprintf(".c.md%s%d-9", tempMark, cmd.Process.Pid))
	other := filepath.Join(f.root, "new", fmt.Sprintf(".c.md%s%d-9", tempMark, os.Getpid()))
	for _, p := range []string{debris, other} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := f.j.Recover(nil)
	if len(got) != 1 || got[0].Outcome != Finished || got[0].What != "canon child" || len(got[0].Written) != 2 {
		t.Fatalf("Recover = %+v", got)
	}
	if _, err := os.Lstat(debris); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed writer's temporary file is still there (%v)", err)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Errorf("a live process's temporary file was removed: %v", err)
	}
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	equalTrees(t, "after recovery", f.tree(), want)
}

func (f *jfix) scenarioChanges() []Change {
	return []Change{
		{Path: "a.md", Before: []byte("alpha\n"), After: []byte("alpha\nmore\n")},
		{Path: "sub/b.md", Before: []byte("beta\n"), After: []byte("beta\r\nmore\r\n")},
		{Path: "new/c.md", After: []byte("gamma\n"), Absent: true},
		{Path: "old.md", Before: []byte("old\n"), Remove: true},
	}
}

// ---- damaged and hostile journals ----

// craft writes a journal file as canon would, from a manifest and the
// contents, then lets mangle change its bytes.
func (f *jfix) craft(m manifest, blobs [][]byte, mangle func([]byte) []byte) string {
	f.t.Helper()
	js, err := json.Marshal(m)
	if err != nil {
		f.t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(journalMagic)
	b.WriteString(strconv.Itoa(len(js)) + "\n")
	b.Write(js)
	for _, x := range blobs {
		b.Write(x)
	}
	data := b.Bytes()
	if mangle != nil {
		data = mangle(data)
	}
	if err := os.MkdirAll(f.j.Dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	p := filepath.Join(f.j.Dir, "00000000000000000001-1"+JournalExt)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func ref(data []byte, off int64) *blob {
	return &blob{SHA: sum(data), Off: off, Len: int64(len(data))}
}

// A journal that does not read as canon writes it is set aside whole,
// and not one file is touched: paths out of the repository, into .git,
// ones the caller does not allow, contents that do not match their hash
// or lie outside the file, fields canon does not write.
func TestJournalDamagedIsSetAside(t *testing.T) {
	before, after := []byte("alpha\n"), []byte("pwned\n")
	good := func(path string) manifest {
		return manifest{Version: 1, PID: 42, What: "canon test", Files: []journalFile{{Path: path, Mode: 0o644, Before: ref(before, 0), After: ref(after, int64(len(before)))}}}
	}
	blobs := [][]byte{before, after}
	cases := []struct {
		name   string
		m      manifest
		blobs  [][]byte
		mangle func([]byte) []byte
		why    string
	}{
		{"up and out", good("../outside.md"), blobs, nil, "not a path inside"},
		{"absolute", good("/etc/passwd.md"), blobs, nil, "not a path inside"},
		{"unclean", good("x/../a.md"), blobs, nil, "not a path inside"},
		{"into .git", good(".git/hooks/pre-commit.md"), blobs, nil, ".git folder"},
		{"into .GIT", good("sub/.GIT/x.md"), blobs, nil, ".git folder"},
		{"not allowed", good("a.sh"), blobs, nil, "not Markdown"},
		{"a NUL", good("a\x00.md"), blobs, nil, "not a path inside"},
		{"twice", manifest{Version: 1, PID: 1, What: "w", Files: []journalFile{good("a.md").Files[0], good("a.md").Files[0]}}, blobs, nil, "twice"},
		{"version 2", func() manifest { m := good("a.md"); m.Version = 2; return m }(), blobs, nil, "version 2"},
		{"no process", func() manifest { m := good("a.md"); m.PID = 0; return m }(), blobs, nil, "no process"},
		{"no file", manifest{Version: 1, PID: 1, What: "w"}, nil, nil, "no file"},
		{"a control character", func() manifest { m := good("a.md"); m.What = "canon \x1b[2J"; return m }(), blobs, nil, "control character"},
		{"setuid", func() manifest { m := good("a.md"); m.Files[0].Mode = 0o4755; return m }(), blobs, nil, "permissions"},
		{"nothing said", func() manifest { m := good("a.md"); m.Files[0].Before, m.Files[0].After = nil, nil; return m }(), blobs, nil, "says nothing"},
		{"bad hash", func() manifest { m := good("a.md"); m.Files[0].After.SHA = "zz"; return m }(), blobs, nil, "not a SHA-256"},
		{"content past the end", func() manifest { m := good("a.md"); m.Files[0].After.Len = 1 << 20; return m }(), blobs, nil, "outside the file"},
		{"negative offset", func() manifest { m := good("a.md"); m.Files[0].After.Off = -3; return m }(), blobs, nil, "outside the file"},
		{"contents overlap", func() manifest { m := good("a.md"); m.Files[0].After.Off = 0; return m }(), blobs, nil, "not where the one before it ends"},
		{"more than listed", good("a.md"), blobs, func(b []byte) []byte { return append(b, "trailing"...) }, "holds more than"},
		{"content changed", good("a.md"), blobs, func(b []byte) []byte { b[len(b)-2] ^= 1; return b }, "does not match its hash"},
		{"cut short", good("a.md"), blobs, func(b []byte) []byte { return b[:len(b)-3] }, "outside the file"},
		{"not a journal", good("a.md"), blobs, func(b []byte) []byte { return append([]byte("#!/bin/sh\n"), b...) }, "does not begin"},
		{"a huge length", good("a.md"), blobs, func(b []byte) []byte {
			n := bytes.IndexByte(b[len(journalMagic):], '\n') + len(journalMagic)
			return append([]byte(journalMagic+"999999999999"), b[n:]...)
		}, "not of a length"},
		{"length too long", good("a.md"), blobs, func(b []byte) []byte {
			i := len(journalMagic)
			return append(append(append([]byte{}, b[:i]...), []byte("99999999999999999999999999\n")...), b[i:]...)
		}, "length line"},
		{"a field canon does not write", good("a.md"), blobs, func(b []byte) []byte {
			n := bytes.IndexByte(b[len(journalMagic):], '\n') + len(journalMagic)
			js := b[n+1:]
			end := bytes.Index(js, []byte(`"files"`))
			extra := []byte(`"exec":"rm -rf /",`)
			l, _ := strconv.Atoi(string(b[len(journalMagic):n]))
			out := append([]byte{}, b[:len(journalMagic)]...)
			out = append(out, []byte(strconv.Itoa(l+len(extra))+"\n")...)
			out = append(out, js[:end]...)
			out = append(out, extra...)
			return append(out, js[end:]...)
		}, "unknown field"},
		{"more after the list", good("a.md"), blobs, func(b []byte) []byte {
			n := bytes.IndexByte(b[len(journalMagic):], '\n') + len(journalMagic)
			l, _ := strconv.Atoi(string(b[len(journalMagic):n]))
			js := b[n+1 : n+1+l]
			out := append([]byte{}, b[:len(journalMagic)]...)
			out = append(out, []byte(strconv.Itoa(l+2)+"\n")...)
			out = append(out, js...)
			out = append(out, []byte("{}")...)
			return append(out, b[n+1+l:]...)
		}, "more after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newJFix(t)
			f.write("a.md", string(before), 0o644)
			outside := filepath.Join(filepath.Dir(f.root), "outside.md")
			if err := os.WriteFile(outside, before, 0o644); err != nil {
				t.Fatal(err)
			}
			tree := f.tree()
			p := f.craft(c.m, c.blobs, c.mangle)
			got := f.j.Recover(f.finish)
			if len(got) != 1 || got[0].Outcome != Damaged {
				t.Fatalf("Recover = %+v; want damaged", got)
			}
			if !strings.Contains(got[0].Err.Error(), c.why) {
				t.Errorf("why %q; want it to say %q", got[0].Err, c.why)
			}
			if got[0].Aside != p+DamagedExt {
				t.Errorf("set aside as %q", got[0].Aside)
			}
			if _, err := os.Stat(p + DamagedExt); err != nil {
				t.Errorf("not set aside: %v", err)
			}
			equalTrees(t, "after a damaged journal", f.tree(), tree)
			if b, _ := os.ReadFile(outside); !bytes.Equal(b, before) {
				t.Errorf("the file outside was written: %q", b)
			}
			if len(f.records) != 0 {
				t.Errorf("recorded %q", f.records)
			}
			if again := f.j.Recover(f.finish); again != nil {
				t.Errorf("a journal set aside is looked at again: %+v", again)
			}
		})
	}
}

// A journal that is a link, or a journal folder that leads out of the git
// folder, is not read.
func TestJournalLinksAreNotFollowed(t *testing.T) {
	f := newJFix(t)
	f.write("a.md", "alpha\n", 0o644)
	elsewhere := t.TempDir()
	outside := filepath.Join(elsewhere, "x.journal")
	m := manifest{Version: 1, PID: 1, What: "w", Files: []journalFile{{Path: "a.md", Mode: 0o644, Before: ref([]byte("alpha\n"), 0), After: ref([]byte("pwned\n"), 6)}}}
	js, _ := json.Marshal(m)
	data := journalMagic + strconv.Itoa(len(js)) + "\n" + string(js) + "alpha\npwned\n"
	if err := os.WriteFile(outside, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(f.j.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.j.Dir, "1-1"+JournalExt)); err != nil {
		t.Fatal(err)
	}
	got := f.j.Recover(f.finish)
	if len(got) != 1 || got[0].Outcome != Damaged {
		t.Fatalf("Recover of a linked journal = %+v; want damaged", got)
	}
	if b, _ := os.ReadFile(filepath.Join(f.root, "a.md")); string(b) != "alpha\n" {
		t.Fatalf("a.md = %q", b)
	}

	// The journal folder itself a link out of the git folder.
	g := newJFix(t)
	g.write("a.md", "alpha\n", 0o644)
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "1-1"+JournalExt), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(g.j.Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, g.j.Dir); err != nil {
		t.Fatal(err)
	}
	got = g.j.Recover(g.finish)
	if len(got) != 1 || got[0].Outcome != Unfinished {
		t.Fatalf("Recover through a linked folder = %+v; want refused", got)
	}
	if b, _ := os.ReadFile(filepath.Join(g.root, "a.md")); string(b) != "alpha\n" {
		t.Fatalf("a.md = %q", b)
	}
	if err := g.j.Write(context.Background(), "w", nil, []Change{{Path: "a.md", Before: []byte("alpha\n"), After: []byte("b\n")}}, nil); err == nil {
		t.Fatal("a write kept its journal outside the git folder")
	}
}

// A path a journal names that a link leads out of is never written, even
// in a journal otherwise sound: it holds neither content, so the write is
// undone around it.
func TestJournalPathThroughALinkIsLeft(t *testing.T) {
	f := newJFix(t)
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "x.md"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(f.root, "ext")); err != nil {
		t.Fatal(err)
	}
	m := manifest{Version: 1, PID: 1, What: "w", Files: []journalFile{{Path: "ext/x.md", Mode: 0o644, Before: ref([]byte("alpha\n"), 0), After: ref([]byte("pwned\n"), 6)}}}
	f.craft(m, [][]byte{[]byte("alpha\n"), []byte("pwned\n")}, nil)
	got := f.j.Recover(f.finish)
	if len(got) != 1 || got[0].Outcome != Undone || len(got[0].Changed) != 1 {
		t.Fatalf("Recover = %+v; want undone around ext/x.md", got)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "x.md")); string(b) != "alpha\n" {
		t.Fatalf("the file outside = %q", b)
	}
}

// FuzzJournalLoad: whatever bytes a journal holds, recovery ends in an
// answer, and writes nothing but what a journal that reads as canon's
// names, inside the working tree.
func FuzzJournalLoad(f *testing.F) {
	m := manifest{Version: 1, PID: 7, What: "canon promote x", Record: json.RawMessage(`{"a":1}`), Files: []journalFile{
		{Path: "a.md", Mode: 0o644, Before: ref([]byte("alpha\n"), 0), After: ref([]byte("beta\n"), 6)},
		{Path: "n/new.md", After: ref([]byte("new\n"), 11)},
	}}
	js, _ := json.Marshal(m)
	f.Add([]byte(journalMagic + strconv.Itoa(len(js)) + "\n" + string(js) + "alpha\nbeta\nnew\n"))
	f.Add([]byte(journalMagic + "2\n{}"))
	f.Add([]byte(journalMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := newJFix(t)
		x.write("a.md", "alpha\n", 0o644)
		if err := os.MkdirAll(x.j.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(x.j.Dir, "1-1"+JournalExt)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		l, lerr := x.j.load(p)
		got := x.j.Recover(x.finish)
		if len(got) != 1 {
			t.Fatalf("Recover = %+v", got)
		}
		if lerr != nil {
			if got[0].Outcome != Damaged {
				t.Fatalf("a journal that does not load: %+v", got[0])
			}
			if tree := x.tree(); len(tree) != 1 || tree["a.md"] != "-rw-r--r-- alpha\n" {
				t.Fatalf("a damaged journal changed the tree: %v", tree)
			}
			return
		}
		defer l.f.Close()
		names := map[string]bool{"a.md": true}
		for _, jf := range l.m.Files {
			names[jf.Path] = true
		}
		for rel := range x.tree() {
			if !names[rel] {
				t.Fatalf("recovery wrote %s, which the journal does not name", rel)
			}
		}
	})
}
