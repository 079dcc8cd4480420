package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/indextest/citool"
)

// TestBacklogMdOracle holds canon's write path to Backlog.md's own reader
// (issue 47): on a repository Backlog.md's CLI set up and seeded, an item
// canon creates and then claims, changes, logs and closes reads the same
// through `backlog task view` (title, status, assignee, labels,
// dependencies, priority, parent, description) as it does through canon
// show and as it was asked for; and an item Backlog.md creates and edits
// reads the same through canon show. The CLI is the npm package
// backlog.md, which .ci/run installs into scripts/out/backlog.
func TestBacklogMdOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Backlog.md's CLI about twenty times")
	}
	bl := findBacklogMd(t)
	dir := backlogMdRepo(t, bl)
	canon := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"canon", "-C", dir}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("canon %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	canon("init")

	// canon writes, Backlog.md reads.
	body := filepath.Join(t.TempDir(), "body.md")
	if err := os.WriteFile(body, []byte("Retry the webhook with backoff.\n\nThen give up and say so.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var made struct {
		Item struct{ ID string } `json:"item"`
	}
	decode(t, canon("new", "task", "Retry webhooks", "--set", "priority=high", "--set", "labels=cli", "--set", "labels=web",
		"--set", "dependencies=BACK-2", "--body", body, "--commit", "--json"), &made)
	top := made.Item.ID
	if top != "BACK-5" {
		t.Fatalf("canon new minted %s; Backlog.md's next is BACK-5", top)
	}
	want := oracleView{Title: "Retry webhooks", Status: "To Do", Assignees: []string{}, Labels: []string{"cli", "web"},
		Deps: []string{"BACK-2"}, Priority: "high", Description: "Retry the webhook with backoff.\n\nThen give up and say so."}
	sameEverywhere(t, bl, dir, canon, top, want)

	decode(t, canon("new", "task", "Retry webhooks: the child", "--parent", strings.ToLower(top), "--set", "assignee=bob", "--commit", "--json"), &made)
	child := made.Item.ID
	if child != top+".1" {
		t.Fatalf("canon new --parent %s minted %s; Backlog.md numbers a subtask under its parent: %s.1", top, child, top)
	}
	wantChild := oracleView{Title: "Retry webhooks: the child", Status: "To Do", Assignees: []string{"bob"}, Labels: []string{}, Deps: []string{}, Parent: top}
	sameEverywhere(t, bl, dir, canon, child, wantChild)
	if plain := blRun(t, bl, dir, "task", "view", top, "--plain"); !strings.Contains(plain, "- "+child+" - Retry webhooks: the child") {
		t.Errorf("backlog task view %s --plain does not list %s as its subtask:\n%s", top, child, plain)
	}

	canon("claim", top, "--as", "carol", "--commit")
	want.Status, want.Assignees, want.Edited = "In Progress", []string{"carol"}, true
	sameEverywhere(t, bl, dir, canon, top, want)

	canon("set", top, "priority=low", "--add", "labels=api", "--remove", "labels=web", "--add", "dependencies=BACK-3")
	want.Priority, want.Labels, want.Deps = "low", []string{"cli", "api"}, []string{"BACK-2", "BACK-3"}
	sameEverywhere(t, bl, dir, canon, top, want)

	canon("log", top, "backoff drafted", "--as", "codex")
	sameEverywhere(t, bl, dir, canon, top, want)
	// The line is in Backlog.md's Implementation Notes, as its task edit
	// --append-notes writes them; a second, from Backlog.md, comes after.
	blRun(t, bl, dir, "task", "edit", top, "--append-notes", "theirs too", "--plain")
	canon("log", top, "third line")
	notes := blNotes(t, bl, dir, top)
	if want := "[agent=codex] backoff drafted\n\ntheirs too\n\n"; !strings.Contains(notes, want) || !strings.HasSuffix(notes, " third line") {
		t.Errorf("backlog task view %s --plain shows the Implementation Notes as\n%q\nwant the three lines in order", top, notes)
	}
	// A workset's worklog line, promoted into a task without notes, goes
	// into Implementation Notes too, where Backlog.md shows it.
	canon("workset", "new", "w", "--seed", "BACK-4", "--depth", "0")
	if err := os.WriteFile(filepath.Join(dir, ".cache", "worksets", "w", "notes.md"), []byte("# Notes: w\n\n- [BACK-4] promoted line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	canon("promote", "w", "--agent", "codex")
	if notes := blNotes(t, bl, dir, "BACK-4"); !strings.HasSuffix(notes, "[agent=codex] promoted line") {
		t.Errorf("backlog task view BACK-4 --plain shows the Implementation Notes as\n%q\nwant the promoted line", notes)
	}
	canon("done", child, "--log", "finished", "--commit")
	wantChild.Status, wantChild.Edited = "Done", true
	sameEverywhere(t, bl, dir, canon, child, wantChild)
	plain := blRun(t, bl, dir, "task", "view", top, "--plain")
	for _, line := range []string{"Task " + top + " - Retry webhooks", "Status: ◒ In Progress", "Priority: Low", "Assignee: @carol", "Labels: cli, api"} {
		if !strings.Contains(plain, line+"\n") {
			t.Errorf("backlog task view %s --plain has no line %q:\n%s", top, line, plain)
		}
	}

	// Backlog.md writes, canon reads; then canon changes it and Backlog.md
	// reads that.
	out := blRun(t, bl, dir, "task", "create", "Backlog.md writes this", "-d", "Two lines\nof description", "-l", "x,y",
		"--priority", "medium", "--dep", top, "-a", "@dave", "-p", "BACK-1", "--plain")
	m := regexp.MustCompile(`(?m)^Task (\S+) - `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("backlog task create said no id:\n%s", out)
	}
	theirs := m[1]
	blRun(t, bl, dir, "task", "edit", theirs, "-s", "In Progress", "--add-label", "z", "--priority", "high", "--plain")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "Backlog.md's task")
	wantTheirs := oracleView{Title: "Backlog.md writes this", Status: "In Progress", Assignees: []string{"@dave"}, Labels: []string{"x", "y", "z"},
		Deps: []string{top}, Priority: "high", Parent: "BACK-1", Description: "Two lines\nof description", Edited: true}
	sameEverywhere(t, bl, dir, canon, theirs, wantTheirs)
	canon("done", theirs, "--commit")
	wantTheirs.Status = "Done"
	sameEverywhere(t, bl, dir, canon, theirs, wantTheirs)

	// What canon wrote passes canon's own check.
	canon("check", "--all")
}

// oracleView is what both readers must agree on about one task.
type oracleView struct {
	Title, Status       string
	Assignees, Labels   []string
	Deps                []string
	Priority, Parent    string
	Description         string
	Created, CreatedRaw string `json:"-"`
	Updated, UpdatedRaw string `json:"-"`
	// Edited says the task has the date of a last change: Backlog.md's
	// task edit adds updated_date at the first edit, and so must canon.
	Edited bool
}

// sameEverywhere checks that Backlog.md's reader and canon show read the
// task id as want says.
func sameEverywhere(t *testing.T, bl, dir string, canon func(...string) string, id string, want oracleView) {
	t.Helper()
	theirs := blView(t, bl, dir, id)
	ours := canonView(t, canon("show", id, "--json", "--text"))
	// The creation date: Backlog.md's instant, canon's frontmatter text.
	if c, err := time.Parse("2006-01-02 15:04", ours.CreatedRaw); err != nil || c.UTC().Format(time.RFC3339) != theirs.Created {
		t.Errorf("%s: created_date %q reads as %s in Backlog.md", id, ours.CreatedRaw, theirs.Created)
	}
	// The last change's date: none until the first edit, then the same
	// (Backlog.md's task edit adds updated_date, and so does canon).
	if u, err := time.Parse("2006-01-02 15:04", ours.UpdatedRaw); ours.UpdatedRaw != "" && (err != nil || u.UTC().Format(time.RFC3339) != theirs.Updated) ||
		ours.UpdatedRaw == "" && theirs.Updated != "" {
		t.Errorf("%s: updated_date %q reads as %q in Backlog.md", id, ours.UpdatedRaw, theirs.Updated)
	}
	theirs.Edited, ours.Edited = theirs.Updated != "", ours.UpdatedRaw != ""
	theirs.Created, ours.Created, ours.CreatedRaw = "", "", ""
	theirs.Updated, ours.UpdatedRaw = "", ""
	if !reflect.DeepEqual(theirs, want) {
		t.Errorf("%s through backlog task view:\n got %+v\nwant %+v", id, theirs, want)
	}
	if !reflect.DeepEqual(ours, want) {
		t.Errorf("%s through canon show:\n got %+v\nwant %+v", id, ours, want)
	}
}

// blNotes is a task's Implementation Notes as backlog task view --plain
// shows them.
func blNotes(t *testing.T, bl, dir, id string) string {
	t.Helper()
	plain := blRun(t, bl, dir, "task", "view", id, "--plain")
	_, notes, ok := strings.Cut(plain, "Implementation Notes:\n")
	if !ok {
		t.Fatalf("backlog task view %s --plain shows no Implementation Notes:\n%s", id, plain)
	}
	notes, _, _ = strings.Cut(notes, "\n\n\n")
	return strings.TrimSpace(strings.TrimLeft(notes, "-\n"))
}

// blView reads a task through backlog task view --json.
func blView(t *testing.T, bl, dir, id string) oracleView {
	t.Helper()
	var v struct {
		Task struct {
			Title, Status, CreatedAt string
			UpdatedAt                *string
			Assignees, Labels        []string
			Dependencies             []string
			Priority, ParentTaskID   *string
			Description              *string
		}
	}
	decode(t, blRun(t, bl, dir, "task", "view", id, "--json"), &v)
	tk := v.Task
	return oracleView{Title: tk.Title, Status: tk.Status, Assignees: tk.Assignees, Labels: tk.Labels, Deps: tk.Dependencies,
		Priority: deref(tk.Priority), Parent: deref(tk.ParentTaskID), Description: deref(tk.Description), Created: tk.CreatedAt, Updated: deref(tk.UpdatedAt)}
}

// canonView reads a task through canon show --json --text.
func canonView(t *testing.T, out string) oracleView {
	t.Helper()
	var d struct {
		Title, State string
		Frontmatter  map[string]any
		Sections     []struct{ Slug, Text string }
	}
	decode(t, out, &d)
	list := func(k string) []string {
		out := []string{}
		switch v := d.Frontmatter[k].(type) {
		case []any:
			for _, x := range v {
				out = append(out, fmt.Sprint(x))
			}
		case string:
			out = append(out, v)
		}
		return out
	}
	text := func(k string) string {
		if v, ok := d.Frontmatter[k].(string); ok {
			return v
		}
		return ""
	}
	v := oracleView{Title: d.Title, Status: d.State, Assignees: list("assignee"), Labels: list("labels"), Deps: list("dependencies"),
		Priority: text("priority"), Parent: text("parent_task_id"), CreatedRaw: text("created_date"), UpdatedRaw: text("updated_date")}
	for _, s := range d.Sections {
		if s.Slug == "description" {
			v.Description = s.Text
		}
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func decode(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
}

// findBacklogMd is Backlog.md's CLI as .ci/run installs it.
func findBacklogMd(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../../scripts/out/backlog/node_modules/.bin/backlog")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		citool.Need(t, "Backlog.md's CLI is not installed (%v); .ci/run installs it (npm install --prefix scripts/out/backlog backlog.md@1.52.0)", err)
	}
	if v, err := exec.Command(bin, "--version").Output(); err != nil || !strings.HasPrefix(strings.TrimSpace(string(v)), "1.") {
		citool.Need(t, "%s --version: %q, %v; these checks are for Backlog.md 1.x", bin, v, err)
	}
	return bin
}

// backlogMdRepo is a repository Backlog.md set up (backlog init, its
// BACK- prefix as on its own backlog) and seeded: four tasks, depending
// on one another, and a subtask.
func backlogMdRepo(t *testing.T, bl string) string {
	home := t.TempDir()
	gitconfig := "[user]\n\tname = Canon Test\n\temail = test@canon.invalid\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL": filepath.Join(home, ".gitconfig"), "TZ": "UTC", "NO_COLOR": "1", "CANON_AGENT": ""} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	blRun(t, bl, dir, "init", "oracle", "--defaults", "--integration-mode", "none", "--task-prefix", "back",
		"--check-branches", "false", "--include-remote", "false")
	blRun(t, bl, dir, "task", "create", "Seed one", "-d", "The first seed", "-l", "api", "--priority", "high")
	blRun(t, bl, dir, "task", "create", "Seed two", "--dep", "BACK-1", "-a", "@alice")
	blRun(t, bl, dir, "task", "create", "Seed three", "--dep", "BACK-2")
	blRun(t, bl, dir, "task", "create", "Seed four", "--priority", "low")
	blRun(t, bl, dir, "task", "create", "Seed child", "-p", "BACK-1", "--dep", "BACK-2")
	// Most are done, and one has a subtask: a new task still starts in
	// To Do (not the state most share), and a subtask is numbered under
	// its parent from the second on too.
	blRun(t, bl, dir, "task", "edit", "BACK-3", "BACK-4", "BACK-1.1", "-s", "Done")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "Backlog.md's backlog")
	return dir
}

// blRun runs Backlog.md's CLI in dir.
func blRun(t *testing.T, bl, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bl, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("backlog %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
