package learn

import (
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/config"
)

func newFacts() *facts {
	return &facts{parents: map[string]map[string]int{}, states: map[string]int{}, archivedStates: map[string]int{},
		priorities: map[string]int{}, dates: map[string][2]int{}, archives: map[string]int{}, edgeFields: map[string][2]int{},
		ids: map[string][]string{}, schemaPriorities: map[string]map[string]int{}, schemaStates: map[string]map[string]int{}}
}

// TestParentsMajority: a parent kind one document in twenty or more uses
// joins the rule, with the evidence; rarer ones stay errors and are said;
// a rule the repository keeps stays, its exceptions noted.
func TestParentsMajority(t *testing.T) {
	f := newFacts()
	f.parents["task"] = map[string]int{"feature": 166, "story": 75, "epic": 12}
	f.parents["story"] = map[string]int{"feature": 99, "epic": 1}
	f.parents["bug"] = map[string]int{"story": 40, "epic": 3} // 3 of 43: 7%
	r := decide(f)
	got := r.Learned.Check.Parents
	if !slices.Equal(got["task"], []string{"story", "task", "feature"}) || !slices.Equal(got["bug"], []string{"story", "feature", "epic"}) {
		t.Fatalf("parents = %v", got)
	}
	if _, ok := got["story"]; ok {
		t.Fatalf("one story under an epic of 100 changed the rule: %v", got["story"])
	}
	if want := "166 of 253 tasks with a parent have a feature parent: tasks may sit under features here (exceptions, still reported: 12 under an epic)"; r.Evidence["check.parents.task"] != want {
		t.Fatalf("evidence = %q\nwant %q", r.Evidence["check.parents.task"], want)
	}
	if want := "check.parents.story [feature]: 99 of 100 stories with a parent keep it; the others are reported (1 under an epic)"; !slices.Contains(r.Kept, want) {
		t.Fatalf("kept = %q, want %q in it", r.Kept, want)
	}
}

// TestOneDocumentIsNoConvention: in a small repository one document is
// never a convention, whatever its share.
func TestOneDocumentIsNoConvention(t *testing.T) {
	f := newFacts()
	f.parents["task"] = map[string]int{"story": 3, "epic": 1}
	f.priorities = map[string]int{"high": 3, "low": 2, "urgent!": 1}
	r := decide(f)
	if r.Learned.Check != nil {
		t.Fatalf("learned %+v from one document", r.Learned.Check)
	}
	if !slices.Equal(r.Learned.Work.Priorities, []string{"high", "low"}) || !strings.Contains(r.Evidence["work.priorities"], "left out as exceptions: urgent! 1") {
		t.Fatalf("priorities = %v, %q", r.Learned.Work.Priorities, r.Evidence["work.priorities"])
	}
}

// TestSchemasWhereKanoHolds: ids mostly off the default pattern get the
// repository's pattern; mostly on it, the rule stays; without a Kano id
// nothing is learned, as the schemas check nothing there.
func TestSchemasWhereKanoHolds(t *testing.T) {
	f := newFacts()
	f.kano = true
	f.ids["task"] = []string{"APP-1", "APP-2", "APP-3", "KB-TSK-0001"}
	f.ids["bug"] = []string{"KB-BUG-0001", "KB-BUG-0002", "BUG-3"}
	f.schemaPriorities["task"] = map[string]int{"high": 3, "P1": 1, "hihg": 1}
	r := decide(f)
	s := r.Learned.Check.Schemas
	if s["task"].IDPattern != `^(?:APP)-[0-9]+(?:\.[0-9]+)*$` || !slices.Equal(s["task"].Priorities, []string{"P0", "P1", "P2", "P3", "P4", "high"}) {
		t.Fatalf("task schema = %+v", s["task"])
	}
	if _, ok := s["bug"]; ok {
		t.Fatalf("bug ids mostly keep the pattern, yet %+v", s["bug"])
	}
	if r.Evidence["check.schemas.task.id_pattern"] != "3 of 4 task ids do not match ^[A-Z][A-Z0-9]*-TSK-[0-9]{4,}$" {
		t.Fatalf("evidence %q", r.Evidence["check.schemas.task.id_pattern"])
	}
	if want := "3 of 5 tasks use high: priorities of this repository (exceptions, still reported: hihg 1)"; r.Evidence["check.schemas.task.priorities"] != want {
		t.Fatalf("evidence %q, want %q", r.Evidence["check.schemas.task.priorities"], want)
	}
	f.kano = false
	if r := decide(f); r.Learned.Check != nil {
		t.Fatalf("learned schemas where Kano's do not hold: %+v", r.Learned.Check)
	}
}

func TestStatesDatesArchiveEdges(t *testing.T) {
	f := newFacts()
	f.tool, f.toolWhy, f.toolStatuses = "backlog.md", "backlog/config.yml", []string{"To Do", "In Progress", "Done"}
	f.states = map[string]int{"To Do": 5, "Done": 2, "Won't Do": 1, "to do": 1, "Doen": 1}
	f.dates = map[string][2]int{"created_date": {20, 20}, "updated": {1, 4}, "updated_date": {18, 20}}
	f.archives = map[string]int{"backlog/completed/": 4, "backlog/archive/": 2}
	f.edgeFields = map[string][2]int{"parent_task_id": {3, 4}, "dependencies": {1, 5}}
	f.atDocs = 2
	r := decide(f)
	l := r.Learned
	if !slices.Equal(l.States.Open, []string{"To Do", "In Progress"}) || !slices.Equal(l.States.Done, []string{"Done", "Won't Do"}) {
		t.Fatalf("states = %+v", l.States)
	}
	if !slices.Equal(l.Check.Dates, []string{"created", "date", "due", "closed", "created_date"}) {
		t.Fatalf("dates = %v (updated holds 1 date in 4; updated_date 18 of 20 is below 95%%)", l.Check.Dates)
	}
	if !slices.Equal(l.Work.Archive, []string{"backlog/archive/", "backlog/completed/"}) {
		t.Fatalf("archive = %v", l.Work.Archive)
	}
	if l.Edges["parent_task_id"] != "parent" || l.Edges["dependencies"] != "" {
		t.Fatalf("edges = %v", l.Edges)
	}
	if !slices.Equal(l.Frontmatter.TextFields, []string{"assignee", "reporter", "due_date"}) ||
		!strings.HasPrefix(r.Evidence["frontmatter.text_fields"], "2 documents write an @ value") {
		t.Fatalf("frontmatter = %+v, %q", l.Frontmatter, r.Evidence["frontmatter.text_fields"])
	}
}

// TestProposalStates: the EIPs' process states. Final, Withdrawn and Moved
// end a proposal; Living (a process document kept current) and Stagnant
// (no activity for six months) are not work to take either: 238 stagnant
// proposals were listed as ready work. Draft, Review and Last Call stay
// open, in the order work moves.
func TestProposalStates(t *testing.T) {
	f := newFacts()
	f.states = map[string]int{"Moved": 365, "Stagnant": 238, "Final": 138, "Draft": 132, "Withdrawn": 35, "Review": 34, "Last Call": 5, "Living": 3}
	l := decide(f).Learned
	if l.States == nil {
		t.Fatal("no states learned")
	}
	for _, s := range []string{"Draft", "Review", "Last Call"} {
		if !slices.Contains(l.States.Open, s) || slices.Contains(l.States.Done, s) {
			t.Errorf("%s is not an open state: %+v", s, l.States)
		}
	}
	for _, s := range []string{"Moved", "Stagnant", "Final", "Withdrawn", "Living"} {
		if !slices.Contains(l.States.Done, s) || slices.Contains(l.States.Open, s) {
			t.Errorf("%s is not a done state: %+v", s, l.States)
		}
	}
}

// TestBlockParses: the block is YAML the configuration reads back to the
// values learned, every comment line within 78 columns.
func TestBlockParses(t *testing.T) {
	f := newFacts()
	f.tool, f.toolWhy, f.toolStatuses = "backlog.md", "backlog/config.yml", []string{"To Do", "Won't Do", "Done: really"}
	f.parents["task"] = map[string]int{"feature": 10}
	f.priorities = map[string]int{"yes": 2, "P1": 3, "#1": 2}
	r := decide(f)
	block := r.Block()
	for _, line := range strings.Split(block, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") && len(line) > 78 && !strings.HasPrefix(line, "# >>>") {
			t.Errorf("comment line of %d columns: %q", len(line), line)
		}
	}
	cfg, err := config.Parse(config.File, []byte(block))
	if err != nil {
		t.Fatalf("%v\n%s", err, block)
	}
	if !slices.Equal(cfg.States.Open, []string{"To Do", "Done: really"}) || !slices.Equal(cfg.States.Done, []string{"Won't Do"}) ||
		!slices.Equal(cfg.Work.Priorities, []string{"P1", "#1", "yes"}) || !slices.Equal(cfg.Check.Parents["task"], []string{"story", "task", "feature"}) {
		t.Fatalf("read back: states %+v, priorities %v, parents %v\n%s", cfg.States, cfg.Work.Priorities, cfg.Check.Parents, block)
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(block), &n); err != nil {
		t.Fatal(err)
	}
}

// TestSchemesIDsAreThePattern: under ids.scheme random, ids the scheme
// minted (KB-TSK-7f3a9c) match Kano's pattern, so nothing is learned nor
// kept as exceptions; an APP series minted so learns APP's pattern, which
// takes them.
func TestSchemesIDsAreThePattern(t *testing.T) {
	f := newFacts()
	f.kano = true
	f.scheme = config.IDs{Scheme: config.SchemeRandom, Digits: 6}
	f.ids["task"] = []string{"KB-TSK-7f3a9c", "KB-TSK-0b2e4a", "KB-TSK-0001", "KB-TSK-c0ffe1"}
	f.ids["bug"] = []string{"APP-3e9a10", "APP-77b2c4", "APP-12"}
	r := decide(f)
	var s map[string]config.LearnedSchema
	if r.Learned.Check != nil {
		s = r.Learned.Check.Schemas
	}
	if _, ok := s["task"]; ok || slices.ContainsFunc(r.Kept, func(k string) bool { return strings.Contains(k, "check.schemas.task") }) {
		t.Fatalf("random task ids taken for exceptions: %+v, kept %q", s["task"], r.Kept)
	}
	if s["bug"].IDPattern != `^(?:APP)-[0-9]+(?:\.[0-9]+)*$` {
		t.Fatalf("bug schema = %+v, want APP's pattern", s["bug"])
	}
}

// TestBacklogMdOwnFields: in a new Backlog.md backlog its task_prefix
// makes its tasks tasks, and its parent_task_id and dependencies are
// edges from the first value that names an item; one that names nothing
// is not taken on the tool's word.
func TestBacklogMdOwnFields(t *testing.T) {
	f := newFacts()
	f.tool, f.toolWhy, f.toolPrefix = "backlog.md", "backlog/config.yml", "back"
	f.edgeFields = map[string][2]int{"parent_task_id": {1, 1}, "dependencies": {0, 1}}
	f.toolTaskPrefix()
	r := decide(f)
	if r.Learned.Prefixes["task"] != "back" || !strings.Contains(r.Evidence["prefixes"], "task_prefix is back") {
		t.Errorf("prefixes = %v (%s)", r.Learned.Prefixes, r.Evidence["prefixes"])
	}
	if r.Learned.Edges["parent_task_id"] != "parent" || r.Learned.Edges["dependencies"] != "" {
		t.Errorf("edges = %v", r.Learned.Edges)
	}
	g := newFacts()
	g.tool, g.toolPrefix = "backlog.md", "task"
	g.toolTaskPrefix()
	if len(g.prefixes) != 0 {
		t.Errorf("task_prefix task mapped: %v", g.prefixes)
	}
}
