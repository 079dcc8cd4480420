package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const learnedBlock = LearnedBegin + `
learned:
  tool: backlog.md
  frontmatter: {text_fields: [assignee]}
  edges: {parent_task_id: parent}
  states: {open: [To Do, In Progress], done: [Done]}
  check:
    parents: {task: [story, task, feature]}
    schemas: {task: {priorities: [high, low]}}
    dates: [created_date]
  work: {priorities: [high, low], archive: [backlog/archive/]}
` + LearnedEnd + "\n"

// TestLearnedShortcut: Load reads only the learned block after an
// unchanged template; the result is what parsing the whole file gives.
func TestLearnedShortcut(t *testing.T) {
	t.Parallel()
	data := Template + "\n" + learnedBlock
	parsed, err := Parse(File, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg := learnedAfterTemplate([]byte(data)); cfg == nil {
		t.Fatalf("the shortcut was not taken: %v", err)
	}
	loaded, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded, parsed) {
		t.Fatalf("Load and Parse differ:\n%+v\n%+v", loaded, parsed)
	}
	if !slices.Equal(loaded.Check.Parents["task"], []string{"story", "task", "feature"}) || loaded.Tool != "backlog.md" ||
		loaded.Edges["parent_task_id"] != "parent" || !slices.Equal(loaded.States.Open, []string{"To Do", "In Progress"}) ||
		!slices.Equal(loaded.Check.Schemas["task"].Priorities, []string{"high", "low"}) || loaded.Check.SchemasSet["task"] ||
		!slices.Equal(loaded.Check.Dates, []string{"created_date"}) || !loaded.Work.Archived("backlog/archive/x.md") ||
		loaded.Work.Archived("archive/x.md") || !slices.Equal(loaded.Frontmatter.TextFields, []string{"assignee"}) {
		t.Fatalf("the learned values are not in effect: %+v", loaded)
	}
	if loaded.IndexHash() == Default().IndexHash() {
		t.Fatal("text fields and edges read documents otherwise, so the index hash must change")
	}
	// Another key after the template: the whole file is parsed (and a
	// second check: is a duplicate key).
	if cfg := learnedAfterTemplate([]byte(Template + "work: {limit: 3}\n")); cfg != nil {
		t.Fatal("the shortcut was taken for a file with keys of its own")
	}
}

// TestLearnedYieldsToTheFile: a setting the file gives a value other than
// the default wins over the learned one; one equal to the default (the
// template repeats them) does not.
func TestLearnedYieldsToTheFile(t *testing.T) {
	t.Parallel()
	file := `states: {open: [Open], done: [Closed]}
check:
  parents: {task: [story]}
  dates: [created, updated, date, due, closed]
edges: {parent_task_id: none}
frontmatter: {text_fields: []}
work: {priorities: [p1, p2]}
` + learnedBlock
	cfg, err := Parse(File, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.States.Open, []string{"Open"}) || !slices.Equal(cfg.Check.Parents["task"], []string{"story"}) ||
		len(cfg.Frontmatter.TextFields) != 0 || !slices.Equal(cfg.Work.Priorities, []string{"p1", "p2"}) {
		t.Fatalf("a setting of the file lost to the learned one: %+v", cfg)
	}
	if _, ok := cfg.Edges["parent_task_id"]; ok {
		t.Fatal("edges: parent_task_id: none in the file lost to the learned edge")
	}
	if !slices.Equal(cfg.Check.Dates, []string{"created_date"}) {
		t.Fatalf("dates equal to the default did not yield: %v", cfg.Check.Dates)
	}
}

func TestLearnedBlock(t *testing.T) {
	t.Parallel()
	data := "roots: [.]\n\n" + learnedBlock + "exclude: [x/]\n"
	start, end, ok, err := LearnedBlock([]byte(data))
	if err != nil || !ok || data[start:end] != learnedBlock {
		t.Fatalf("LearnedBlock = %d, %d, %v, %v", start, end, ok, err)
	}
	for _, bad := range []string{
		"learned:\n  tool: x\n",
		LearnedBegin + "\nlearned: {}\n",
	} {
		if _, _, _, err := LearnedBlock([]byte(bad)); err == nil {
			t.Errorf("LearnedBlock(%q) found no fault", bad)
		}
	}
	if _, err := Parse(File, []byte("learned: {check: {schemas: {task: {id_pattern: '('}}}}\n")); err == nil || !strings.Contains(err.Error(), "id_pattern") {
		t.Fatalf("a bad learned pattern: %v", err)
	}
	if _, err := Parse(File, []byte("learned: {colour: red}\n")); err == nil {
		t.Fatal("an unknown learned key was accepted")
	}
}
