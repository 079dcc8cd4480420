package config

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	yaml "go.yaml.in/yaml/v4"
)

// Context shapes context packs (canon context, canon query run): how far
// expansion goes, what it may follow, how much it may return, and how
// entries are ranked.
type Context struct {
	// Depth is how many hops expansion goes from the seeds.
	Depth int `json:"depth"`
	// Edges is the edge-type allowlist expansion follows.
	Edges []string `json:"edges"`
	// Direction is out, in or both: which way edges are followed.
	Direction string `json:"direction"`
	// MaxPerNode caps the new neighbours one node contributes.
	MaxPerNode int `json:"max_per_node"`
	// MaxNodes caps the entries of a pack, seeds included.
	MaxNodes int `json:"max_nodes"`
	// Budget is the pack's size in estimated tokens (characters / 4).
	Budget int `json:"budget"`
	// SearchSeeds is how many documents full-text search contributes as seeds.
	SearchSeeds int `json:"search_seeds"`
	// Related is how many documents a task's pack (canon context --for)
	// adds, found by searching the task's title, when no edge reaches the
	// task: 0 adds none.
	Related int `json:"related"`
	// Sections is how many sections a seed quotes (a neighbour quotes one).
	Sections int `json:"sections"`
	// ExcerptChars cuts a quoted section at about this many characters.
	ExcerptChars int `json:"excerpt_chars"`
	// Weights re-rank the entries.
	Weights Weights `json:"weights"`
	// Scopes shape a task's scoped pack (canon context --for).
	Scopes Scopes `json:"scopes"`
	// Essential names the sections (by heading, matched as slugs) that the
	// pack for a task (canon context --for) always quotes from the task,
	// before any neighbour.
	Essential []string `json:"essential"`
	// Exclude holds globs (doublestar: ** spans folders) of documents packs
	// treat as generated: never seeds, never neighbours.
	Exclude []string `json:"exclude"`
	// IncludeGenerated lets generated documents (the index's generated
	// rules and Exclude) be seeds and neighbours.
	IncludeGenerated bool `json:"include_generated"`
}

// Scopes split a scoped pack's budget between the scopes of knowledge and
// name the document global knowledge is promoted into.
type Scopes struct {
	// Shares of the budget, each 0 to 1, together at most 1: what a scope
	// does not use goes to the others.
	Global float64 `json:"global"`
	Group  float64 `json:"group"`
	Task   float64 `json:"task"`
	Path   float64 `json:"path"`
	// GlobalDocument is the repo-relative path of the document
	// canon promote --scope global writes into ("" when there is none).
	GlobalDocument string `json:"global_document"`
}

// Weights multiply an entry's score. Keys are matched without case; a key
// that is not listed weighs 1.
type Weights struct {
	// Decay multiplies the score once per hop away from a seed.
	Decay float64 `json:"decay"`
	// Edges weigh the edge a neighbour was reached by.
	Edges map[string]float64 `json:"edges"`
	// Kinds weigh a document's kind.
	Kinds map[string]float64 `json:"kinds"`
	// States weigh a document's state.
	States map[string]float64 `json:"states"`
	// Sections weigh a section by its heading slug: they rank a seed by the
	// section that matched, and pick the sections a pack quotes.
	Sections map[string]float64 `json:"sections"`
}

// DefaultContext is the default context configuration.
func DefaultContext() Context {
	return Context{
		Depth:        1,
		Edges:        []string{"parent", "blocked_by", "blocks", "depends_on", "decision_ref", "supersedes", "relates", "references"},
		Direction:    "both",
		MaxPerNode:   8,
		MaxNodes:     40,
		Budget:       4000,
		SearchSeeds:  8,
		Related:      3,
		Sections:     2,
		ExcerptChars: 700,
		Scopes:       Scopes{Global: 0.3, Group: 0.3, Task: 0.2, Path: 0.2},
		Essential:    DefaultEssential(),
		Exclude:      []string{},
		Weights: Weights{
			Decay: 0.6,
			Edges: map[string]float64{
				"parent": 1, "blocked_by": 0.9, "blocks": 0.9, "depends_on": 0.9,
				"decision_ref": 0.9, "supersedes": 0.8, "relates": 0.7, "references": 0.5,
			},
			Kinds: map[string]float64{
				"adr": 1.2, "bug": 1, "task": 1, "story": 1, "feature": 1, "epic": 0.9, "doc": 0.8, "index": 0.5,
			},
			States: map[string]float64{
				"inprogress": 1.2, "review": 1.1, "ready": 1.1, "blocked": 1.1, "planned": 1, "proposed": 1,
				"accepted": 1, "done": 0.7, "closed": 0.7, "resolved": 0.7,
				"superseded": 0.4, "dropped": 0.3, "cancelled": 0.3, "rejected": 0.3,
			},
			Sections: map[string]float64{
				"decision": 1.5, "decision-drivers": 1, "goal": 1.3, "context": 1.2, "acceptance-criteria": 1.1, "consequences": 1.1,
				"approach": 1, "risks--dependencies": 0.9, "alternatives-considered": 0.8, "worklog": 0.3,
			},
		},
	}
}

// DefaultEssential are the sections a task's pack quotes first, across
// Kano's, Backlog.md's and ADR conventions.
func DefaultEssential() []string {
	return []string{"Acceptance Criteria", "Approach", "Implementation Plan", "Decision", "Description"}
}

// MaxWeight is the largest weight: a multiplier of a score, which a
// neighbour's score compounds hop after hop; larger ones (and .nan, .inf)
// are refused at load, so that every score stays a finite number.
const MaxWeight = 100

// SectionWeight is the weight of a section by its heading's slug: its own
// key's, else the longest key it starts with before a dash, as MADR's
// headings extend Nygard's (decision-outcome weighs as decision,
// context-and-problem-statement as context), else 1.
func SectionWeight(m map[string]float64, slug string) float64 {
	slug = strings.ToLower(slug)
	if w, ok := m[slug]; ok {
		return w
	}
	best, w := 0, 1.0
	for k, v := range m {
		if len(k) > best && strings.HasPrefix(slug, k+"-") {
			best, w = len(k), v
		}
	}
	return w
}

// Weight looks a key up without case; unlisted keys weigh 1.
func Weight(m map[string]float64, key string) float64 {
	if w, ok := m[strings.ToLower(key)]; ok {
		return w
	}
	return 1
}

// contextFile is the file's shape; pointers tell "absent" from "zero".
type contextFile struct {
	Depth        *int         `yaml:"depth"`
	Edges        []string     `yaml:"edges"`
	Direction    *string      `yaml:"direction"`
	MaxPerNode   *int         `yaml:"max_per_node"`
	MaxNodes     *int         `yaml:"max_nodes"`
	Budget       *int         `yaml:"budget"`
	SearchSeeds  *int         `yaml:"search_seeds"`
	Related      *int         `yaml:"related"`
	Sections     *int         `yaml:"sections"`
	ExcerptChars *int         `yaml:"excerpt_chars"`
	Essential    []string     `yaml:"essential"`
	Exclude      []string     `yaml:"exclude"`
	IncludeGen   *bool        `yaml:"include_generated"`
	Scopes       *scopesFile  `yaml:"scopes"`
	Weights      *weightsFile `yaml:"weights"`
}

// scopesFile is the shape of context.scopes in the file.
type scopesFile struct {
	Global         *float64 `yaml:"global"`
	Group          *float64 `yaml:"group"`
	Task           *float64 `yaml:"task"`
	Path           *float64 `yaml:"path"`
	GlobalDocument *string  `yaml:"global_document"`
}

// weightsFile is the shape of context.weights in the file.
type weightsFile struct {
	Decay    *float64           `yaml:"decay"`
	Edges    map[string]float64 `yaml:"edges"`
	Kinds    map[string]float64 `yaml:"kinds"`
	States   map[string]float64 `yaml:"states"`
	Sections map[string]float64 `yaml:"sections"`
}

func (c *Context) merge(n *yaml.Node) error {
	var f contextFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	ints := []struct {
		name string
		src  *int
		dst  *int
		min  int
	}{
		{"depth", f.Depth, &c.Depth, 0},
		{"max_per_node", f.MaxPerNode, &c.MaxPerNode, 0},
		{"max_nodes", f.MaxNodes, &c.MaxNodes, 1},
		{"budget", f.Budget, &c.Budget, 1},
		{"search_seeds", f.SearchSeeds, &c.SearchSeeds, 0},
		{"related", f.Related, &c.Related, 0},
		{"sections", f.Sections, &c.Sections, 0},
		{"excerpt_chars", f.ExcerptChars, &c.ExcerptChars, 40},
	}
	for _, i := range ints {
		if i.src == nil {
			continue
		}
		if *i.src < i.min {
			return fmt.Errorf("context.%s must be at least %d", i.name, i.min)
		}
		*i.dst = *i.src
	}
	if f.Edges != nil {
		c.Edges = f.Edges
	}
	if f.Essential != nil {
		c.Essential = f.Essential
	}
	if f.Exclude != nil {
		for _, g := range f.Exclude {
			if err := checkPrintable("context.exclude", g); err != nil {
				return err
			}
			if !doublestar.ValidatePattern(strings.TrimPrefix(g, "./")) {
				return fmt.Errorf("context.exclude %q is not a glob; write it like _kano/**/views/** or docs/index.md", g)
			}
		}
		c.Exclude = f.Exclude
	}
	if f.IncludeGen != nil {
		c.IncludeGenerated = *f.IncludeGen
	}
	if f.Direction != nil {
		switch *f.Direction {
		case "out", "in", "both":
			c.Direction = *f.Direction
		default:
			return fmt.Errorf("context.direction %q is not out, in or both", *f.Direction)
		}
	}
	if f.Scopes != nil {
		if err := c.Scopes.merge(f.Scopes); err != nil {
			return err
		}
	}
	if f.Weights != nil {
		if err := c.Weights.merge(f.Weights); err != nil {
			return err
		}
	}
	return nil
}

// merge lays the file's context.scopes over s: each share between 0 and 1,
// together at most 1, and the global document a file inside the
// repository.
func (s *Scopes) merge(sc *scopesFile) error {
	for _, sh := range []struct {
		name string
		src  *float64
		dst  *float64
	}{{"global", sc.Global, &s.Global}, {"group", sc.Group, &s.Group}, {"task", sc.Task, &s.Task}, {"path", sc.Path, &s.Path}} {
		if sh.src == nil {
			continue
		}
		if !(*sh.src >= 0 && *sh.src <= 1) { // NaN too
			return fmt.Errorf("context.scopes.%s must be between 0 and 1 (a share of the budget)", sh.name)
		}
		*sh.dst = *sh.src
	}
	if sum := s.Global + s.Group + s.Task + s.Path; sum > 1.0001 {
		return fmt.Errorf("context.scopes shares add up to %.2f; together they are at most 1", sum)
	}
	if sc.GlobalDocument != nil && *sc.GlobalDocument == "" {
		s.GlobalDocument = ""
	} else if sc.GlobalDocument != nil {
		p, err := cleanRoot(*sc.GlobalDocument)
		if err != nil || p == "." {
			return fmt.Errorf("context.scopes.global_document %q is not a file inside the repository", *sc.GlobalDocument)
		}
		s.GlobalDocument = p
	}
	return nil
}

// merge lays the file's context.weights over ws: a decay above 0 and at
// most 1, and every weight from 0 to MaxWeight.
func (ws *Weights) merge(w *weightsFile) error {
	if w.Decay != nil {
		if !(*w.Decay > 0 && *w.Decay <= 1) { // NaN too
			return fmt.Errorf("context.weights.decay must be above 0 and at most 1")
		}
		ws.Decay = *w.Decay
	}
	for name, pair := range map[string]struct{ src, dst map[string]float64 }{
		"edges": {w.Edges, ws.Edges}, "kinds": {w.Kinds, ws.Kinds},
		"states": {w.States, ws.States}, "sections": {w.Sections, ws.Sections},
	} {
		for k, v := range pair.src {
			if v < 0 {
				return fmt.Errorf("context.weights.%s.%s is negative; weights are 0 or more", name, k)
			}
			if !(v <= MaxWeight) { // NaN and infinity too: scores would be no numbers JSON can hold
				return fmt.Errorf("context.weights.%s.%s is %v; weights are numbers from 0 to %d", name, k, v, MaxWeight)
			}
			pair.dst[strings.ToLower(k)] = v
		}
	}
	return nil
}

const templateContext = `
# Context packs (canon context, canon query run): seeds from full-text
# search and/or given ids, expanded over the graph, ranked, and cut to a
# token budget (tokens are estimated as ceil(characters / 4)).
context:
  depth: 1                 # hops from the seeds
  edges: [parent, blocked_by, blocks, depends_on, decision_ref, supersedes, relates, references]
  direction: both          # out, in or both
  max_per_node: 8          # new neighbours one node may add
  max_nodes: 40            # entries in a pack, seeds included
  budget: 4000             # estimated tokens
  search_seeds: 8          # documents full-text search adds as seeds
  related: 3               # a task no edge reaches: documents a search for its title adds
  sections: 2              # sections a seed quotes (a neighbour quotes one)
  excerpt_chars: 700       # a quoted section is cut near this length
  # The pack for a task (canon context --for) quotes these sections of the
  # task first, then spends the budget by the section weights below.
  essential: [Acceptance Criteria, Approach, Implementation Plan, Decision, Description]
  # Generated documents (generated: true, Kano's views/ and *.index.md,
  # *.generated.md, pages that are mostly a list of links, and these
  # globs) are never seeds or neighbours, unless include_generated.
  exclude: []
  include_generated: false
  # canon context --for TASK splits its budget between the scopes of
  # knowledge (frontmatter scope: global, group, task or path); what one
  # scope does not use goes to the others. promote --scope global writes
  # into global_document.
  scopes: {global: 0.3, group: 0.3, task: 0.2, path: 0.2, global_document: ""}
  # score = base x kind x state; a seed's base is its search relevance
  # (1 for a given id) x the weight of the section that matched; a
  # neighbour's is its parent's base x decay x the edge's weight.
  # Keys are matched without case; unlisted keys weigh 1.
  weights:
    decay: 0.6
    edges: {parent: 1, blocked_by: 0.9, blocks: 0.9, depends_on: 0.9, decision_ref: 0.9, supersedes: 0.8, relates: 0.7, references: 0.5}
    kinds: {adr: 1.2, bug: 1, task: 1, story: 1, feature: 1, epic: 0.9, doc: 0.8, index: 0.5}
    states:
      InProgress: 1.2
      Review: 1.1
      Ready: 1.1
      Blocked: 1.1
      Planned: 1
      Proposed: 1
      Accepted: 1
      Done: 0.7
      Closed: 0.7
      Resolved: 0.7
      Superseded: 0.4
      Dropped: 0.3
      Cancelled: 0.3
      Rejected: 0.3
    # by heading slug; a slug that starts with a key and a dash weighs as
    # that key (decision-outcome as decision)
    sections: {decision: 1.5, decision-drivers: 1, goal: 1.3, context: 1.2, acceptance-criteria: 1.1, consequences: 1.1, approach: 1, risks--dependencies: 0.9, alternatives-considered: 0.8, worklog: 0.3}
`
