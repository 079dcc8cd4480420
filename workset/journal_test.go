package workset

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/safepath"
)

// writingRepo is a Repository that writes each file through write (the
// edit engine takes a repository's own WriteFile): a test makes a write
// fail, or ends the process, midway.
type writingRepo struct {
	Repository
	write func(path string, data []byte, perm os.FileMode, roots ...string) error
}

func (r writingRepo) WriteFile(path string, data []byte, perm os.FileMode, roots ...string) error {
	return r.write(path, data, perm, roots...)
}

// killedAfter runs write with a repository whose writes end the process,
// as a kill would, once n files are written (a panic the test catches:
// nothing after that point runs). It reports whether the kill came.
func killedAfter(t *testing.T, n int, repo Repository, write func(Repository)) (killed bool) {
	t.Helper()
	type kill struct{}
	calls := 0
	killing := writingRepo{repo, func(path string, data []byte, perm os.FileMode, roots ...string) error {
		if calls == n {
			panic(kill{})
		}
		calls++
		return safepath.WriteFile(path, data, perm, roots...)
	}}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(kill); !ok {
				panic(r)
			}
			killed = true
		}
	}()
	write(killing)
	return false
}

// finishInterrupted is what every command that opens a repository runs
// first (hooks.FinishWrites): the engine's recovery with this package's
// records.
func finishInterrupted(ctx context.Context, repo edit.Repo, root string, note func(string)) []safepath.Interrupted {
	return edit.Finish(ctx, repo, root, Records(root), note)
}

// items is every document of a fixture's working tree.
func items(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for rel, c := range indextest.Tree(t, root) {
		r, _ := filepath.Rel(root, rel)
		if !strings.HasPrefix(filepath.ToSlash(r), ".cache/") {
			out[filepath.ToSlash(r)] = c
		}
	}
	return out
}

// promoteFixture is a fixture with a workset w whose findings go to all
// four documents.
func promoteFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	if _, err := Create(context.Background(), f.env, "w", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}, Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	var notes strings.Builder
	for _, id := range []string{"A-1", "B-1", "C-1", "D-1"} {
		fmt.Fprintf(&notes, "- [%s] looked at %s\n- [%s] risk: %s may break\n", id, id, id, id)
	}
	f.write(filepath.Join(Dir, "w", NotesFile), notes.String())
	return f
}

// A promote killed after two of its four files is finished by the next
// command: the four files byte for byte as a promote not killed writes
// them, the findings recorded, so that promoting again writes nothing.
func TestPromoteKilledIsFinished(t *testing.T) {
	ctx := context.Background()
	args := PromoteArgs{Workset: "w", Apply: true}

	ref := promoteFixture(t)
	res, err := PromoteWorkset(ctx, idRepo{ref}, ref.env, args)
	if err != nil || len(res.Written) != 4 {
		t.Fatalf("the reference promote: %v, %+v", err, res)
	}
	want := items(t, ref.root)

	f := promoteFixture(t)
	before := items(t, f.root)
	if !killedAfter(t, 2, idRepo{f}, func(r Repository) { PromoteWorkset(ctx, r, f.env, args) }) { //nolint:errcheck // killed before it returns
		t.Fatal("the promote was not killed")
	}
	got := items(t, f.root)
	changed := 0
	for k := range before {
		if got[k] != before[k] {
			changed++
		}
	}
	if changed != 2 {
		t.Fatalf("%d files changed by the killed promote; want 2", changed)
	}
	if st, err := Findings(ctx, f.root, "w"); err != nil || countPromoted(st) != 0 {
		t.Fatalf("the killed promote recorded %d findings (%v); want none", countPromoted(st), err)
	}

	var notes []string
	done := finishInterrupted(ctx, idRepo{f}, f.root, func(s string) { notes = append(notes, s) })
	if len(done) != 1 || done[0].Outcome != safepath.Finished || len(done[0].Written) != 2 {
		t.Fatalf("edit.Finish = %+v", done)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "canon promote w (pid ") || !strings.Contains(notes[0], "it is finished now: the other 2 of its 4 files are written") {
		t.Errorf("notes %q", notes)
	}
	if got := items(t, f.root); !maps.Equal(got, want) {
		t.Fatalf("after the recovery the files differ from a promote not killed:\n%v\nwant\n%v", got, want)
	}
	if st, err := Findings(ctx, f.root, "w"); err != nil || countPromoted(st) != 8 {
		t.Fatalf("recorded %d findings (%v); want all 8", countPromoted(st), err)
	}
	again, err := PromoteWorkset(ctx, idRepo{f}, f.env, args)
	if err != nil || len(again.Written) != 0 || again.Counts[StatusAlready] != 8 {
		t.Fatalf("promoting again: %v, written %v, counts %v; want nothing written, 8 promoted before", err, again.Written, again.Counts)
	}
	if got := items(t, f.root); !maps.Equal(got, want) {
		t.Fatal("promoting again changed the files")
	}
}

func countPromoted(st []FindingState) int {
	n := 0
	for _, s := range st {
		if s.Promoted {
			n++
		}
	}
	return n
}

// A promote killed midway, then a person's edit of a file it had written:
// the next command leaves that file as the person left it, puts the
// others back, and records nothing.
func TestPromoteKilledThenEditedIsUndone(t *testing.T) {
	ctx := context.Background()
	f := promoteFixture(t)
	before := items(t, f.root)
	if !killedAfter(t, 2, idRepo{f}, func(r Repository) { PromoteWorkset(ctx, r, f.env, PromoteArgs{Workset: "w", Apply: true}) }) { //nolint:errcheck // killed
		t.Fatal("the promote was not killed")
	}
	var edited string
	for k, v := range items(t, f.root) {
		if v != before[k] {
			edited = k
			break
		}
	}
	p := filepath.Join(f.root, filepath.FromSlash(edited))
	mine := before[edited] + "my own line\n"
	must.OK(t, os.WriteFile(p, []byte(mine), 0o644))
	var notes []string
	done := finishInterrupted(ctx, idRepo{f}, f.root, func(s string) { notes = append(notes, s) })
	if len(done) != 1 || done[0].Outcome != safepath.Undone {
		t.Fatalf("edit.Finish = %+v", done)
	}
	want := maps.Clone(before)
	want[edited] = mine
	if got := items(t, f.root); !maps.Equal(got, want) {
		t.Fatalf("after the undo:\n%v\nwant\n%v", got, want)
	}
	if len(notes) != 1 || !strings.HasSuffix(notes[0], " was interrupted and is undone: "+edited+" changed since, and is left as it is; the 1 file it had written holds what it held before; run canon promote w again") {
		t.Errorf("notes %q", notes)
	}
	if st, _ := Findings(ctx, f.root, "w"); countPromoted(st) != 0 {
		t.Errorf("an undone promote recorded %d findings", countPromoted(st))
	}
}
