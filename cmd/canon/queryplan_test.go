package main

import (
	"bytes"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/planguard"
)

// TestQueryPlans is the query-plan guard (ADR-0034) on what runs on every
// commit, checkout and merge, and on the questions agents ask most: a full
// scan of a table that grows with the repository fails here, with the
// statement and its plan, unless planguard.Allowed says why it may (the
// MCP tools: cmd/internal/mcpserver).
func TestQueryPlans(t *testing.T) {
	var dir string
	canon := func(wantCode int, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"canon", "-C", dir}, args...), &out, &errb); code != wantCode {
			t.Fatalf("canon %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, wantCode, out.String(), errb.String())
		}
		return out.String()
	}
	git := func(args ...string) string { t.Helper(); return planguard.Git(t, dir, args...) }
	dir = planguard.Repo(t, 300)
	for _, kv := range planguard.GitEnv() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") {
			t.Setenv(k, v)
		}
	}
	canon(0, "index", "--full")
	planguard.ForgetStats(t, dir)
	r := planguard.Watch(t, dir)
	r.Take()
	guard := func(path string) { t.Helper(); r.Check(t, path, planguard.Allowed) }

	item := strings.SplitN(git("ls-files", "--", "*/items/*.md"), "\n", 2)[0]
	orig := git("show", "HEAD:"+item) + "\n"

	// The pre-commit check: one staged item that stays clean (one side is
	// checked), then one with a new problem (both sides are).
	planguard.Write(t, dir, item, orig+"\nA staged line.\n")
	git("add", item)
	canon(0, "check")
	guard("canon check (one staged item)")
	planguard.Write(t, dir, item, orig+"\nA [broken link](nowhere.md).\n")
	git("add", item)
	canon(1, "check")
	guard("canon check (one staged item with a new problem)")
	// A group's depends_on that closes a loop: the group-cycle rule
	// follows the groups upstream.
	planguard.Write(t, dir, "groups/g-5.md", "---\nid: G-5\ntype: Group\ntitle: Group 5\ndepends_on: [G-1]\n---\n# Group 5\n")
	git("add", "groups/g-5.md")
	if out := canon(1, "check"); !strings.Contains(out, "group-cycle") {
		t.Fatalf("canon check did not find the loop:\n%s", out)
	}
	guard("canon check (a staged group closing a loop)")
	git("reset", "-q", "--hard")
	// A new item whose id is not Kano's: whether the repository follows
	// Kano's convention decides its schema.
	planguard.Write(t, dir, "notes/x-1.md", "---\nid: X-1\ntype: Task\ntitle: Not Kano's\nstate: Ready\n---\n# Not Kano's\n")
	git("add", "notes/x-1.md")
	canon(1, "check")
	guard("canon check (a staged item with an id not Kano's)")
	git("rm", "-q", "--cached", "notes/x-1.md")
	git("clean", "-qf", "notes")
	// A copy of the item (its id and uid twice) that blocks another item
	// that does not say so, under a parent, linking to a heading the
	// other lacks: every read of the rules on a few documents (the
	// duplicates' other locations, their keys and opt-outs, the edge the
	// other way, the target's headings, the parent chain).
	other := strings.SplitN(git("ls-files", "--", "*/items/*.md"), "\n", 3)[1]
	otherID := strings.TrimSuffix(other[strings.LastIndex(other, "/")+1:], ".md")
	otherID, _, _ = strings.Cut(otherID, "_")
	copyOf := strings.Replace(orig, "\ntitle:", "\nblocks: ["+otherID+"]\ntitle:", 1) + "\nSee [the other](" + relPath(item, other) + "#no-such-heading).\n"
	planguard.Write(t, dir, item+".copy.md", copyOf)
	git("add", item+".copy.md")
	if out := canon(1, "check"); !strings.Contains(out, "duplicate-id") || !strings.Contains(out, "broken-anchor") || !strings.Contains(out, "asymmetric-block") {
		t.Fatalf("canon check did not find the duplicate, the anchor and the one-sided block:\n%s", out)
	}
	guard("canon check (a staged copy of an item)")
	git("rm", "-q", "--cached", item+".copy.md")
	git("clean", "-qf", "--", item+".copy.md")
	canon(0, "sync")
	r.Take()

	// check --all reads every document, link and stored problem once, by
	// design (planguard.WholeCheck); nothing else may read a table whole.
	canon(1, "check", "--all") // GT-1 is not shaped like a Kano task's id
	r.Check(t, "canon check --all", merged(planguard.Allowed, planguard.WholeCheck))

	// The hooks: a one-document commit, a checkout of a branch and back,
	// a merge.
	planguard.Write(t, dir, item, orig+"\nA committed line.\n")
	git("commit", "-qam", "one item")
	canon(0, "hook", "post-commit")
	guard("canon hook post-commit (one document)")
	main := git("rev-parse", "HEAD")
	git("checkout", "-qb", "topic", "HEAD^")
	canon(0, "hook", "post-checkout", main, git("rev-parse", "HEAD"), "1")
	guard("canon hook post-checkout (one document)")
	planguard.Write(t, dir, "groups/g-1.md", "---\nid: G-1\ntype: Group\ntitle: Group one\ndepends_on: [G-2]\n---\n# Group 1\n")
	git("commit", "-qam", "a group")
	canon(0, "hook", "post-commit")
	topic := git("rev-parse", "HEAD")
	git("checkout", "-q", "main")
	canon(0, "hook", "post-checkout", topic, main, "1")
	r.Take()
	git("merge", "-q", "--no-edit", "topic")
	canon(0, "hook", "post-merge", "0")
	guard("canon hook post-merge (two documents)")

	// The questions: each a process of its own, as a user's.
	id := strings.TrimSuffix(item[strings.LastIndex(item, "/")+1:], ".md")
	id, _, _ = strings.Cut(id, "_")
	for _, args := range [][]string{
		{"search", "webhook retry"},
		{"show", id},
		{"context", "webhook retry", "--budget", "4000"},
		{"context", "--for", "GT-1", "--budget", "4000"},
		{"ready"},
		{"status"},
		// A write's reads of ids (ADR-0085): the series' rows, not every id.
		{"id", "next", "task"},
		{"new", "task", "A guarded item", "--dry-run"},
	} {
		canon(0, args...)
		guard("canon " + strings.Join(args, " "))
	}
}

// relPath is the path of target relative to the folder of src (both repo
// paths), as a Markdown link writes it.
func relPath(src, target string) string {
	rel, err := filepath.Rel(filepath.Dir(src), target)
	if err != nil {
		return target
	}
	return filepath.ToSlash(rel)
}

// merged is the union of allowed lists.
func merged(lists ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, l := range lists {
		maps.Copy(out, l)
	}
	return out
}
