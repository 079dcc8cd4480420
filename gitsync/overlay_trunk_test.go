package gitsync

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

// commitOn makes a commit whose parents are parents and whose tree is the
// first parent's with files written ("" deletes one), without touching
// the working tree or the index.
func commitOn(t *testing.T, dir string, files map[string]string, parents ...string) string {
	t.Helper()
	idx := t.TempDir() + "/index"
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
		cmd.Env = append(ScrubbedEnv(), "GIT_INDEX_FILE="+idx, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if parents[0] == "" {
		run("", "read-tree", "--empty")
		parents = nil
	} else {
		run("", "read-tree", parents[0])
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if files[p] == "" {
			run("", "update-index", "--force-remove", p)
			continue
		}
		blob := run(files[p], "hash-object", "-w", "--stdin")
		run("", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
	}
	tree := run("", "write-tree")
	args := []string{"commit-tree", tree, "-m", "c"}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	return run("", args...)
}

func task(i int, state string) string {
	return fmt.Sprintf("---\nid: T-%d\ntitle: Task %d\nstate: %s\n---\n", i, i, state)
}

// trunkRepo is a default line of 40 commits changing, adding, deleting,
// moving and putting back tasks, a feature branch forked at its 5th and
// one forked at its 35th, and refs forked from points of the line: two at
// one point, one from another ref, one that merged the line since.
func trunkRepo(t *testing.T) (dir string, line []string) {
	dir = t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	files := map[string]string{}
	for i := 0; i < 10; i++ {
		files[fmt.Sprintf("backlog/t%d.md", i)] = task(i, "To Do")
	}
	line = append(line, commitOn(t, dir, files, ""))
	states := []string{"In Progress", "Done", "To Do", "Review"}
	for c := 1; c < 40; c++ {
		f := map[string]string{}
		switch c {
		case 13:
			f["backlog/t3.md"] = ""
		case 17:
			f["backlog/t3.md"] = task(3, "To Do") // back as it was
		case 21:
			f["backlog/t5.md"], f["backlog/done/t5.md"] = "", task(5, "To Do")
		default:
			i := c % 10
			if i == 3 || i == 5 {
				i = 0
			}
			f[fmt.Sprintf("backlog/t%d.md", i)] = task(i, states[c%len(states)])
			if c%7 == 0 {
				f[fmt.Sprintf("backlog/n%d.md", c)] = task(100+c, "To Do")
			}
		}
		line = append(line, commitOn(t, dir, f, line[c-1]))
	}
	feature := commitOn(t, dir, map[string]string{"backlog/t1.md": task(1, "Blocked")}, line[5])
	near := commitOn(t, dir, map[string]string{"notes.md": "# near\n"}, line[35])
	r20 := commitOn(t, dir, map[string]string{"backlog/t0.md": task(0, "To Do"), "backlog/t2.md": task(2, "Done")}, line[20])
	r30 := commitOn(t, dir, map[string]string{"backlog/x1.md": task(201, "In Progress"), "backlog/t7.md": task(7, "Done")}, line[30])
	side := commitOn(t, dir, map[string]string{"backlog/t6.md": task(6, "In Progress")}, line[12])
	merged := commitOn(t, dir, map[string]string{}, side, line[25])
	refs := map[string]string{
		"refs/heads/main":            line[39],
		"refs/heads/feature":         feature,
		"refs/heads/near":            near,
		"refs/remotes/origin/main":   line[39],
		"refs/remotes/origin/old":    line[33],
		"refs/remotes/origin/r10":    commitOn(t, dir, map[string]string{"backlog/t2.md": task(2, "In Progress")}, line[10]),
		"refs/remotes/origin/r20":    r20,
		"refs/remotes/origin/r20b":   commitOn(t, dir, map[string]string{"backlog/t4.md": ""}, line[20]),
		"refs/remotes/origin/r30":    r30,
		"refs/remotes/origin/r30x":   commitOn(t, dir, map[string]string{"backlog/t8.md": task(8, "Done")}, r30),
		"refs/remotes/origin/merged": commitOn(t, dir, map[string]string{"backlog/t9.md": task(9, "Done")}, merged),
		"refs/remotes/origin/mover":  commitOn(t, dir, map[string]string{"backlog/t1.md": "", "backlog/done/t1.md": task(1, "Done")}, line[38]),
	}
	var b strings.Builder
	for name, c := range refs {
		fmt.Fprintf(&b, "update %s %s\n", name, c)
	}
	gitIn(t, dir, b.String(), "update-ref", "--stdin")
	git(t, dir, "symbolic-ref", "HEAD", "refs/heads/main")
	git(t, dir, "reset", "-q", "--hard")
	return dir, line
}

// overlayAnswers is every answer the overlays give, as JSON.
func overlayAnswers(t *testing.T, s *Session) string {
	t.Helper()
	ctx := context.Background()
	var out []any
	// which commit a row names: a step keeps the one a row was made at,
	// a rebuild names the tip (verify compares neither)
	blank := func(over []index.OverlayDoc) []index.OverlayDoc {
		for i := range over {
			over[i].Commit, over[i].Author = "", ""
		}
		return over
	}
	all, err := s.Store.Overlay(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, blank(all))
	here, err := s.Store.OverlayOfHere(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, blank(here))
	for _, p := range []string{"backlog/t0.md", "backlog/t1.md", "backlog/t3.md", "backlog/t4.md", "backlog/t5.md", "backlog/done/t5.md", "backlog/n7.md"} {
		o, err := s.Store.Overlay(ctx, "", p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, blank(o))
	}
	for _, r := range []string{"refs/remotes/origin/r20", "refs/remotes/origin/main", "refs/heads/main"} {
		o, err := s.Store.Overlay(ctx, r, "")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.Store.RefDocs(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		for p, d := range rows {
			d.Commit, d.Author = "", ""
			rows[p] = d
		}
		out = append(out, blank(o), rows)
	}
	refs, err := s.Store.Refs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range refs {
		refs[i].Updated, refs[i].Trunk, refs[i].Seq, refs[i].TrunkCommit, refs[i].TrunkAuthor = 0, 0, 0, "", ""
		refs[i].BaseHead = ""
	}
	out = append(out, refs)
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameAsAlone checks that the overlays, as kept, equal a rebuild and give
// the answers the refs give diffed alone (no trunk), and says how many refs
// take a trunk.
func sameAsAlone(t *testing.T, s *Session, step string) int {
	t.Helper()
	ctx := context.Background()
	checkOverlays(t, s, step)
	kept := overlayAnswers(t, s)
	refs, _ := s.Store.Refs(ctx)
	var names []string
	lined := 0
	for _, r := range refs {
		names = append(names, r.Name)
		if r.Trunk != 0 {
			lined++
		}
	}
	head, _ := s.Store.Meta(index.MetaHead)
	forget := func() {
		if err := s.Store.ApplyRefs(ctx, nil, nil, head, names); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%s: %d refs take a trunk", step, lined)
	forget()
	useTrunks = false
	checkOverlays(t, s, step+", alone")
	useTrunks = true
	alone := overlayAnswers(t, s)
	if kept != alone {
		a, b := strings.Split(kept, "\n"), strings.Split(alone, "\n")
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				lo, hi := max(0, i-15), min(len(a), i+5)
				t.Fatalf("%s: the answers with trunks differ from the refs alone at line %d:\n%s\n--- alone:\n%s", step, i,
					strings.Join(a[lo:hi], "\n"), strings.Join(b[lo:min(len(b), i+5)], "\n"))
			}
		}
		t.Fatalf("%s: the answers with trunks differ from the refs alone (%d against %d lines)", step, len(a), len(b))
	}
	forget()
	checkOverlays(t, s, step+", again")
	if again := overlayAnswers(t, s); again != alone {
		t.Fatalf("%s: rebuilt with trunks, the answers differ", step)
	}
	return lined
}

// TestTrunksAnswerAsRefsAlone (ADR-0068): with HEAD on a branch that
// forked long ago, the refs forked after it share their rows of the
// default line's changes; every answer is the one the refs give diffed
// alone, after a switch, a ref's step, and the way back.
func TestTrunksAnswerAsRefsAlone(t *testing.T) {
	dir, line := trunkRepo(t)
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sameAsAlone(t, s, "on main")
	git(t, dir, "switch", "-q", "feature")
	checkOverlays(t, s, "feature, kept")
	if n := sameAsAlone(t, s, "on feature"); n < 5 {
		t.Fatalf("on feature %d refs take a trunk, want most", n)
	}
	// refs step on their trunk: a ref puts a document back as it was at
	// the merge base (it hides the trunk's row), another moves on
	r20 := git(t, dir, "rev-parse", "refs/remotes/origin/r20")
	git(t, dir, "update-ref", "refs/remotes/origin/r20", commitOn(t, dir, map[string]string{
		"backlog/t2.md": task(2, "To Do"), "backlog/t0.md": task(0, "Done"), "backlog/t9.md": task(9, "Done")}, r20))
	git(t, dir, "update-ref", "refs/remotes/origin/r10", commitOn(t, dir, map[string]string{"backlog/n7.md": ""}, line[10]))
	git(t, dir, "update-ref", "-d", "refs/remotes/origin/r20b")
	checkOverlays(t, s, "steps, kept")
	sameAsAlone(t, s, "steps")
	git(t, dir, "switch", "-q", "near")
	checkOverlays(t, s, "near, kept")
	sameAsAlone(t, s, "on near")
	git(t, dir, "switch", "-q", "main")
	checkOverlays(t, s, "back on main, kept")
	sameAsAlone(t, s, "back on main")
}
