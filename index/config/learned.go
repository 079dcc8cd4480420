package config

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Frontmatter says how frontmatter is read before YAML parses it.
type Frontmatter struct {
	// TextFields are fields whose values are read as text as the tool that
	// wrote the files reads them: Backlog.md quotes `assignee: @MrLesk`
	// before it parses (markdown.QuoteTextFields).
	TextFields []string `yaml:"text_fields" json:"text_fields"`
}

// Learned is the `learned:` block canon init writes: the conventions of the
// repository as it found them (ADR-0037). Each value holds where the file's
// own setting is absent or still the default; a value the file sets
// otherwise wins.
type Learned struct {
	// Tool names the tool that wrote the documents (backlog.md, kano,
	// obsidian, hugo, mkdocs), for the person reading the file.
	Tool        string            `yaml:"tool" json:"tool,omitempty"`
	Frontmatter *Frontmatter      `yaml:"frontmatter" json:"frontmatter,omitempty"`
	Edges       map[string]string `yaml:"edges" json:"edges,omitempty"`
	Prefixes    map[string]string `yaml:"prefixes" json:"prefixes,omitempty"`
	RepoURLs    []string          `yaml:"repo_urls" json:"repo_urls,omitempty"`
	BareNumbers []string          `yaml:"bare_numbers" json:"bare_numbers,omitempty"`
	Templates   []string          `yaml:"templates" json:"templates,omitempty"`
	Fixtures    []string          `yaml:"fixtures" json:"fixtures,omitempty"`
	Sidecars    []Sidecar         `yaml:"sidecars" json:"sidecars,omitempty"`
	States      *States           `yaml:"states" json:"states,omitempty"`
	Check       *LearnedCheck     `yaml:"check" json:"check,omitempty"`
	Work        *LearnedWork      `yaml:"work" json:"work,omitempty"`
}

// LearnedCheck is what canon init learned of canon check's settings.
type LearnedCheck struct {
	Parents map[string][]string      `yaml:"parents" json:"parents,omitempty"`
	Schemas map[string]LearnedSchema `yaml:"schemas" json:"schemas,omitempty"`
	Dates   []string                 `yaml:"dates" json:"dates,omitempty"`
}

// LearnedSchema is laid field by field over a kind's schema.
type LearnedSchema struct {
	IDPattern  string   `yaml:"id_pattern" json:"id_pattern,omitempty"`
	States     []string `yaml:"states" json:"states,omitempty"`
	Priorities []string `yaml:"priorities" json:"priorities,omitempty"`
}

// LearnedWork is what canon init learned of the work settings.
type LearnedWork struct {
	Priorities []string `yaml:"priorities" json:"priorities,omitempty"`
	Archive    []string `yaml:"archive" json:"archive,omitempty"`
}

// Empty reports whether nothing was learned.
func (l *Learned) Empty() bool {
	return l == nil || reflect.DeepEqual(*l, Learned{}) ||
		(l.Tool == "" && l.Frontmatter == nil && len(l.Edges) == 0 && len(l.Prefixes) == 0 && len(l.RepoURLs) == 0 && len(l.BareNumbers) == 0 && len(l.Templates) == 0 && len(l.Fixtures) == 0 && len(l.Sidecars) == 0 && l.States == nil && l.Check == nil && l.Work == nil)
}

// Learned block markers: canon init --observe --write replaces what lies
// between them and nothing else.
const (
	LearnedBegin = "# >>> learned by canon init: canon init --observe --write rewrites this block, and nothing else"
	LearnedEnd   = "# <<< end of what canon init learned"
)

func decodeLearned(n *yaml.Node) (*Learned, error) {
	var l Learned
	if err := n.Load(&l, yaml.WithKnownFields()); err != nil {
		return nil, err
	}
	if l.Check != nil {
		for kind, s := range l.Check.Schemas {
			if s.IDPattern != "" {
				if _, err := regexp.Compile(s.IDPattern); err != nil {
					return nil, fmt.Errorf("learned.check.schemas.%s.id_pattern: %w", kind, err)
				}
			}
		}
	}
	if l.Prefixes != nil {
		p, err := checkPrefixes("learned.prefixes", l.Prefixes)
		if err != nil {
			return nil, err
		}
		l.Prefixes = p
	}
	if l.RepoURLs != nil {
		u, err := checkRepoURLs("learned.repo_urls", l.RepoURLs)
		if err != nil {
			return nil, err
		}
		l.RepoURLs = u
	}
	if l.BareNumbers != nil {
		b, err := checkBareNumbers("learned.bare_numbers", l.BareNumbers)
		if err != nil {
			return nil, err
		}
		l.BareNumbers = b
	}
	if l.Templates != nil {
		t, err := checkTemplates("learned.templates", l.Templates)
		if err != nil {
			return nil, err
		}
		l.Templates = t
	}
	if l.Fixtures != nil {
		t, err := checkTemplates("learned.fixtures", l.Fixtures)
		if err != nil {
			return nil, err
		}
		l.Fixtures = t
	}
	if l.Sidecars != nil {
		sc, err := checkSidecars("learned.sidecars", l.Sidecars)
		if err != nil {
			return nil, err
		}
		l.Sidecars = sc
	}
	if l.Work != nil {
		for _, p := range l.Work.Archive {
			if strings.TrimSpace(p) == "" {
				return nil, fmt.Errorf("learned.work.archive has an empty entry; write folders such as backlog/archive/")
			}
			if err := checkPrintable("learned.work.archive", p); err != nil {
				return nil, err
			}
		}
	}
	return &l, nil
}

// applyLearned lays l over c where the file (f, nil for none) leaves a
// setting absent or at its default: what the user chose wins, what
// the template repeats of the defaults does not.
func (c *Config) applyLearned(l *Learned, f *fileConfig) error {
	c.Tool = l.Tool
	if l.Frontmatter != nil && (f == nil || f.Frontmatter == nil) {
		c.Frontmatter = *l.Frontmatter
	}
	for field, typ := range l.Edges {
		if _, set := f.edges()[field]; !set && typ != "" && typ != "none" {
			c.Edges[field] = typ
		}
	}
	if l.Prefixes != nil && (f == nil || f.Prefixes == nil) {
		c.Prefixes = l.Prefixes
	}
	if l.RepoURLs != nil && (f == nil || f.RepoURLs == nil) {
		c.RepoURLs = l.RepoURLs
	}
	if l.BareNumbers != nil && (f == nil || f.BareNumbers == nil) {
		c.BareNumbers = l.BareNumbers
	}
	if l.Templates != nil && (f == nil || f.Templates == nil) {
		c.Templates = l.Templates
	}
	if l.Fixtures != nil && (f == nil || f.Fixtures == nil) {
		c.Fixtures = l.Fixtures
	}
	if l.Sidecars != nil && (f == nil || f.Sidecars == nil) {
		c.Sidecars = l.Sidecars
	}
	if s := l.States; s != nil {
		def := DefaultStates()
		if s.Field != "" && c.States.Field == "" {
			if err := checkStateField("learned.states.field", s.Field); err != nil {
				return err
			}
			c.States.Field = s.Field
		}
		if s.Open != nil && slices.Equal(c.States.Open, def.Open) {
			c.States.Open = s.Open
		}
		if s.Done != nil && slices.Equal(c.States.Done, def.Done) {
			c.States.Done = s.Done
		}
		for _, o := range c.States.Open {
			if c.States.IsDone(o) {
				return fmt.Errorf("learned.states: %s is listed as both open and done", o)
			}
		}
	}
	if ck := l.Check; ck != nil {
		def := DefaultCheck()
		for kind, ps := range ck.Parents {
			if slices.Equal(c.Check.Parents[kind], def.Parents[kind]) {
				c.Check.Parents[kind] = ps
			}
		}
		for kind, ls := range ck.Schemas {
			s, ok := c.Check.Schemas[kind]
			if !ok || c.Check.SchemasSet[kind] {
				continue // no schema to refine, or the file's own
			}
			if ls.IDPattern != "" {
				s.IDPattern = ls.IDPattern
			}
			if ls.States != nil {
				s.States = ls.States
			}
			if ls.Priorities != nil {
				s.Priorities = ls.Priorities
			}
			c.Check.Schemas[kind] = s
		}
		if ck.Dates != nil && slices.Equal(c.Check.Dates, def.Dates) {
			c.Check.Dates = ck.Dates
		}
	}
	if w := l.Work; w != nil {
		def := DefaultWork()
		if w.Priorities != nil && slices.Equal(c.Work.Priorities, def.Priorities) {
			c.Work.Priorities = w.Priorities
		}
		if w.Archive != nil && slices.Equal(c.Work.Archive, def.Archive) {
			c.Work.Archive = w.Archive
		}
		c.Work.compile()
	}
	return nil
}

func (f *fileConfig) edges() map[string]string {
	if f == nil {
		return nil
	}
	return f.Edges
}

// learnedAfterTemplate reads a file that is the Template followed by a
// learned block (and comments) only, without parsing the Template: nil
// when data is not of that shape.
func learnedAfterTemplate(data []byte) *Config {
	rest, ok := bytes.CutPrefix(data, []byte(Template))
	if !ok {
		return nil
	}
	var only struct {
		Learned yaml.Node `yaml:"learned"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(rest))
	dec.KnownFields(true)
	if err := dec.Decode(&only); err != nil {
		return nil // other keys, or an error: the whole file is parsed and says it
	}
	cfg := fromTemplate()
	if only.Learned.Kind == 0 {
		return cfg
	}
	l, err := decodeLearned(&only.Learned)
	if err != nil {
		return nil
	}
	if err := cfg.applyLearned(l, nil); err != nil {
		return nil
	}
	return cfg
}

// LearnedBlock finds the learned block in a configuration file: the byte
// range from its begin marker to the end of its end marker's line. ok is
// false when there is none; err says why a learned: key canon cannot
// replace is there.
func LearnedBlock(data []byte) (start, end int, ok bool, err error) {
	b := bytes.Index(data, []byte(LearnedBegin))
	if b < 0 {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "learned:") {
				return 0, 0, false, fmt.Errorf("%s has a learned: key outside canon's markers; remove it, or move it between the lines %q and %q", File, LearnedBegin, LearnedEnd)
			}
		}
		return 0, 0, false, nil
	}
	e := bytes.Index(data[b:], []byte(LearnedEnd))
	if e < 0 {
		return 0, 0, false, fmt.Errorf("%s has the line %q without the line %q after it; restore it, or remove the block", File, LearnedBegin, LearnedEnd)
	}
	end = b + e + len(LearnedEnd)
	if end < len(data) && data[end] == '\n' {
		end++
	}
	return b, end, true, nil
}
