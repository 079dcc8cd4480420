package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// Thresholds of the one rule (see the package doc).
const (
	// RareShare: a value used by fewer than one document in twenty of its
	// kind is an exception.
	RareShare = 0.05
	// MinCount: a value one document uses is an exception.
	MinCount = 2
)

// Result is what learning found: the learned block's values, the evidence
// for each (keyed by its dotted key, "check.parents.task"), and the
// defaults the repository keeps, with their exceptions.
type Result struct {
	Learned  config.Learned    `json:"learned"`
	Evidence map[string]string `json:"evidence"`
	Kept     []string          `json:"kept"`
}

// facts are the counts learning decides from; gathered from the index and
// the files, decided by pure functions (tested on their own).
type facts struct {
	tool, toolWhy    string
	toolStatuses     []string                  // the tool's own list of statuses, in order
	toolPrefix       string                    // the tool's own task id prefix (Backlog.md's task_prefix), lower case
	atDocs           int                       // documents YAML refuses at a text field's @ value
	parents          map[string]map[string]int // kind → parent kind → documents
	states           map[string]int            // state → live work items
	archivedStates   map[string]int            // state → archived work items
	priorities       map[string]int
	dates            map[string][2]int // field → documents with a date, with a value
	archives         map[string]int    // archive folder → documents
	edgeFields       map[string][2]int // field → values naming an item, values
	prefixes         map[string]string // an old id prefix → the one in use now (config.Prefixes)
	prefixWhy        map[string]string // its evidence
	bare             []string          // prefixes whose documents a bare number names (config.BareNumbers)
	bareWhy          string            // its evidence
	repoURLs         []string          // the repository's own web addresses (config.RepoURLs)
	repoURLWhy       []string          // their evidence
	ids              map[string][]string
	kano             bool                      // a Kano-shaped id exists: Kano's schemas hold
	scheme           config.IDs                // how ids are minted: a minted id matches as its prefix and a number
	schemaPriorities map[string]map[string]int // kind → priority → documents the schema checks
	schemaStates     map[string]map[string]int
	templates        []templateNote            // files to copy, not documents (templates.go)
	fixtureDocs      map[string]int            // fixture folder → documents with an id in it (fixtures.go)
	fixtureIDs       []fixtureCopy             // documents with an id in a fixture folder
	idOutside        map[string]string         // id → a document outside the fixture folders that has it
	stateFields      map[string]map[string]int // a candidate state field → value → documents (statefield.go)
	stateDocs        int                       // documents that write state: or status:
	root             string                    // the repository's, where sidecars are read (sidecars.go)
	sidecars         map[string]*sidecarFacts  // a candidate sidecar's name → what it holds
}

// Learn reads the index q of the repository at root, built with cfg.
func Learn(ctx context.Context, q index.Querier, root string, cfg *config.Config) (*Result, error) {
	f, err := gather(ctx, q, root, cfg)
	if err != nil {
		return nil, err
	}
	return decide(f), nil
}

// archiveNames are the folder names that hold finished or archived work.
var archiveNames = map[string]bool{"archive": true, "archived": true, "_archive": true, "completed": true, "done": true, "_trash": true, "trash": true}

// edgeCandidates are frontmatter fields tools write for edges canon's
// defaults do not read: Backlog.md's parent_task_id and dependencies.
var edgeCandidates = map[string]string{"parent_task_id": "parent", "parent_id": "parent", "dependencies": "depends_on", "depends": "depends_on", "requires": "depends_on",
	"relates_to": "relates", "related_to": "relates", "related": "relates", "see_also": "relates"}

// defaultEdges are the fields canon reads as edges by default: a field
// the learned block maps is judged again each time.
var defaultEdges = config.DefaultEdges()

// atValue reports a document whose frontmatter has an @ value in one of
// fields: one YAML refuses unless the field is read as text.
func atValue(m map[string]json.RawMessage, fields []string) bool {
	for _, f := range fields {
		for _, v := range texts(m[f]) {
			if strings.HasPrefix(v, "@") {
				return true
			}
		}
	}
	return false
}

// textFieldsOf are the tools' fields read as text before YAML.
var textFieldsOf = map[string][]string{"backlog.md": {"assignee", "reporter", "due_date"}}

// gather reads the facts the learned settings are decided from: each
// document's names, fields and states (readDoc), then what the references
// between them say (learnReferences), the parents' kinds and the
// documents YAML would refuse.
func gather(ctx context.Context, q index.Querier, root string, cfg *config.Config) (*facts, error) {
	f := &facts{parents: map[string]map[string]int{}, states: map[string]int{}, archivedStates: map[string]int{},
		priorities: map[string]int{}, dates: map[string][2]int{}, archives: map[string]int{}, edgeFields: map[string][2]int{},
		ids: map[string][]string{}, schemaPriorities: map[string]map[string]int{}, schemaStates: map[string]map[string]int{}}
	f.scheme = cfg.IDs
	f.root = root
	if err := f.detectTool(root); err != nil {
		return nil, err
	}
	g := &gathered{names: map[string]bool{}, pages: map[string]bool{}, folders: map[string]bool{}, numbers: map[string]map[string]bool{}}
	err := checkreads.EachLearnDoc(ctx, q, func(d checkreads.LearnDoc) error {
		f.readDoc(g, cfg, docRow{path: d.Path, kind: d.Kind, typ: d.Type, ident: d.Ident, fm: d.FM})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := f.learnReferences(ctx, q, g); err != nil {
		return nil, err
	}
	if err := f.parentPairs(ctx, q); err != nil {
		return nil, err
	}
	if fields := textFieldsOf[f.tool]; len(fields) > 0 {
		n, err := atDocuments(ctx, q, root, cfg, fields, g.atPaths)
		if err != nil {
			return nil, err
		}
		f.atDocs = n
	}
	return f, nil
}

// gathered is what gather collects from the documents beyond the facts,
// for the references' judgement once every document is read.
type gathered struct {
	names    map[string]bool            // lower-cased ids and stems: what a reference may name
	pages    map[string]bool            // lower-cased paths of the documents, and folders with a README or index page
	folders  map[string]bool            // prefixes that name folders (numberedFolders)
	numbers  map[string]map[string]bool // a number → the id prefixes in use with it
	atPaths  []string                   // documents with an @ value in a text field
	edgeVals []edgeVal                  // values of the fields tools write for edges
}

// edgeVal is one value of a field that may hold references.
type edgeVal struct{ field, v string }

// docRow is one document as gather reads it from the index.
type docRow struct{ path, kind, typ, ident, fm string }

// readDoc notes what one document says: its names, its frontmatter's
// dates and references, and, for a document a schema checks or a work
// item, its states and priorities.
func (f *facts) readDoc(g *gathered, cfg *config.Config, d docRow) {
	f.noteNames(g, cfg, d)
	f.noteIdent(d.path, d.ident)
	var m map[string]json.RawMessage
	if d.fm != "" && json.Unmarshal([]byte(d.fm), &m) != nil {
		f.noteTemplate(d, nil) // by its name alone
		return
	}
	m = f.noteSidecar(d.path, m) // a README's fields may be beside it (kep.yaml)
	if f.noteTemplate(d, m) {
		return // its values are placeholders: no evidence of the repository's conventions
	}
	f.noteStateFields(m)
	for field, raw := range m {
		if s, ok := text(raw); ok {
			dt := f.dates[field]
			dt[1]++
			if check.IsDate(s) {
				dt[0]++
			}
			f.dates[field] = dt
		}
		if _, isEdge := defaultEdges[field]; !isEdge && edgeCandidates[field] != "" {
			for _, v := range refTexts(raw) {
				g.edgeVals = append(g.edgeVals, edgeVal{field, v})
			}
		}
	}
	if atValue(m, textFieldsOf[f.tool]) {
		g.atPaths = append(g.atPaths, d.path) // read with the tool's rules already
	}
	if _, ok := cfg.Check.Schemas[d.kind]; ok && d.typ != "" && d.kind != "adr" {
		f.ids[d.kind] = append(f.ids[d.kind], d.ident)
		if s, ok := text(m["priority"]); ok {
			count(f.schemaPriorities, d.kind, s)
		}
		st, ok := text(m["state"])
		if !ok {
			st, ok = text(m["status"])
		}
		if ok {
			count(f.schemaStates, d.kind, st)
		}
	}
	if cfg.Work.IsWork(d.kind) {
		f.noteWork(cfg, d, m)
	}
}

// noteNames notes the names a reference may use for a document (its id,
// its stem, its path, its folder's when it is the folder's page), the
// numbers its id prefixes, and the archive folder it sits in.
func (f *facts) noteNames(g *gathered, cfg *config.Config, d docRow) {
	p, ident := d.path, d.ident
	g.names[strings.ToLower(markdown.Stem(p))] = true
	g.pages[strings.ToLower(p)] = true
	numberedFolders(p, g.folders)
	if stem := strings.ToLower(markdown.Stem(p)); stem == "readme" || stem == "index" {
		g.pages[folderKey(p)] = true
	}
	if ident != "" {
		g.names[strings.ToLower(ident)] = true
		f.kano = f.kano || check.KanoShaped(cfg.IDs, ident)
	}
	id := ident
	if id == "" {
		id = markdown.Stem(p) // eip-2718.md: named eip-2718
	}
	if p, n, ok := resolve.PrefixNumber(id); ok {
		n = strings.ToLower(n)
		if g.numbers[n] == nil {
			g.numbers[n] = map[string]bool{}
		}
		g.numbers[n][p] = true
	}
	if dir := archiveDir(p); dir != "" {
		f.archives[dir]++
	}
}

// noteWork counts a work item's state, live or archived, and its
// priority; a note (a doc without type or id) counts only a state that
// ends work.
func (f *facts) noteWork(cfg *config.Config, d docRow, m map[string]json.RawMessage) {
	p := d.path
	st, ok := text(m["state"])
	if !ok {
		st, ok = text(m["status"])
	}
	if d.kind == "doc" && d.typ == "" && d.ident == "" {
		// A note, not a work item; canon ready still counts it by its
		// state, so a state that ends work is learned from it too (the
		// EIPs' 365 stubs in state Moved). Other states of notes stay
		// unknown: learned, they would list every note as work.
		if ok && doneWords[strings.ToLower(st)] && !cfg.Work.Archived(p) && archiveDir(p) == "" {
			f.states[st]++
		}
		return
	}
	if ok && st != "" {
		if cfg.Work.Archived(p) || archiveDir(p) != "" {
			f.archivedStates[st]++
		} else {
			f.states[st]++
		}
	}
	if pr, ok := text(m["priority"]); ok && pr != "" {
		f.priorities[pr]++
	}
}

// learnReferences judges the references the documents hold once every
// name is known: the old id prefixes and bare numbers they use, the
// repository's own addresses, and which fields tools write for edges
// name items.
func (f *facts) learnReferences(ctx context.Context, q index.Querier, g *gathered) error {
	names := g.names
	unnamed, err := oldPrefixRefs(ctx, q, names)
	if err != nil {
		return err
	}
	for _, ev := range g.edgeVals {
		if !resolve.RefNamesAFile(ev.v) && !names[strings.ToLower(ev.v)] {
			unnamed = append(unnamed, ev.v)
		}
	}
	f.learnPrefixes(unnamed, g.numbers, g.folders)
	f.toolTaskPrefix()
	var bareVals []string
	for _, ev := range g.edgeVals {
		bareVals = append(bareVals, ev.v)
	}
	f.learnBare(bareVals, names, g.numbers)
	if err := f.learnRepoURLs(ctx, q, g.pages); err != nil {
		return err
	}
	for _, ev := range g.edgeVals {
		if resolve.RefNamesAFile(ev.v) {
			continue // a folder or a file: not a reference either way
		}
		c := f.edgeFields[ev.field]
		c[1]++
		// an id or a stem, or a path to a document (../proposals/x.md),
		// or a number under an old prefix
		if names[strings.ToLower(ev.v)] || (strings.Contains(ev.v, "/") || scan.IsMarkdown(ev.v)) && names[strings.ToLower(markdown.Stem(ev.v))] ||
			slices.ContainsFunc(resolve.OldPrefixIDs(ev.v, f.prefixes, f.bare), func(id string) bool { return names[id] }) {
			c[0]++
		}
		f.edgeFields[ev.field] = c
	}
	return nil
}

func count(m map[string]map[string]int, k, v string) {
	if m[k] == nil {
		m[k] = map[string]int{}
	}
	m[k][v]++
}

func (f *facts) parentPairs(ctx context.Context, q index.Querier) error {
	pairs, err := checkreads.ParentKinds(ctx, q)
	if err != nil {
		return err
	}
	for _, p := range pairs {
		if f.parents[p.Kind] == nil {
			f.parents[p.Kind] = map[string]int{}
		}
		f.parents[p.Kind][p.Parent] += p.N
	}
	return nil
}

// atLine is a text field whose value starts with @, alone or in a list.
var atLine = lazyre.MustCompile(`^\s*([A-Za-z_]+):\s*\[?\s*@`)

// atDocuments counts the documents that write an @ value unquoted in
// one of fields, which YAML refuses and the tool reads: those YAML refused
// (a yaml-syntax problem) and those read already with the tool's rules
// (paths).
func atDocuments(ctx context.Context, q index.Querier, root string, cfg *config.Config, fields, paths []string) (int, error) {
	refused, err := checkreads.PathsWithProblem(ctx, q, markdown.RuleYAMLSyntax)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	for _, p := range paths {
		seen[p] = true
	}
	for _, p := range refused {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	n := 0
	for _, p := range paths {
		data, err := safepath.ReadFile(filepath.Join(root, filepath.FromSlash(p)), int64(cfg.MaxFileSize), root)
		if err != nil {
			continue // gone or unreadable since: not evidence
		}
		// The frontmatter: from the first line to the next "---".
		lines := strings.Split(string(data), "\n")
		for i := 1; i < len(lines) && strings.TrimSpace(lines[i]) != "---"; i++ {
			if m := atLine.FindStringSubmatch(lines[i]); m != nil && slices.Contains(fields, m[1]) {
				n++
				break
			}
		}
	}
	return n, nil
}

// archiveDir is the folder of p named like an archive (backlog/archive/),
// or "".
func archiveDir(p string) string {
	parts := strings.Split(p, "/")
	for i := 0; i < len(parts)-1; i++ {
		if archiveNames[strings.ToLower(parts[i])] {
			return strings.Join(parts[:i+1], "/") + "/"
		}
	}
	return ""
}

// text is a JSON string value.
func text(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// texts is a string, or the strings of a list.
func texts(raw json.RawMessage) []string {
	if s, ok := text(raw); ok && s != "" {
		return []string{s}
	}
	var xs []any
	if json.Unmarshal(raw, &xs) != nil {
		return nil
	}
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// refTexts is what a reference field holds: a string or a number (a
// bare task number, parent_task_id: 345), or a list of them.
func refTexts(raw json.RawMessage) []string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	xs, ok := v.([]any)
	if !ok {
		xs = []any{v}
	}
	var out []string
	for _, x := range xs {
		switch x := x.(type) {
		case string:
			if x != "" {
				out = append(out, markdown.SplitRefs(x)...)
			}
		case json.Number:
			out = append(out, x.String())
		}
	}
	return out
}

// tools are the files that say which tool keeps a repository, first match
// wins: backlog tools before site generators.
var tools = []struct{ name, file string }{
	{"backlog.md", "backlog/config.yml"},
	{"backlog.md", ".backlog/config.yml"},
	{"kano", config.KanoConfig},
	{"obsidian", ".obsidian"},
	{"hugo", "hugo.toml"},
	{"hugo", "hugo.yaml"},
	{"mkdocs", "mkdocs.yml"},
	{"mkdocs", "mkdocs.yaml"},
	{"docusaurus", "docusaurus.config.js"},
	{"docusaurus", "docusaurus.config.ts"},
	{"jekyll", "_config.yml"},
	{"docfx", "docfx.json"},
	{"docfx", ".openpublishing.publish.config.json"}, // Microsoft Learn's repositories
	{"middleman", "config.rb"},                       // with a source/ folder (GOV.UK's tech docs)
}

func (f *facts) detectTool(root string) error {
	for _, t := range tools {
		p := filepath.Join(root, filepath.FromSlash(t.file))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		if t.name == "middleman" {
			// config.rb is any Ruby program's; Middleman's pages are in source/
			if info, err := os.Lstat(filepath.Join(root, "source")); err != nil || !info.IsDir() {
				continue
			}
		}
		f.tool, f.toolWhy = t.name, t.file
		if t.name == "backlog.md" {
			data, err := safepath.ReadFile(p, safepath.ConfigLimit, root)
			if err != nil {
				return nil // named, without its statuses
			}
			var c struct {
				Statuses   []string `yaml:"statuses"`
				TaskPrefix string   `yaml:"task_prefix"`
			}
			if yaml.Unmarshal(data, &c) == nil {
				f.toolStatuses = c.Statuses
				if p := strings.ToLower(strings.TrimSpace(c.TaskPrefix)); taskPrefixRE.MatchString(p) {
					f.toolPrefix = p
				}
			}
		}
		return nil
	}
	return nil
}

// taskPrefixRE is a task_prefix Backlog.md takes: letters only.
var taskPrefixRE = lazyre.MustCompile(`^[a-z]{1,32}$`)

// toolTaskPrefix maps task to Backlog.md's task_prefix (back: its tasks
// are BACK-12) when no reference under task- says so yet: its tasks are
// tasks from the first one, and it reads task-12 as BACK-12.
func (f *facts) toolTaskPrefix() {
	if f.tool != "backlog.md" || f.toolPrefix == "" || f.toolPrefix == "task" || f.prefixes["task"] != "" {
		return
	}
	if f.prefixes == nil {
		f.prefixes, f.prefixWhy = map[string]string{}, map[string]string{}
	}
	f.prefixes["task"] = f.toolPrefix
	f.prefixWhy["task"] = fmt.Sprintf("%s's task_prefix is %s: Backlog.md writes its tasks as %s-NUMBER", f.toolWhy, f.toolPrefix, strings.ToUpper(f.toolPrefix))
}

// doneWords are states that say the work is over, in any tool.
var doneWords = map[string]bool{"done": true, "closed": true, "resolved": true, "completed": true, "complete": true,
	"cancelled": true, "canceled": true, "dropped": true, "rejected": true, "won't do": true, "wont do": true,
	"won't fix": true, "wontfix": true, "accepted": true, "superseded": true, "archived": true, "obsolete": true,
	"deprecated": true, "merged": true, "released": true, "shipped": true,
	"final": true, "withdrawn": true, "moved": true, // a proposal's end (EIPs, PEPs): adopted, given up, moved elsewhere
	"living": true, "stagnant": true, "abandoned": true} // kept current, not work (EIP-1); left for six months; given up

// stateRank orders open states as work moves through them.
var stateRank = []string{"new", "draft", "backlog", "to do", "todo", "proposed", "planned", "ready", "in progress",
	"inprogress", "doing", "review", "in review", "blocked", "done"}

func rankOf(s string) int {
	for i, r := range stateRank {
		if strings.EqualFold(r, s) {
			return i
		}
	}
	return len(stateRank)
}

func share(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// convention reports whether n of total documents make a convention
// rather than exceptions.
func convention(n, total int) bool {
	return n >= MinCount && share(n, total) >= RareShare
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	if strings.HasSuffix(one, "y") {
		return fmt.Sprintf("%d %sies", n, one[:len(one)-1])
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// sortedKeys sorts a count map's keys by count, most first, then by name.
func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
