package graph

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/filter"
	"github.com/canon-md/canon/index/lazyre"
)

// Query templates are YAML files: the built-in ones embedded below, and a
// repository's own in .canon/queries/NAME.yaml, which replace a built-in of
// the same name. The shape (see docs/queries.md):
//
//	name: task-context
//	description: what an agent needs before working on a task
//	extends: base
//	query:
//	  anchors:
//	    - type: task
//	      filter: "state IN ('Ready', 'InProgress')"
//	      limit: 20
//	  expansion: {depth: 2, edge_types: [parent, decision_ref], exclude_types: [doc]}
//	  filters: ["state != 'Dropped'"]
//	  budget: {max_nodes: 100, max_tokens: 6000}
//	output:
//	  format: markdown
//	  sections:
//	    - {name: Decisions, node_types: [adr], sort_by: date, order: desc, limit: 10}

//go:embed templates/*.yaml
var builtinFS embed.FS

// Builtin is the folder of built-in templates.
func Builtin() fs.FS {
	sub, _ := fs.Sub(builtinFS, "templates")
	return sub
}

// QueriesDir is where a repository keeps its templates.
const QueriesDir = ".canon/queries"

// Template is one query template as written.
type Template struct {
	Name        string     `yaml:"name" json:"name"`
	Description string     `yaml:"description,omitempty" json:"description,omitempty"`
	Extends     string     `yaml:"extends,omitempty" json:"extends,omitempty"`
	Query       QuerySpec  `yaml:"query" json:"query"`
	Output      OutputSpec `yaml:"output,omitempty" json:"output"`

	// Source is where it was read: "builtin" or a repo-relative path.
	Source string `yaml:"-" json:"source"`
}

// QuerySpec selects and bounds what a template returns.
type QuerySpec struct {
	Anchors   []Anchor       `yaml:"anchors,omitempty" json:"anchors"`
	Expansion *ExpansionSpec `yaml:"expansion,omitempty" json:"expansion,omitempty"`
	Filters   []string       `yaml:"filters,omitempty" json:"filters"`
	Budget    *BudgetSpec    `yaml:"budget,omitempty" json:"budget,omitempty"`
}

// Anchor selects seed documents. Its selectors are combined with AND.
type Anchor struct {
	Type   string `yaml:"type,omitempty" json:"type,omitempty"`     // kind or frontmatter type, without case
	ID     string `yaml:"id,omitempty" json:"id,omitempty"`         // a reference: id, uid, key, path
	Tag    string `yaml:"tag,omitempty" json:"tag,omitempty"`       // one of the tags, without case
	State  string `yaml:"state,omitempty" json:"state,omitempty"`   // the state, without case
	Recent string `yaml:"recent,omitempty" json:"recent,omitempty"` // 14d, 2w, 3m, 1y: updated, date or created within
	Search string `yaml:"search,omitempty" json:"search,omitempty"` // full-text search
	Filter string `yaml:"filter,omitempty" json:"filter,omitempty"` // a filter expression
	SortBy string `yaml:"sort_by,omitempty" json:"sort_by,omitempty"`
	Order  string `yaml:"order,omitempty" json:"order,omitempty"` // asc or desc
	Limit  int    `yaml:"limit,omitempty" json:"limit,omitempty"`
	// Workset selects the seeds of a workset: a name, or $workset for the
	// one given with canon query run --workset NAME.
	Workset string `yaml:"workset,omitempty" json:"workset,omitempty"`
}

// WorksetParam is the anchor value that stands for the workset given on
// the command line.
const WorksetParam = "$workset"

// ExpansionSpec bounds the expansion from the anchors.
type ExpansionSpec struct {
	Depth        *int     `yaml:"depth,omitempty" json:"depth,omitempty"`
	EdgeTypes    []string `yaml:"edge_types,omitempty" json:"edge_types,omitempty"`
	ExcludeTypes []string `yaml:"exclude_types,omitempty" json:"exclude_types,omitempty"` // kinds never added by expansion
	Direction    string   `yaml:"direction,omitempty" json:"direction,omitempty"`
	MaxPerNode   *int     `yaml:"max_per_node,omitempty" json:"max_per_node,omitempty"`
}

// BudgetSpec bounds a template's pack.
type BudgetSpec struct {
	MaxNodes  *int `yaml:"max_nodes,omitempty" json:"max_nodes,omitempty"`
	MaxTokens *int `yaml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
}

// OutputSpec says how a template's pack is shown.
type OutputSpec struct {
	Format   string          `yaml:"format,omitempty" json:"format,omitempty"` // markdown or json
	Sections []OutputSection `yaml:"sections,omitempty" json:"sections,omitempty"`
}

// OutputSection groups a pack's entries. An entry goes to the first section
// whose node_types has its kind (no node_types: any kind) and whose filter
// it passes; an entry no section takes is left out.
type OutputSection struct {
	Name      string   `yaml:"name" json:"name"`
	NodeTypes []string `yaml:"node_types,omitempty" json:"node_types,omitempty"`
	Filter    string   `yaml:"filter,omitempty" json:"filter,omitempty"`
	SortBy    string   `yaml:"sort_by,omitempty" json:"sort_by,omitempty"` // rank (default) or a column or field
	Order     string   `yaml:"order,omitempty" json:"order,omitempty"`     // asc or desc
	Limit     int      `yaml:"limit,omitempty" json:"limit,omitempty"`
}

// TemplateError is a problem in a template file.
type TemplateError struct {
	Source string
	Line   int
	Msg    string
}

func (e *TemplateError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Source, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Source, e.Msg)
}

var nameRE = lazyre.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// ParseTemplate reads one template file; source names it in errors and
// stem is the file name without .yaml, which the name must equal.
func ParseTemplate(source, stem string, data []byte) (*Template, error) {
	var t Template
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&t); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &TemplateError{Source: source, Msg: "the file is empty"}
		}
		return nil, yamlTemplateError(source, err)
	}
	t.Source = source
	if t.Name == "" {
		t.Name = stem
	}
	if !nameRE.MatchString(t.Name) {
		return nil, &TemplateError{Source: source, Msg: fmt.Sprintf("name %q: use lower-case letters, digits, - and _", t.Name)}
	}
	if stem != "" && t.Name != stem {
		return nil, &TemplateError{Source: source, Msg: fmt.Sprintf("name %q does not match the file name %s.yaml; make them the same", t.Name, stem)}
	}
	return &t, nil
}

func yamlTemplateError(source string, err error) error {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		msg := le.Message
		var field string
		if _, e := fmt.Sscanf(msg, "field %s not found", &field); e == nil {
			msg = fmt.Sprintf("unknown key %q; see docs/queries.md for the keys", field)
		}
		return &TemplateError{Source: source, Line: le.Mark.Line, Msg: msg}
	}
	return &TemplateError{Source: source, Msg: err.Error()}
}

// Library holds the templates a repository can run.
type Library struct {
	byName map[string]*Template
	// Broken are the repository's files that do not parse, by name.
	Broken map[string]error
}

// LoadLibrary reads the built-in templates, then the repository's (repo may
// be nil), which replace built-ins of the same name.
func LoadLibrary(builtin, repo fs.FS) (*Library, error) {
	lib := &Library{byName: map[string]*Template{}, Broken: map[string]error{}}
	read := func(fsys fs.FS, source func(string) string, strict bool) error {
		names, err := fs.Glob(fsys, "*.yaml")
		if err != nil {
			return err
		}
		for _, f := range names {
			stem := strings.TrimSuffix(f, ".yaml")
			data, err := fs.ReadFile(fsys, f)
			if err == nil {
				var t *Template
				if t, err = ParseTemplate(source(f), stem, data); err == nil {
					lib.byName[t.Name] = t
					delete(lib.Broken, t.Name)
					continue
				}
			}
			if strict {
				return err
			}
			delete(lib.byName, stem)
			lib.Broken[stem] = err
		}
		return nil
	}
	if err := read(builtin, func(f string) string { return "builtin:" + f }, true); err != nil {
		return nil, fmt.Errorf("built-in templates: %w", err)
	}
	for _, t := range lib.byName {
		t.Source = "builtin"
	}
	if repo != nil {
		if err := read(repo, func(f string) string { return path.Join(QueriesDir, f) }, false); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return lib, nil
}

// Names lists the templates, sorted, broken ones included.
func (l *Library) Names() []string {
	var out []string
	for n := range l.byName {
		out = append(out, n)
	}
	for n := range l.Broken {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Get returns a template as written.
func (l *Library) Get(name string) (*Template, error) {
	if err, ok := l.Broken[name]; ok {
		return nil, err
	}
	t, ok := l.byName[name]
	if !ok {
		return nil, &TemplateError{Source: name, Msg: fmt.Sprintf("there is no template %q; canon query list shows them", name)}
	}
	return t, nil
}

// Add puts a template in the library (canon query validate FILE uses it to
// check a file that is not in .canon/queries yet).
func (l *Library) Add(t *Template) { l.byName[t.Name] = t; delete(l.Broken, t.Name) }

// Resolve returns a template with what it extends laid under it: set
// scalars and non-empty lists override, except filters, which add up
// (the parent's first).
func (l *Library) Resolve(name string) (*Template, error) {
	var chain []*Template
	seen := map[string]bool{}
	for n := name; n != ""; {
		if seen[n] {
			return nil, &TemplateError{Source: chain[0].Source, Msg: fmt.Sprintf("extends goes round in a circle through %q", n)}
		}
		seen[n] = true
		t, err := l.Get(n)
		if err != nil {
			if len(chain) > 0 {
				return nil, &TemplateError{Source: chain[len(chain)-1].Source, Msg: fmt.Sprintf("extends %q: %v", n, err)}
			}
			return nil, err
		}
		chain = append(chain, t)
		n = t.Extends
	}
	out := &Template{}
	for i := len(chain) - 1; i >= 0; i-- {
		overlay(out, chain[i])
	}
	out.Name, out.Source, out.Extends = chain[0].Name, chain[0].Source, chain[0].Extends
	return out, nil
}

func overlay(dst, src *Template) {
	if src.Description != "" {
		dst.Description = src.Description
	}
	if len(src.Query.Anchors) > 0 {
		dst.Query.Anchors = append([]Anchor{}, src.Query.Anchors...)
	}
	dst.Query.Filters = append(append([]string{}, dst.Query.Filters...), src.Query.Filters...)
	if e := src.Query.Expansion; e != nil {
		if dst.Query.Expansion == nil {
			dst.Query.Expansion = &ExpansionSpec{}
		}
		d := dst.Query.Expansion
		if e.Depth != nil {
			d.Depth = e.Depth
		}
		if len(e.EdgeTypes) > 0 {
			d.EdgeTypes = e.EdgeTypes
		}
		if len(e.ExcludeTypes) > 0 {
			d.ExcludeTypes = e.ExcludeTypes
		}
		if e.Direction != "" {
			d.Direction = e.Direction
		}
		if e.MaxPerNode != nil {
			d.MaxPerNode = e.MaxPerNode
		}
	}
	if b := src.Query.Budget; b != nil {
		if dst.Query.Budget == nil {
			dst.Query.Budget = &BudgetSpec{}
		}
		if b.MaxNodes != nil {
			dst.Query.Budget.MaxNodes = b.MaxNodes
		}
		if b.MaxTokens != nil {
			dst.Query.Budget.MaxTokens = b.MaxTokens
		}
	}
	if src.Output.Format != "" {
		dst.Output.Format = src.Output.Format
	}
	if len(src.Output.Sections) > 0 {
		dst.Output.Sections = src.Output.Sections
	}
}

// Validate checks a resolved template: every filter compiles, every value
// is in range. It returns every problem found, not only the first.
func (t *Template) Validate() []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, &TemplateError{Source: t.Source, Msg: fmt.Sprintf(format, args...)})
	}
	for i, a := range t.Query.Anchors {
		where := fmt.Sprintf("query.anchors[%d]", i)
		if a.Type == "" && a.ID == "" && a.Tag == "" && a.State == "" && a.Recent == "" && a.Search == "" && a.Filter == "" && a.Workset == "" {
			bad("%s selects nothing; give type, id, tag, state, recent, search, filter or workset", where)
		}
		if a.Workset != "" && (a.Search != "" || a.ID != "" || a.Type != "" || a.Tag != "" || a.State != "" || a.Recent != "" || a.Filter != "") {
			bad("%s: workset is an anchor of its own; put the other selectors in another anchor", where)
		}
		if a.Recent != "" {
			if _, err := ParseAge(a.Recent); err != nil {
				bad("%s.recent: %v", where, err)
			}
		}
		if a.Filter != "" {
			if _, err := filter.Compile(a.Filter); err != nil {
				bad("%s.filter: %v", where, err)
			}
		}
		if a.SortBy != "" && !filter.ValidName(a.SortBy) {
			bad("%s.sort_by %q is not a column or field name", where, a.SortBy)
		}
		if a.Order != "" && a.Order != "asc" && a.Order != "desc" {
			bad("%s.order %q is not asc or desc", where, a.Order)
		}
		if a.Limit < 0 {
			bad("%s.limit is negative", where)
		}
		if a.Search != "" && (a.ID != "" || a.Type != "" || a.Tag != "" || a.State != "" || a.Recent != "" || a.Filter != "") {
			bad("%s: search is an anchor of its own; put the other selectors in another anchor", where)
		}
	}
	for i, f := range t.Query.Filters {
		if _, err := filter.Compile(f); err != nil {
			bad("query.filters[%d]: %v", i, err)
		}
	}
	if e := t.Query.Expansion; e != nil {
		if e.Depth != nil && (*e.Depth < 0 || *e.Depth > 6) {
			bad("query.expansion.depth %d is not between 0 and 6", *e.Depth)
		}
		if _, err := ParseDirection(e.Direction); err != nil {
			bad("query.expansion.%v", err)
		}
		if e.MaxPerNode != nil && *e.MaxPerNode < 0 {
			bad("query.expansion.max_per_node is negative")
		}
		for _, et := range e.EdgeTypes {
			if strings.TrimSpace(et) == "" {
				bad("query.expansion.edge_types has an empty entry")
			}
		}
	}
	if b := t.Query.Budget; b != nil {
		if b.MaxNodes != nil && *b.MaxNodes < 1 {
			bad("query.budget.max_nodes must be at least 1")
		}
		if b.MaxTokens != nil && *b.MaxTokens < 1 {
			bad("query.budget.max_tokens must be at least 1")
		}
	}
	switch t.Output.Format {
	case "", "markdown", "md", "json":
	default:
		bad("output.format %q is not markdown or json", t.Output.Format)
	}
	names := map[string]bool{}
	for i, s := range t.Output.Sections {
		where := fmt.Sprintf("output.sections[%d]", i)
		if strings.TrimSpace(s.Name) == "" {
			bad("%s has no name", where)
		}
		if names[s.Name] {
			bad("%s: the name %q is used twice", where, s.Name)
		}
		names[s.Name] = true
		if s.Filter != "" {
			if _, err := filter.Compile(s.Filter); err != nil {
				bad("%s.filter: %v", where, err)
			}
		}
		if s.SortBy != "" && s.SortBy != "rank" && !filter.ValidName(s.SortBy) {
			bad("%s.sort_by %q is not rank, a column or a field name", where, s.SortBy)
		}
		if s.Order != "" && s.Order != "asc" && s.Order != "desc" {
			bad("%s.order %q is not asc or desc", where, s.Order)
		}
		if s.Limit < 0 {
			bad("%s.limit is negative", where)
		}
	}
	return errs
}

// ParseAge reads an age such as 14d, 2w, 3m (30 days each) or 1y (365).
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return 0, fmt.Errorf("%q is not an age; write it like 14d, 2w, 3m or 1y", s)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not an age; write it like 14d, 2w, 3m or 1y", s)
	}
	day := 24 * time.Hour
	switch s[len(s)-1] {
	case 'd':
		return time.Duration(n) * day, nil
	case 'w':
		return time.Duration(n) * 7 * day, nil
	case 'm':
		return time.Duration(n) * 30 * day, nil
	case 'y':
		return time.Duration(n) * 365 * day, nil
	}
	return 0, fmt.Errorf("%q is not an age; write it like 14d, 2w, 3m or 1y", s)
}

// YAML writes a template back as YAML, for canon query show.
func (t *Template) YAML() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(t); err != nil {
		return nil, err
	}
	enc.Close()
	return b.Bytes(), nil
}
