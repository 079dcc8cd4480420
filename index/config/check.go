package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Check configures canon check: each rule's severity, the schema of each
// kind, which parent kinds each kind may have, which fields are dates.
type Check struct {
	// Rules maps a rule id to error, warning or off; rules not named keep
	// their default severity.
	Rules map[string]string `yaml:"rules" json:"rules"`
	// Schemas maps a kind to what its documents must hold. A kind without a
	// schema (a plain note, kind doc) has no required fields.
	Schemas map[string]Schema `yaml:"schemas" json:"schemas"`
	// Parents maps a kind to the kinds its parent may have. A kind not
	// listed may have any parent.
	Parents map[string][]string `yaml:"parents" json:"parents"`
	// Dates are the frontmatter fields that must hold YYYY-MM-DD (or an RFC
	// 3339 date-time).
	Dates []string `yaml:"dates" json:"dates"`
	// Configured names the rules the configuration sets, so that a default
	// that adapts to the repository (wiki-link) yields to a choice.
	Configured map[string]bool `yaml:"-" json:"-"`
	// SchemasSet names the kinds whose schema the configuration sets: a
	// default schema checks only the documents that follow its convention
	// (canon check says which), a configured one checks them all.
	SchemasSet map[string]bool `yaml:"-" json:"-"`
}

// Schema is what documents of one kind must hold.
type Schema struct {
	Required   []string `yaml:"required" json:"required"`
	States     []string `yaml:"states" json:"states"`         // allowed state (or status) values; empty: any
	Priorities []string `yaml:"priorities" json:"priorities"` // allowed priority values; empty: any
	IDPattern  string   `yaml:"id_pattern" json:"id_pattern"` // a regular expression the id must match; empty: any
}

// Severities a rule can have.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityOff     = "off"
)

// DefaultRules are the rules of canon check and their default severities.
func DefaultRules() map[string]string {
	return map[string]string{
		"yaml-syntax":       SeverityError,
		"frontmatter":       SeverityWarning,
		"edge-value":        SeverityError,
		"identity-value":    SeverityError,
		"file-skipped":      SeverityWarning,
		"document-budget":   SeverityWarning,
		"required-field":    SeverityError,
		"enum-value":        SeverityError,
		"date-format":       SeverityError,
		"id-format":         SeverityError,
		"duplicate-id":      SeverityError,
		"duplicate-uid":     SeverityError,
		"dangling-ref":      SeverityError,
		"ambiguous-ref":     SeverityError,
		"broken-link":       SeverityError,
		"broken-anchor":     SeverityError,
		"wiki-link":         SeverityError,
		"parent-cycle":      SeverityError,
		"parent-kind":       SeverityError,
		"asymmetric-block":  SeverityWarning,
		"self-reference":    SeverityError,
		"group-cycle":       SeverityError,
		"unused-definition": SeverityOff,
		"submodule-link":    SeverityWarning,
		"anchor-case":       SeverityWarning,
		"enum-case":         SeverityWarning,
		"conflict-marker":   SeverityError,
	}
}

var itemStates = []string{"Proposed", "Planned", "Ready", "InProgress", "Review", "Done", "Blocked", "Dropped"}
var priorities = []string{"P0", "P1", "P2", "P3", "P4"}

func itemSchema(code string) Schema {
	return Schema{Required: []string{"id", "title", "state"}, States: itemStates, Priorities: priorities,
		IDPattern: `^[A-Z][A-Z0-9]*-` + code + `-[0-9]{4,}$`}
}

// DefaultCheck fits a Kano-style backlog (ADR-0027) and stays quiet on
// plain notes.
func DefaultCheck() Check {
	return Check{
		Rules: DefaultRules(),
		Schemas: map[string]Schema{
			"epic":    itemSchema("EPIC?"),
			"feature": itemSchema("FTR"),
			"story":   itemSchema("USR"),
			"task":    itemSchema("TSK"),
			"bug":     itemSchema("BUG"),
			"adr": {Required: []string{"title", "status"},
				States:    []string{"Draft", "Proposed", "Accepted", "Rejected", "Deprecated", "Superseded"},
				IDPattern: `^ADR-[0-9]{4,}$`},
		},
		// Kano's published rules: Epic > Feature > UserStory > Task or
		// Bug; a bug may sit under a feature, a task under a task.
		Parents: map[string][]string{
			"feature": {"epic"},
			"story":   {"feature"},
			"task":    {"story", "task"},
			"bug":     {"story", "feature"},
		},
		Dates: []string{"created", "updated", "date", "due", "closed"},
	}
}

type fileCheck struct {
	Rules   map[string]string   `yaml:"rules"`
	Schemas map[string]*Schema  `yaml:"schemas"`
	Parents map[string][]string `yaml:"parents"`
	Dates   []string            `yaml:"dates"`
}

func (c *Check) merge(n *yaml.Node) error {
	var f fileCheck
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	known := DefaultRules()
	for rule, sev := range f.Rules {
		if _, ok := known[rule]; !ok {
			return fmt.Errorf("check.rules: there is no rule %q; the rules are %s", rule, strings.Join(sortedNames(known), ", "))
		}
		switch sev {
		case SeverityError, SeverityWarning, SeverityOff:
		default:
			return fmt.Errorf("check.rules.%s: %q is not a severity; write error, warning or off", rule, sev)
		}
		c.Rules[rule] = sev
		if c.Configured == nil {
			c.Configured = map[string]bool{}
		}
		c.Configured[rule] = true
	}
	for kind, s := range f.Schemas {
		if s == nil {
			delete(c.Schemas, kind) // `task: ~` drops the default schema
			continue
		}
		if s.IDPattern != "" {
			if _, err := regexp.Compile(s.IDPattern); err != nil {
				return fmt.Errorf("check.schemas.%s.id_pattern: %w", kind, err)
			}
		}
		if def, ok := DefaultCheck().Schemas[kind]; !ok || !reflect.DeepEqual(def, *s) {
			// The template canon init writes repeats the defaults: a
			// schema equal to the default is the default.
			if c.SchemasSet == nil {
				c.SchemasSet = map[string]bool{}
			}
			c.SchemasSet[kind] = true
		}
		c.Schemas[kind] = *s
	}
	for kind, ps := range f.Parents {
		if ps == nil {
			delete(c.Parents, kind)
			continue
		}
		c.Parents[kind] = ps
	}
	if f.Dates != nil {
		c.Dates = f.Dates
	}
	return nil
}

// Severity returns a rule's configured severity.
func (c *Check) Severity(rule string) string {
	if s, ok := c.Rules[rule]; ok {
		return s
	}
	return SeverityError
}

func sortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

const templateCheck = `
# canon check (the pre-commit hook and CI). Each rule is error, warning or
# off; the defaults are below. A document opts out inline with
# <!-- canon:disable-line RULE --> (or -next-line, or canon:disable for the
# whole file; in frontmatter: # canon:disable-line RULE).
check:
  rules:
    yaml-syntax: error
    frontmatter: warning
    edge-value: error
    identity-value: error
    file-skipped: warning
    required-field: error
    enum-value: error
    date-format: error
    id-format: error
    # duplicate-id: error, but a warning for an id not shaped like
    # PREFIX-123 (documentation sites keep such ids per folder).
    duplicate-uid: error
    # dangling-ref: error, but a warning for a value with spaces or one a
    # document has as its title (some tools name a page by its title), and
    # in a sparse checkout.
    # ambiguous-ref: error, but a warning for a value a document has as its
    # title (pages of one title: Just the Docs tells them apart by grand_parent).
    broken-link: error
    broken-anchor: error
    # wiki-link: error where some wiki-link of the repository works, else a
    # warning ([[x]] may be text in double brackets there).
    # Naming one of these three here fixes its severity.
    parent-cycle: error
    parent-kind: error
    asymmetric-block: warning
    self-reference: error
    group-cycle: error
    unused-definition: off   # a [label]: dest line nothing uses (GitHub shows nothing)
    submodule-link: warning  # links into a git submodule, which canon cannot check
    anchor-case: warning     # #Anchor for the heading #anchor: GitHub ignores case, other renderers do not
    enum-case: warning       # an ADR's status: proposed where the schema writes Proposed (MADR's case)
    document-budget: warning # a body past 10,000 headings or 20,000 links
    conflict-marker: error   # <<<<<<< lines a merge left (a server's merge button runs no merge driver)
  # What documents of each kind must hold. A kind not listed (a plain note
  # is kind doc) has no schema. Write "task: ~" to drop a default schema.
  schemas:
    epic: &item
      required: [id, title, state]
      states: [Proposed, Planned, Ready, InProgress, Review, Done, Blocked, Dropped]
      priorities: [P0, P1, P2, P3, P4]
      id_pattern: '^[A-Z][A-Z0-9]*-EPIC?-[0-9]{4,}$'
    feature: {<<: *item, id_pattern: '^[A-Z][A-Z0-9]*-FTR-[0-9]{4,}$'}
    story: {<<: *item, id_pattern: '^[A-Z][A-Z0-9]*-USR-[0-9]{4,}$'}
    task: {<<: *item, id_pattern: '^[A-Z][A-Z0-9]*-TSK-[0-9]{4,}$'}
    bug: {<<: *item, id_pattern: '^[A-Z][A-Z0-9]*-BUG-[0-9]{4,}$'}
    adr:
      required: [title, status]
      states: [Draft, Proposed, Accepted, Rejected, Deprecated, Superseded]
      id_pattern: '^ADR-[0-9]{4,}$'
  # The kinds a parent may have, per kind (Kano's rules).
  parents:
    feature: [epic]
    story: [feature]
    task: [story, task]
    bug: [story, feature]
  # Fields that must hold a date (YYYY-MM-DD) or an RFC 3339 date-time.
  dates: [created, updated, date, due, closed]
`
